/**
 * Tools of RoMON: toolset, names, verbs, columns, notes and examples. The
 * RouterOS facts are in lib/routeros/schema/menus/romon.ts.
 *
 * @module
 */
import { romon, romonPorts } from "../../routeros/schema/menus/romon.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/tool/romon`. */
const romonTools: MenuTools = {
  schema: romon,
  toolset: "services",
  noun: noun("romon_settings", "RoMON"),
  verbs: ["get", "update"],
  columns: ["enabled", "id"],
  notes:
    "RoMON lets other RoMON routers reach this one by MAC address across layer-2 hops, and log in through it: set secrets before enabling it, and forbid it on untrusted ports (router_list_romon_ports).",
  example: { update: { secrets: "Example-RoMON-42" } },
};

/** `/tool/romon/port`. */
const romonPortsTools: MenuTools = {
  schema: romonPorts,
  toolset: "services",
  noun: noun("romon_port", "RoMON port"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["interface", "forbid", "cost", "default", "disabled", "comment"],
  notes:
    "The built-in entry (interface all) applies to every interface without an entry of its own; it cannot be removed. forbid keeps RoMON off an interface.",
  example: {
    add: { interface: "ether2", forbid: true, cost: 200, comment: "example" },
    update: { cost: 300 },
  },
};

/** The menus of this family, in catalogue order. */
export const ROMON_MENU_TOOLS: readonly MenuTools[] = [romonTools, romonPortsTools];
