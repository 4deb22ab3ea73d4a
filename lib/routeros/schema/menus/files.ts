/**
 * Schema of the files menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { int, state, text } from "../field.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/file`. */
export const files = menu({
  path: "/file",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: {},
  fields: {
    name: state(text("File name with its folder, e.g. flash/auto-before-reset.backup")),
    type: state(text("File type, e.g. backup, script, directory, .txt file")),
    size: state(int("Size in bytes")),
    "creation-time": state(
      text("When the file was created (RouterOS 6)", { releases: { until: "6.49" } }),
    ),
    "last-modified": state(text("When the file last changed (RouterOS 7)")),
  },
});

/** The menus of this family. */
export const FILES_SCHEMAS: readonly MenuSchema[] = [
  files,
];
