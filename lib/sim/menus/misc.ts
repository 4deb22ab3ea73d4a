/** Smaller menus: `/log`, `/file`, `/queue/*`, `/tool/*`. */
import type { MenuDef } from "../menu_types.ts";
import { ro } from "./common.ts";

/** `/log`. */
const LOG: MenuDef = {
  path: "/log",
  kind: "list",
  verbs: ["print", "find", "get"],
  noAdd: true,
  noExport: true,
  props: [ro("time", "str"), ro("topics", "str"), ro("message", "str")],
  columns: ["time", "topics", "message"],
};

/** Miscellaneous menus. */
export const MISC_MENUS: MenuDef[] = [LOG];
