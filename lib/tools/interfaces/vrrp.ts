/**
 * Tools of VRRP interfaces: toolset, names, verbs, columns, notes and
 * examples. The RouterOS facts are in lib/routeros/schema/menus/vrrp.ts.
 *
 * @module
 */
import { vrrp } from "../../routeros/schema/menus/vrrp.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/interface/vrrp`. */
const vrrpTools: MenuTools = {
  schema: vrrp,
  toolset: "interfaces",
  noun: noun("vrrp_interface", "VRRP interface"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "interface", "vrid", "priority", "master", "backup", "disabled", "comment"],
  notes:
    "Every router of a group needs the same vrid, version, interval and authentication; the virtual address goes on the VRRP interface (router_add_ip_address, a /32). The live router with the highest priority is master; with preemption_mode a higher-priority router takes over as soon as it is back (a second failover), so give the backup a lower priority and leave preemption off where a flap costs more than the wait. on_master, on_backup and on_fail are scripts the router runs: setting one needs the admin role.",
  example: {
    add: {
      name: "vrrp-example",
      interface: "bridge",
      vrid: 42,
      priority: 150,
      interval: "1s",
      comment: "example",
    },
    update: { priority: 120, preemption_mode: false },
  },
};

/** The menus of this family, in catalogue order. */
export const VRRP_MENU_TOOLS: readonly MenuTools[] = [vrrpTools];
