/**
 * Local paths of the settings: a leading `~/` is the home directory, in a
 * given value and a default alike (`--known-hosts`, `--state-dir`,
 * `--files-dir`). The configuration resolves it once, so the layers below
 * get paths they can open as they are.
 *
 * @module
 */

/** The settings whose value is a local path that may start with `~/`. */
export const HOME_PATHS = ["known-hosts", "state-dir", "files-dir"] as const;

/** Expand a leading `~/` (or a lone `~`) to the home directory. */
export function expandHome(path: string): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  return home + path.slice(1);
}
