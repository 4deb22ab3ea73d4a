/**
 * The audit log's hash chain. Each line is a JSON object whose `prev` is the
 * SHA-256 of the previous line (as written), sealed over its own content
 * (`prev` included) in one of two ways:
 *
 * - unkeyed: `hash`, the SHA-256 of the content. Anyone can compute it, so
 *   an edited entry re-sealed together with every entry after it (and the
 *   anchor) verifies too: the chain shows accidents and careless edits, not
 *   a forger who can write the file;
 * - keyed (`--audit-key-file`): `hmac`, the HMAC-SHA256 of the content with
 *   the key, which a forger without the key cannot make.
 *
 * A log may begin unkeyed (written before the key was set) and go on keyed;
 * an unkeyed entry after a keyed one is a break. An edited, deleted or
 * reordered line breaks the chain at the first line after the damage (or
 * at the line itself, for an edit). Removing lines from the end breaks no
 * link: the anchor (audit_anchor.ts) catches that.
 *
 * The server writes each line whole with its newline in one write, so a
 * last line without its newline is a write a crash cut short (a "torn"
 * tail): it was never flushed, so no command was sent on its strength.
 *
 * @module
 */
import type { AuditKey } from "./audit_key.ts";

/** `prev` of the first line. */
export const GENESIS = "0".repeat(64);

const encoder = new TextEncoder();

/** SHA-256 of a string, lowercase hex. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Seal an entry: add `prev` and `hash` (or `hmac`, with a key), and return the line to write. */
export async function sealLine(
  entry: Record<string, unknown>,
  prev: string,
  key?: AuditKey,
): Promise<string> {
  const body = JSON.stringify({ ...entry, prev });
  if (key) return JSON.stringify({ ...entry, prev, hmac: await key.mac(body) });
  return JSON.stringify({ ...entry, prev, hash: await sha256(body) });
}

/** The result of checking a log's chain. */
export interface ChainCheck {
  ok: boolean;
  /** Entries (whole lines) in the log. */
  entries: number;
  /** Entries checked and intact: all of them when ok, else those before the break. */
  intact: number;
  /**
   * `heads[k]` is the hash of entry #k (`heads[0]` is {@linkcode GENESIS}),
   * for the intact entries: what an anchor's head is compared with.
   */
  heads: string[];
  /** The intact entries, parsed (`parsed[k - 1]` is entry #k). */
  parsed: Record<string, unknown>[];
  /** First keyed entry (1-based), if any. */
  keyedFrom?: number;
  /** Bytes of a last line without its newline (a write cut by a crash), if any. */
  tornBytes?: number;
  /** First broken entry (1-based), when not ok. */
  brokenEntry?: number;
  reason?: string;
  /** The break is a keyed entry and no key was given: it may well be intact. */
  needsKey?: boolean;
}

/** Split a log into its whole lines (without newlines) and a torn last line ("" when none). */
export function logLines(text: string): { lines: string[]; torn: string } {
  const lines = text.split("\n");
  const torn = lines.pop() ?? "";
  return { lines, torn };
}

/** Check a whole log's chain, entry by entry (keyed entries with `key`). */
export async function verifyChain(text: string, key?: AuditKey): Promise<ChainCheck> {
  const { lines, torn } = logLines(text);
  const heads = [GENESIS];
  const parsed: Record<string, unknown>[] = [];
  let keyedFrom: number | undefined;
  const tornBytes = torn === "" ? undefined : encoder.encode(torn).length;
  const result = (ok: boolean, extra: Partial<ChainCheck> = {}): ChainCheck => ({
    ok,
    entries: lines.length,
    intact: parsed.length,
    heads,
    parsed,
    ...(keyedFrom !== undefined ? { keyedFrom } : {}),
    ...(tornBytes !== undefined ? { tornBytes } : {}),
    ...extra,
  });
  const broken = (n: number, reason: string, needsKey = false) =>
    result(false, { brokenEntry: n, reason, ...(needsKey ? { needsKey } : {}) });
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(lines[i]);
    } catch {
      return broken(n, "not valid JSON");
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      return broken(n, "not a JSON object");
    }
    if (entry.prev !== heads[i]) {
      return broken(
        n,
        "its prev hash does not match the entry before it (an entry was edited, deleted or moved)",
      );
    }
    if ("hmac" in entry) {
      const { hmac, ...rest } = entry;
      keyedFrom ??= n;
      if (!key) {
        return broken(n, "it is sealed with a key (HMAC-SHA256), and no key was given", true);
      }
      if (hmac !== await key.mac(JSON.stringify(rest))) {
        return broken(n, "its content was edited, or it was sealed with another key");
      }
    } else if ("hash" in entry) {
      const { hash, ...rest } = entry;
      if (keyedFrom !== undefined) {
        return broken(
          n,
          `it is not sealed with the key although entry #${keyedFrom} before it is ` +
            "(written without the key, or forged)",
        );
      }
      if (hash !== await sha256(JSON.stringify(rest))) return broken(n, "its content was edited");
    } else {
      return broken(n, "it is not sealed (no hash or hmac)");
    }
    parsed.push(entry);
    heads.push(await sha256(lines[i]));
  }
  return result(true);
}
