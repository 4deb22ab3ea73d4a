/**
 * Schema of the ARP table (RouterOS facts only; tools live in lib/tools):
 * static entries are written, dynamic ones (learned, or added by DHCP) are
 * only read.
 *
 * Properties: the `add`/`set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24, the same on every tree) and the
 * print property list of `tree-7.22.3.json` (`vrf` is left out: no capture
 * shows how it prints); `status` is RouterOS 7's (the RouterOS 6 capture
 * `real-output/terse-ip-arp.txt` has none). Flags: D and C in that capture,
 * H (DHCP) from MikroTik's ARP manual; `published` prints as a property there.
 *
 * @module
 */
import { bool, ipv4, mac, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/ip/arp`. */
export const arp = menu({
  path: "/ip/arp",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { X: "disabled", I: "invalid", H: "dhcp", D: "dynamic", C: "complete" },
  fields: {
    address: ipv4("IPv4 address of the neighbour, e.g. 192.168.88.20", { required: true }),
    "mac-address": mac("Its MAC address, e.g. AA:BB:CC:00:11:22"),
    interface: ref("/interface", "Interface it is reached on, e.g. bridge", { required: true }),
    published: bool("Answer ARP requests for this address on the neighbour's behalf (proxy)"),
    status: state(
      text("RouterOS 7: permanent (static), reachable, stale, delay, probe, failed...", {
        releases: { from: "7.0" },
      }),
    ),
    complete: state(bool("Whether the MAC address is known")),
    dhcp: state(bool("Added by the DHCP server (add-arp)")),
    dynamic: dynamic(),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const ARP_SCHEMAS: readonly MenuSchema[] = [arp];
