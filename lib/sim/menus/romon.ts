/**
 * RoMON: `/tool/romon` (settings) and `/tool/romon/port`.
 *
 * Sources:
 * - arguments: `../shared/fidelity/tree-*.json` (the same on 7.12.2 to
 *   7.24; the `discover`, `ping` and `ssh` commands of `/tool/romon` are not
 *   imitated); the port properties printed: the print property list of
 *   `tree-7.22.3.json` (comment cost default disabled dynamic forbid
 *   interface secrets);
 * - RouterOS 6 (RoMON since 6.28): the same properties in MikroTik's v6
 *   manual;
 * - defaults: off, id 00:00:00:00:00:00 (the MAC of an interface is used),
 *   no secrets, and the one built-in port entry for all interfaces
 *   (cost 100, not forbidden), as MikroTik's RoMON manual gives them.
 *
 * No real capture of these menus' `print` is in `../shared`: print order is
 * the order below, and the refusal to remove the built-in port entry is
 * worded here, not copied. Secrets are sensitive (hidden from print), as
 * the 7.22.3 tree's `show-sensitive` on both prints says.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { fail } from "../errors.ts";
import { isTrue } from "../values.ts";
import { bool, COMMENT, DISABLED, DYNAMIC, F_DISABLED, F_DYNAMIC, int, ro, str } from "./common.ts";
import { settingsMenu } from "./settings_menu.ts";

/** `/tool/romon`: off, as a new router has it. */
const ROMON = settingsMenu("/tool/romon", [
  bool("enabled", false),
  { name: "id", type: "mac", default: "00:00:00:00:00:00" },
  str("secrets", { sensitive: true, default: "" }),
], { enabled: "false", id: "00:00:00:00:00:00", secrets: "" });

/** `/tool/romon/port`: the built-in entry for all interfaces, plus what is added. */
const PORT: MenuDef = {
  path: "/tool/romon/port",
  kind: "list",
  props: [
    {
      name: "interface",
      type: "ref",
      ref: "/interface",
      refAllow: ["all", "dynamic", "none", "static"],
      required: true,
    },
    bool("forbid", false),
    int("cost", 100, { min: 1, max: 65535 }),
    str("secrets", { sensitive: true, default: "" }),
    // stored on the built-in item only, as `yes`: its export is `set [ find default=yes ]`
    ro("default", "bool"),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ch: "*", name: "default", group: 0, test: (i) => isTrue(i.default) },
    { ...F_DISABLED, group: 1 },
    { ...F_DYNAMIC, group: 1 },
  ],
  columns: ["interface", "forbid", "cost"],
  exportFindBy: "default",
  checkRemove: (i) => {
    if (isTrue(i.default)) throw fail("failure: default entry can not be removed");
  },
  defaults: () => [{
    interface: "all",
    forbid: "false",
    cost: "100",
    secrets: "",
    default: "yes",
    dynamic: "false",
    disabled: "false",
  }],
};

/** The menus of this family. */
export const ROMON_MENUS: readonly MenuDef[] = [ROMON, PORT];
