/**
 * The algorithms this server's SSH client offers a server, as neutral lists
 * of SSH names, for whoever must know what a server has to accept for this
 * client to connect. handshake.ts leaves ssh2's defaults as they are (only
 * the host key algorithms are narrowed, to the key types a known_hosts entry
 * records), so these are ssh2's default lists, read from ssh2's own tables
 * (`lib/protocol/constants.js`, which already leave out what this runtime's
 * crypto lacks): an ssh2 upgrade that changes them changes these, and
 * `tests/ssh_ssh2_internals.test.ts` fails when the tables move.
 *
 * @module
 */

/** What the client offers, most preferred first. */
export interface OfferedAlgorithms {
  cipher: readonly string[];
  kex: readonly string[];
  serverHostKey: readonly string[];
  mac: readonly string[];
}

/** The fields of ssh2's constants module read here. */
interface Ssh2Constants {
  DEFAULT_CIPHER?: string[];
  DEFAULT_KEX?: string[];
  DEFAULT_SERVER_HOST_KEY?: string[];
  DEFAULT_MAC?: string[];
}

let loaded: Promise<OfferedAlgorithms> | undefined;

function listOf(value: unknown, name: string): readonly string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== "string")) {
    throw new Error(
      `ssh2 no longer has ${name} in lib/protocol/constants.js (lib/ssh/algorithms.ts)`,
    );
  }
  return Object.freeze([...value]);
}

/** The algorithms the client offers (loaded with ssh2's tables on first use). */
export function offeredAlgorithms(): Promise<OfferedAlgorithms> {
  loaded ??= import("ssh2/lib/protocol/constants.js").then((m) => {
    const c = (m.default ?? m) as Ssh2Constants;
    return Object.freeze({
      cipher: listOf(c.DEFAULT_CIPHER, "DEFAULT_CIPHER"),
      kex: listOf(c.DEFAULT_KEX, "DEFAULT_KEX"),
      serverHostKey: listOf(c.DEFAULT_SERVER_HOST_KEY, "DEFAULT_SERVER_HOST_KEY"),
      mac: listOf(c.DEFAULT_MAC, "DEFAULT_MAC"),
    });
  });
  return loaded;
}
