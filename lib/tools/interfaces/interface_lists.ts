/**
 * Tools of the interface lists (`/interface/list` and its members): toolset,
 * nouns, verbs, columns, notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/interface_lists.ts. Firewall rules, neighbour
 * discovery and MAC access name these lists, so a change is a lock-out
 * check of its own (lib/tools/guard/lockout_lists.ts).
 *
 * @module
 */
import { interfaceLists, listMembers } from "../../routeros/schema/menus/interface_lists.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { interfaceListLockout, listMemberLockout } from "../guard/lockout_lists.ts";

/** `/interface/list`. */
const interfaceListsTools: MenuTools = {
  schema: interfaceLists,
  toolset: "interfaces",
  noun: noun("interface_list", "interface list"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "include", "exclude", "builtin", "dynamic", "comment"],
  notes:
    "A named set of interfaces (members: router_add_interface_list_member; include/exclude: other lists' members). The built-in lists all, none, dynamic and static cannot be changed or removed. A change that makes a firewall rule drop this server's SSH session needs confirm.",
  example: {
    "add": { "name": "EXAMPLE", "include": ["LAN"], "comment": "example" },
    "update": { "exclude": ["WAN"], "comment": "changed" },
  },
  lockout: interfaceListLockout,
};

/** `/interface/list/member`. */
const listMembersTools: MenuTools = {
  schema: listMembers,
  toolset: "interfaces",
  noun: noun("interface_list_member", "interface list member"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["list", "interface", "dynamic", "disabled", "comment"],
  notes:
    "One interface in one list (a list and an interface appear together once). Moving the interface this server reaches the router through in or out of a list a firewall rule names can cut the session: such a change needs confirm.",
  example: {
    "add": { "list": "LAN", "interface": "ether4", "comment": "example" },
    "update": { "comment": "changed" },
  },
  lockout: listMemberLockout,
};

/** The menus of this family, in catalogue order. */
export const INTERFACE_LISTS_MENU_TOOLS: readonly MenuTools[] = [
  interfaceListsTools,
  listMembersTools,
];
