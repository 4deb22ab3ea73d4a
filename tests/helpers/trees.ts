/**
 * The real RouterOS command trees of `../shared/fidelity` (what a CHR of
 * each release reports through `/console/inspect`). Tests that read them
 * skip, with a printed reason, when the directory is absent; nothing of them
 * is copied into the project.
 *
 * @module
 */
import { compareReleases, type Release, release } from "../../lib/routeros/release.ts";

/**
 * Where the trees live: `../shared/fidelity` beside the repository, or, from
 * a git worktree one level deeper (`/work/wt/<name>`), two levels up.
 */
export const FIDELITY: string = ["../../../shared/fidelity/", "../../../../shared/fidelity/"]
  .map((p) => new URL(p, import.meta.url).pathname)
  .find((p) => {
    try {
      return Deno.statSync(p).isDirectory;
    } catch {
      return false;
    }
  }) ?? new URL("../../../shared/fidelity/", import.meta.url).pathname;

/** One release's tree, as the fidelity README describes (format 3). */
export interface Tree {
  version: string;
  release: Release;
  completion: boolean;
  menus: Record<
    string,
    { c?: Record<string, string>; e?: Record<string, [number, string]>; x?: 1; p?: string }
  >;
  enums: string[][];
}

/** True when the trees are present; prints why not otherwise. */
export function treesAvailable(): boolean {
  try {
    Deno.statSync(FIDELITY + "README.md");
    return true;
  } catch {
    console.log(`SKIP: ${FIDELITY} is absent (real RouterOS command trees)`);
    return false;
  }
}

let cache: Tree[] | undefined;

/** Every tree, oldest release first. */
export function trees(): Tree[] {
  cache ??= [...Deno.readDirSync(FIDELITY)]
    .map((e) => /^tree-(.+)\.json$/.exec(e.name)?.[1])
    .filter((v): v is string => v !== undefined)
    .map((v) => {
      const t = JSON.parse(Deno.readTextFileSync(`${FIDELITY}tree-${v}.json`));
      return { ...t, version: v, release: release(v) } as Tree;
    })
    .sort((a, b) =>
      a.release.major - b.release.major || a.release.minor - b.release.minor ||
      a.release.patch - b.release.patch
    );
  return cache;
}

/**
 * The tree a simulated release is held against: the newest real tree of the
 * same major release that is not newer than it (7.15.3 against 7.13.5, 7.17
 * against 7.16.2); undefined for 6.x, which has no public tree.
 */
export function nearestTree(version: string): Tree | undefined {
  const r = release(version);
  return trees().filter((t) => t.release.major === r.major && compareReleases(t.release, r) <= 0)
    .pop();
}

/** The arguments of `command` in `path` on a tree, or undefined when the command is absent. */
export function argsOf(tree: Tree, path: string, command: string): Set<string> | undefined {
  const c = tree.menus[path]?.c?.[command];
  return c === undefined ? undefined : new Set(c.split(" ").filter(Boolean));
}

/** The value list of `command arg` on a tree, and whether it comes from completion data. */
export function valuesOf(
  tree: Tree,
  path: string,
  command: string,
  arg: string,
): { values: string[]; complete: boolean } | undefined {
  const e = tree.menus[path]?.e?.[`${command} ${arg}`];
  return e ? { values: tree.enums[e[0]], complete: e[1] === "c" } : undefined;
}
