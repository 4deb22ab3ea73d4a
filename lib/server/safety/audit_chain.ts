/**
 * The audit log's hash chain. Each line is a JSON object whose `prev` is the
 * SHA-256 of the previous line (as written) and whose `hash` is the SHA-256
 * of its own content without `hash`. An edited, deleted or reordered line
 * breaks the chain at the first line after the damage (or at the line
 * itself, for an edit). Removing lines from the end breaks no link: the
 * anchor (audit_anchor.ts) catches that.
 *
 * @module
 */

/** `prev` of the first line. */
export const GENESIS = "0".repeat(64);

/** SHA-256 of a string, lowercase hex. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Seal an entry: add `prev` and `hash`, and return the line to write. */
export async function sealLine(entry: Record<string, unknown>, prev: string): Promise<string> {
  const body = JSON.stringify({ ...entry, prev });
  const hash = await sha256(body);
  return JSON.stringify({ ...entry, prev, hash });
}

/** The result of checking a log's chain. */
export interface ChainCheck {
  ok: boolean;
  /** Entries (lines) in the log. */
  entries: number;
  /** Entries checked and intact: all of them when ok, else those before the break. */
  intact: number;
  /**
   * `heads[k]` is the hash of entry #k (`heads[0]` is {@linkcode GENESIS}),
   * for the intact entries: what an anchor's head is compared with.
   */
  heads: string[];
  /** First broken entry (1-based), when not ok. */
  brokenEntry?: number;
  reason?: string;
}

/** Split a log into its entries (lines), without the final newline. */
export function logLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Check a whole log's chain, entry by entry. */
export async function verifyChain(text: string): Promise<ChainCheck> {
  const lines = logLines(text);
  const heads = [GENESIS];
  const broken = (n: number, reason: string): ChainCheck => ({
    ok: false,
    entries: lines.length,
    intact: n - 1,
    heads,
    brokenEntry: n,
    reason,
  });
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
    const { hash, ...rest } = entry;
    if (hash !== await sha256(JSON.stringify(rest))) return broken(n, "its content was edited");
    heads.push(await sha256(lines[i]));
  }
  return { ok: true, entries: lines.length, intact: lines.length, heads };
}
