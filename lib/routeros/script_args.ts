/**
 * The RouterOS properties whose value is a script the router runs: a DHCP
 * server's `lease-script`, a PPP profile's `on-up`, a netwatch's
 * `up-script`... RouterOS runs them with the rights of the item's owner
 * (often every policy), so whoever can set one can run any command on the
 * router; and a script's text may hold passwords (`/user set ...
 * password=...`), which are masked in it like raw console text.
 *
 * The list is taken from the real command trees of RouterOS 7.12 to 7.24
 * (`shared/fidelity`: every `add`/`set` argument named like a script, judged
 * one by one) plus the hardware menus a CHR lacks (the RouterBOARD buttons).
 * `tests/unit/script_args.test.ts` holds it against the trees and against
 * the schema's fields marked `script`.
 *
 * @module
 */

/** Properties that hold a script the router runs, by menu path. */
export const SCRIPT_ARGUMENTS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    "/interface/vrrp": ["on-backup", "on-fail", "on-master"],
    "/iot/mqtt/subscriptions": ["on-message"],
    "/ip/dhcp-client": ["script"],
    "/ip/dhcp-server": ["lease-script"],
    "/ip/dhcp-server/alert": ["on-alert"],
    "/ip/hotspot/user/profile": ["on-login", "on-logout"],
    "/ipv6/dhcp-client": ["script"],
    "/ipv6/dhcp-server": ["binding-script"],
    "/ppp/profile": ["on-down", "on-up"],
    // 7.22 on (target=script): a script run for each message, by its text or name.
    "/system/logging/action": ["script"],
    "/system/scheduler": ["on-event"],
    "/system/script": ["source"],
    "/tool/netwatch": ["down-script", "test-script", "up-script"],
    "/tool/traffic-monitor": ["on-event"],
    // RouterBOARD hardware (absent from the CHR trees): the buttons' scripts.
    "/system/routerboard/mode-button": ["on-event"],
    "/system/routerboard/reset-button": ["on-event"],
    "/system/routerboard/wps-button": ["on-event"],
  }).map(([path, names]) => [path, new Set(names)]),
);

/** Whether property `name` of menu `path` holds a script the router runs. */
export function isScriptArgument(path: string, name: string): boolean {
  return SCRIPT_ARGUMENTS.get(path)?.has(name) ?? false;
}
