/**
 * Management settings menus: `/ip/cloud` and `/ip/ssh`, each a settings
 * menu (print, get, set). (`/snmp` is its own family: `snmp.ts`.)
 *
 * Property names per release are the `set` arguments of the real trees in
 * `../shared/fidelity` (7.12.2, 7.13.5, 7.16.2, 7.20.8, 7.22.3, 7.24); where
 * a property appears or goes between two trees, its range starts at the
 * first tree that has it or ends at the last one. Values: the value lists
 * of `tree-7.22.3.json` and `real-output/ssh-docs-server-and-exec.txt`
 * (MikroTik's SSH page: `host-key-type (ed25519 | rsa; Default: rsa)`,
 * `host-key-size ... Default: 2048`, `strong-crypto ... Default: no`).
 *
 * No real capture of these menus' `print` is in `../shared`: print order is
 * the order below (the trees list arguments alphabetically, not as printed),
 * and the read-only status lines that a real router adds (`/ip cloud`
 * `public-address`, `status`) are left out rather than made up. RouterOS 6
 * has no tree: its properties follow MikroTik's v6 manual (no
 * `host-key-type`, which came with RouterOS 7's Ed25519 host keys).
 *
 * The demo router serves an Ed25519 host key (`../hostkey.ts`), so its
 * `/ip ssh` says `host-key-type=ed25519` on RouterOS 7.
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
import { onRelease, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { bool, int, oneOf } from "./common.ts";

/** The settings of `item` that `menu` has on the router's release. */
function onItsRelease(menu: MenuDef, st: RouterState, item: Item): Item {
  return Object.fromEntries(
    Object.entries(item).filter(([k]) =>
      menu.props.some((p) => p.name === k && onRelease(st.release, p.releases))
    ),
  );
}

/** `/ip/cloud` (MikroTik's DDNS): off on the demo router, which has no public address. */
const CLOUD: MenuDef = {
  path: "/ip/cloud",
  kind: "single",
  props: [
    bool("ddns-enabled", false),
    { name: "ddns-update-interval", type: "time", values: ["none"], default: "none" },
    bool("update-time", true),
  ],
  defaults: () => [{
    "ddns-enabled": "false",
    "ddns-update-interval": "none",
    "update-time": "true",
  }],
};

const HOST_KEY_SIZES = ["1024", "1536", "2048", "4096", "8192"];

/** `/ip/ssh`: the SSH server's settings, which changed often in RouterOS 7. */
const SSH: MenuDef = {
  path: "/ip/ssh",
  kind: "single",
  props: [
    // 7.12.2 to 7.16.2 trees; gone in the 7.20.8 tree
    bool("allow-none-crypto", false, { releases: { until: "7.19" } }),
    // to the 7.20.8 tree; the 7.22.3 tree has password-authentication instead
    bool("always-allow-password-login", false, { releases: { until: "7.21" } }),
    // from the 7.20.8 tree
    oneOf("ciphers", ["3des-cbc", "aes-cbc", "aes-ctr", "aes-gcm", "auto", "null"], "auto", {
      releases: { from: "7.20" },
    }),
    oneOf("forwarding-enabled", ["both", "local", "no", "remote"], "no"),
    int("host-key-size", 2048, {
      validate: (v) =>
        HOST_KEY_SIZES.includes(v) ? undefined : "input does not match any value of host-key-size",
    }),
    oneOf("host-key-type", ["ed25519", "rsa"], "rsa", { releases: V7 }),
    // from the 7.22.3 tree
    oneOf("password-authentication", ["no", "yes", "yes-if-no-key"], "yes-if-no-key", {
      releases: { from: "7.22" },
    }),
    oneOf(
      "publickey-authentication-options",
      ["none", "touch-required", "verify-required"],
      "none",
      {
        releases: { from: "7.22" },
      },
    ),
    bool("strong-crypto", false),
  ],
  defaults: (st) => [onItsRelease(SSH, st, {
    "allow-none-crypto": "false",
    "always-allow-password-login": "false",
    ciphers: "auto",
    "forwarding-enabled": "no",
    "host-key-size": "2048",
    "host-key-type": "ed25519",
    "password-authentication": "yes-if-no-key",
    "publickey-authentication-options": "none",
    "strong-crypto": "false",
  })],
};

/** Management settings menus. */
export const MANAGEMENT_MENUS: MenuDef[] = [CLOUD, SSH];
