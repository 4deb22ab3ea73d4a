/**
 * Tools of the bridge menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/bridge.ts.
 *
 * @module
 */
import { bridgePorts, bridges, bridgeVlans } from "../../routeros/schema/menus/bridge.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { takesMembers } from "../guard/lockout_members.ts";

/** `/interface/bridge`. */
const bridgesTools: MenuTools = {
  schema: bridges,
  toolset: "bridge",
  noun: noun("bridge", "bridge"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "mtu", "protocol-mode", "vlan-filtering", "running", "disabled", "comment"],
  notes:
    "Ports are added with router_add_bridge_port. Turning vlan_filtering on without bridge VLAN entries for your management VLAN locks you out of the router.",
  example: {
    "add": { "name": "bridge-example", "protocol_mode": "rstp", "comment": "example" },
    "update": { "igmp_snooping": true, "comment": "changed" },
  },
};

/** `/interface/bridge/port`. */
const bridgePortsTools: MenuTools = {
  schema: bridgePorts,
  toolset: "bridge",
  noun: noun("bridge_port", "bridge port"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["interface", "bridge", "pvid", "hw", "inactive", "disabled", "comment"],
  notes:
    "An interface can be in one bridge only. Addresses on a port move to the bridge: moving the port you manage the router through cuts your access.",
  example: {
    "add": { "interface": "ether1", "bridge": "bridge", "comment": "example" },
    "update": { "pvid": 10, "comment": "changed" },
  },
  lockout: takesMembers("interface", "bridge", "bridge"),
};

/** `/interface/bridge/vlan`. */
const bridgeVlansTools: MenuTools = {
  schema: bridgeVlans,
  toolset: "bridge",
  noun: noun("bridge_vlan", "bridge VLAN entry"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["bridge", "vlan-ids", "current-tagged", "current-untagged", "disabled", "comment"],
  notes:
    "Only used when the bridge has vlan_filtering on. Tag the bridge itself to reach the router on a VLAN. Ports whose pvid matches get dynamic untagged membership.",
  example: {
    "add": {
      "bridge": "bridge",
      "vlan_ids": ["99"],
      "tagged": ["bridge", "ether2"],
      "comment": "example",
    },
    "update": { "untagged": ["ether3"], "comment": "changed" },
  },
};

/** The menus of this family, in catalogue order. */
export const BRIDGE_MENU_TOOLS: readonly MenuTools[] = [
  bridgesTools,
  bridgePortsTools,
  bridgeVlansTools,
];
