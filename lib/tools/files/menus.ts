/**
 * Tools of the files menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/files.ts.
 *
 * @module
 */
import { refCondition } from "../../routeros/command.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import { files } from "../../routeros/schema/menus/files.ts";
import { refuseRevertFileWrite } from "../changes/revert_files.ts";
import { refOf } from "../menu_tools/read_tools.ts";
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
  // The backup a pending import's revert loads stays until the change is settled.
  checkWrite: (tool, verb, args, ctx) =>
    refuseRevertFileWrite(tool, verb === "remove" ? "remove" : "replace", async () => {
      const ref = refOf(files, args);
      if (!("id" in ref)) return [ref.value];
      const dialect = await ctx.client.dialect();
      const [item] = await ctx.client.read(readSpecOf(files, dialect.release), [
        refCondition(ref),
      ]);
      return item ? [String(item.name ?? "")] : [];
    }, ctx),
};

/** The menus of this family, in catalogue order. */
export const FILES_MENU_TOOLS: readonly MenuTools[] = [
  filesTools,
];
