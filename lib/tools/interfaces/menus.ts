/**
 * Tools of the interfaces menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/interfaces.ts.
 *
 * @module
 */
import { ethernet, interfaces, poe, vlans } from "../../routeros/schema/menus/interfaces.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/interface`. */
const interfacesTools: MenuTools = {
  schema: interfaces,
  toolset: "interfaces",
  noun: noun("interface", "interface"),
  core: ["list"],
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "type", "actual-mtu", "mac-address", "running", "disabled", "comment"],
  notes:
    "Covers every kind (ether, bridge, vlan, wg, wifi...); kind-specific settings are in the menus of each kind (router_update_ethernet_port, router_update_bridge, ...). Interfaces cannot be added or removed here. Disabling the interface you manage the router through cuts your own access.",
  example: { "target": { "name": "ether3" }, "update": { "comment": "changed" } },
};

/** `/interface/ethernet`. */
const ethernetTools: MenuTools = {
  schema: ethernet,
  toolset: "interfaces",
  noun: noun("ethernet_port", "Ethernet port"),
  verbs: ["list", "get", "update"],
  columns: ["name", "default-name", "mtu", "mac-address", "running", "slave", "comment"],
  notes:
    "Physical ports cannot be added or removed. Changing speed, auto-negotiation or MTU bounces the link.",
  example: { "target": { "name": "ether3" }, "update": { "mtu": 1400, "comment": "changed" } },
};

/** `/interface/vlan`. */
const vlansTools: MenuTools = {
  schema: vlans,
  toolset: "interfaces",
  noun: noun("vlan", "VLAN interface"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "vlan-id", "interface", "mtu", "running", "disabled", "comment"],
  notes:
    "A VLAN interface tags traffic with vlan_id on its parent interface; put IP addresses on it with router_add_ip_address. For VLAN filtering inside a bridge use bridge VLANs instead.",
  example: {
    "add": { "name": "vlan99", "vlan_id": 99, "interface": "ether2", "comment": "example" },
    "update": { "mtu": 1400, "comment": "changed" },
  },
};

/** `/interface/ethernet/poe`. */
const poeTools: MenuTools = {
  schema: poe,
  toolset: "interfaces",
  noun: noun("poe_port", "PoE port"),
  verbs: ["list", "get", "update"],
  columns: ["name", "poe-out", "poe-priority", "poe-voltage"],
  notes:
    "Only PoE-capable ports are listed (none on devices without PoE out). Turning poe_out off powers down the device fed by that port.",
  example: { "target": { "name": "ether5" }, "update": { "poe_priority": 5 } },
};

/** The menus of this family, in catalogue order. */
export const INTERFACES_MENU_TOOLS: readonly MenuTools[] = [
  interfacesTools,
  ethernetTools,
  vlansTools,
  poeTools,
];
