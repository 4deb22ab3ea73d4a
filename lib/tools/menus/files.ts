/**
 * The file store.
 *
 * @module
 */
import { num, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";

/** `/file`: files on the router's storage. */
export const files: Menu = {
  path: "/file",
  toolset: "files",
  singular: "file",
  plural: "files",
  noun: "files",
  notes: "Names include folders (flash/backup.backup). Backups (.backup) and exports (.rsc) " +
    "land here. Removing a file cannot be undone.",
  key: "name",
  fields: {
    name: state(text("File name with its folder, e.g. flash/auto-before-reset.backup")),
    type: state(text("File type, e.g. backup, script, directory, .txt file")),
    size: state(num("Size in bytes")),
    "creation-time": state(text("When the file was created (older versions)")),
    "last-modified": state(text("When the file last changed (RouterOS 7)")),
  },
  verbs: ["list", "get", "remove"],
  columns: ["name", "type", "size", "last-modified"],
  flags: {},
};
