/**
 * `ssh2` loaded on first need. Importing it (with its crypto and asn1
 * helpers) costs tens of milliseconds and several MiB, and the server's
 * first request (`initialize`) needs no SSH: the product loads it when it
 * opens its first connection or reads its first key, or a moment after
 * start-up ({@linkcode preloadSsh2}), whichever comes first. Only types
 * come from `ssh2.ts` statically (they are erased); values come through
 * here.
 *
 * @module
 */

/** The `ssh2.ts` door, loaded once (later calls share the same promise). */
export function loadSsh2(): Promise<typeof import("./ssh2.ts")> {
  return import("./ssh2.ts");
}

/**
 * Load ssh2 `afterMs` from now, in the background: a server calls this once
 * it answers requests, so that neither `initialize` (and the `tools/list`
 * a client sends at once) nor the first tool call waits for the import. The
 * timer never keeps the process alive.
 */
export function preloadSsh2(afterMs = 100): void {
  const timer = setTimeout(() => void loadSsh2().catch(() => {}), afterMs);
  Deno.unrefTimer(timer);
}
