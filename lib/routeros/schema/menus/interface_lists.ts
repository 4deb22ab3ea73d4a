/**
 * Schema of the interface lists (RouterOS facts only; tools live in
 * lib/tools/interfaces/interface_lists.ts): `/interface list` and its
 * `member` menu, on every release (RouterOS 6.41 and later; the 7.12 to
 * 7.24 trees have the same arguments: `include`, `exclude`, `comment` on a
 * list, `list`, `interface`, `disabled`, `comment` on a member).
 *
 * The built-in lists (`all`, `none`, `dynamic`, from RouterOS 7 also
 * `static`) are flagged `*`; RouterOS refuses to change or remove them.
 *
 * @module
 */
import { bool, list, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/interface/list`. */
export const interfaceLists = menu({
  path: "/interface/list",
  kind: "list",
  key: "name",
  // Lists of interfaces, not interfaces.
  interfaces: false,
  writes: ["add", "set", "remove"],
  flags: { "*": "builtin", "D": "dynamic" },
  fields: {
    name: text("List name, e.g. MGMT (firewall rules name it in in_interface_list)", {
      required: true,
    }),
    include: list('Lists whose interfaces this one holds too, e.g. ["LAN"]'),
    exclude: list('Lists whose interfaces this one leaves out, e.g. ["WAN"]'),
    builtin: state(bool("Built in (all, none, dynamic, static): cannot be changed")),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/interface/list/member`. */
export const listMembers = menu({
  path: "/interface/list/member",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    list: ref("/interface/list", "The list, e.g. LAN", { required: true }),
    interface: ref("/interface", "The interface that belongs to it, e.g. ether2", {
      required: true,
    }),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const INTERFACE_LISTS_SCHEMAS: readonly MenuSchema[] = [interfaceLists, listMembers];
