/**
 * Tools of the files menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/files.ts.
 *
 * @module
 */
import { files } from "../../routeros/schema/menus/files.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/file`. */
const filesTools: MenuTools = {
  schema: files,
  toolset: "files",
  noun: noun("file", "file"),
  verbs: ["list", "get", "remove"],
  columns: ["name", "type", "size", "last-modified"],
  notes:
    "Names include folders (flash/backup.backup). Backups (.backup) and exports (.rsc) land here. Removing a file cannot be undone.",
};

/** The menus of this family, in catalogue order. */
export const FILES_MENU_TOOLS: readonly MenuTools[] = [
  filesTools,
];
