/**
 * Real RouterOS output from `../shared/real-output` (captures of real
 * routers, each naming its source and release). Tests that read it skip,
 * with a printed reason, when the directory is absent; nothing of it is
 * copied into the project.
 *
 * @module
 */

/**
 * Where the captures live: `../shared` beside the repository, or beside
 * the directory of git worktrees (`/work/wt/<name>` -> `/work/shared`).
 */
export const REAL_OUTPUT = ["../../../shared/real-output/", "../../../../shared/real-output/"]
  .map((p) => new URL(p, import.meta.url).pathname)
  .find((p) => {
    try {
      return Deno.statSync(p + "INDEX.md").isFile;
    } catch {
      return false;
    }
  }) ?? new URL("../../../shared/real-output/", import.meta.url).pathname;

/** True when the captures are present; prints why not otherwise. */
export function realOutputAvailable(): boolean {
  try {
    Deno.statSync(REAL_OUTPUT + "INDEX.md");
    return true;
  } catch {
    console.log(`SKIP: ${REAL_OUTPUT} is absent (real RouterOS captures)`);
    return false;
  }
}

/** One capture: its header facts and the output, byte for byte. */
export interface Capture {
  file: string;
  version: string;
  command: string;
  /** The output after the `# ---` line, split at the collector's block separators. */
  blocks: string[];
}

/** Read one capture file. */
export function capture(file: string): Capture {
  const text = Deno.readTextFileSync(REAL_OUTPUT + file);
  const at = text.indexOf("\n# ---\n");
  if (at < 0) throw new Error(`${file}: no "# ---" line`);
  const head = text.slice(0, at);
  const field = (k: string) => new RegExp(`^# ${k}: (.*)$`, "m").exec(head)?.[1] ?? "";
  const body = text.slice(at + "\n# ---\n".length);
  const blocks = body.split(/^----- [a-z ]+ -----\n/m);
  return { file, version: field("version"), command: field("command"), blocks };
}

/** Every capture file whose name starts with `prefix`. */
export function captures(prefix: string): string[] {
  return [...Deno.readDirSync(REAL_OUTPUT)]
    .map((e) => e.name)
    .filter((n) => n.startsWith(prefix) && n.endsWith(".txt"))
    .sort();
}
