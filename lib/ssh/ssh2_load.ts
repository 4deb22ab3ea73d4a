/**
 * `ssh2` loaded on first need. Importing it (with its crypto and asn1
 * helpers) costs tens of milliseconds and about 5 MiB of resident memory,
 * and a server that lists its tools needs no SSH: the product loads it
 * when it opens its first connection or reads its first key. (Loading it
 * in the background after start-up saved the first tool call about 5 ms,
 * within the noise of 16 interleaved cold starts: the first call waits for
 * the catalogue anyway.) Only types come from `ssh2.ts` statically (they
 * are erased); values come through here.
 *
 * @module
 */

let loaded: Promise<typeof import("./ssh2.ts")> | undefined;

/**
 * The `ssh2.ts` door, loaded once: later calls share the same promise (a
 * dynamic `import()` of a module already loaded still costs a module-map
 * lookup and a promise each, once per connection of a fan-out).
 */
export function loadSsh2(): Promise<typeof import("./ssh2.ts")> {
  return loaded ??= import("./ssh2.ts");
}
