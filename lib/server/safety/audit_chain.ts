/**
 * The audit log's hash chain. Each line is a JSON object whose `prev` is the
 * SHA-256 of the previous line (as written) and whose `hash` is the SHA-256
 * of its own content without `hash`. An edited, deleted or reordered line
 * breaks the chain at the first line after the damage (or at the line
 * itself, for an edit).
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

/** The result of checking a log. */
export interface ChainCheck {
  ok: boolean;
  /** Lines checked. */
  lines: number;
  /** First broken line (1-based), when not ok. */
  brokenLine?: number;
  reason?: string;
}

/** Check a whole log's chain. */
export async function verifyChain(text: string): Promise<ChainCheck> {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let prev = GENESIS;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(lines[i]);
    } catch {
      return { ok: false, lines: lines.length, brokenLine: n, reason: "not valid JSON" };
    }
    if (entry.prev !== prev) {
      return {
        ok: false,
        lines: lines.length,
        brokenLine: n,
        reason:
          "its prev hash does not match the line before it (a line was edited, deleted or moved)",
      };
    }
    const { hash, ...rest } = entry;
    if (hash !== await sha256(JSON.stringify(rest))) {
      return { ok: false, lines: lines.length, brokenLine: n, reason: "its content was edited" };
    }
    prev = await sha256(lines[i]);
  }
  return { ok: true, lines: lines.length };
}
