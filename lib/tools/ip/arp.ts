/**
 * Tools of the ARP table: toolset, names, verbs, columns, notes, examples
 * and the lock-out rule (lib/tools/guard/lockout_arp.ts). The RouterOS
 * facts are in lib/routeros/schema/menus/arp.ts.
 *
 * @module
 */
import { arp } from "../../routeros/schema/menus/arp.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { sessionArpEntry } from "../guard/lockout_arp.ts";

/** `/ip/arp`. */
const arpTools: MenuTools = {
  schema: arp,
  toolset: "ip",
  noun: noun("arp_entry", "ARP entry"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "mac-address", "interface", "status", "dynamic", "comment"],
  notes:
    "Only static entries can be changed: dynamic ones (learned, or added by DHCP) are read-only, so to pin a learned neighbour add a static entry for it. A wrong MAC for this server's address or for its gateway cuts this server's session (confirm is asked).",
  example: {
    add: {
      address: "192.168.88.250",
      mac_address: "AA:BB:CC:00:11:22",
      interface: "bridge",
      comment: "example",
    },
    update: { mac_address: "AA:BB:CC:00:11:33" },
  },
  lockout: sessionArpEntry,
};

/** The menus of this family, in catalogue order. */
export const ARP_MENU_TOOLS: readonly MenuTools[] = [arpTools];
