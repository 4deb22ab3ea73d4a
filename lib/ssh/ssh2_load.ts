/**
 * `ssh2` loaded on first need. Importing it (with its crypto and asn1
 * helpers) costs tens of milliseconds and several MiB, and the server's
 * first request (`initialize`) needs no SSH: the product loads it when it
 * opens its first connection or reads its first key. Only types come from
 * `ssh2.ts` statically (they are erased); values come through here.
 *
 * @module
 */

/** The `ssh2.ts` door, loaded once (later calls share the same promise). */
export function loadSsh2(): Promise<typeof import("./ssh2.ts")> {
  return import("./ssh2.ts");
}
