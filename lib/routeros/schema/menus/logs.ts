/**
 * Schema of the log (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { list, state, text } from "../field.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/log`: the router's log, newest last. */
export const logEntries = menu({
  path: "/log",
  kind: "list",
  exports: false,
  flags: {},
  fields: {
    time: state(text("Time as the router prints it (today: HH:MM:SS; older: with a date)")),
    topics: state(list("Topics, e.g. system, info")),
    message: state(text("The message")),
  },
});

/** The menus of this family. */
export const LOGS_SCHEMAS: readonly MenuSchema[] = [
  logEntries,
];
