/**
 * The audit log's anchor: a small JSON file next to the log (`FILE.anchor`)
 * that records how many entries the log holds and the hash of the last one.
 * The server rewrites it atomically after every append. The hash chain
 * alone cannot show entries removed from the end (what is left is still a
 * valid chain); the anchor can: a log shorter than its anchor was cut, and
 * a log whose entry at the anchor's count has another hash was rewritten.
 *
 * One judgement, {@linkcode judgeLog}, serves both `audit verify` and the
 * server, which refuses to append to a log that verify would not call OK.
 *
 * @module
 */
import { type ChainCheck, GENESIS } from "./audit_chain.ts";

/** What the anchor file holds. */
export interface Anchor {
  /** Entries the log held after the last append. */
  entries: number;
  /** SHA-256 of the last entry's line (the next entry's `prev`), or the genesis value. */
  head: string;
}

/** The anchor file's format marker. */
const FORMAT = "mcp-server-router audit anchor 1";

/** The anchor file of a log: the log's path plus `.anchor`. */
export function anchorPath(logPath: string): string {
  return `${logPath}.anchor`;
}

/** The anchor of an empty log. */
export const EMPTY_ANCHOR: Anchor = { entries: 0, head: GENESIS };

/** An anchor file that exists but cannot be used. */
export class AnchorError extends Error {}

/** Read a log's anchor: null when there is none, AnchorError when it is not valid. */
export async function readAnchor(logPath: string): Promise<Anchor | null> {
  const path = anchorPath(logPath);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new AnchorError(`${path} cannot be read (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new AnchorError(`${path} is not valid JSON`);
  }
  const a = doc as Partial<Anchor> & { format?: unknown };
  if (
    !a || a.format !== FORMAT || !Number.isSafeInteger(a.entries) || (a.entries as number) < 0 ||
    typeof a.head !== "string" || !/^[0-9a-f]{64}$/.test(a.head)
  ) {
    throw new AnchorError(`${path} is not an audit anchor (format, entries and head expected)`);
  }
  return { entries: a.entries as number, head: a.head };
}

/** Write a log's anchor atomically: a temporary file, flushed, then renamed over the old one. */
export async function writeAnchor(logPath: string, anchor: Anchor): Promise<void> {
  const path = anchorPath(logPath);
  const tmp = `${path}.${Deno.pid}.tmp`;
  const body = JSON.stringify({ format: FORMAT, entries: anchor.entries, head: anchor.head });
  const f = await Deno.open(tmp, { write: true, create: true, truncate: true });
  try {
    await f.write(new TextEncoder().encode(body + "\n"));
    await f.sync();
  } finally {
    f.close();
  }
  await Deno.rename(tmp, path);
}

/** The verdict on a log: its chain against its anchor. */
export interface Verdict {
  ok: boolean;
  /** Entries in the log. */
  entries: number;
  /** The last entry known good (0 when none is). */
  lastVerified: number;
  /** One line: `OK, N entries, ..., last verified entry #N`, or what is wrong and the fix. */
  message: string;
}

/** A path as a shell word, for commands shown to the user. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The command that accepts a log as it is. */
function acceptCommand(logPath: string): string {
  return `mcp-server-router audit anchor ${shellWord(logPath)}`;
}

/**
 * Judge a log from its chain check and its anchor (null: none; an
 * AnchorError: unusable). OK only when the chain is intact and ends exactly
 * where the anchor says.
 */
export function judgeLog(
  logPath: string,
  check: ChainCheck,
  anchor: Anchor | null | AnchorError,
): Verdict {
  const n = check.entries;
  const verdict = (ok: boolean, lastVerified: number, message: string): Verdict => ({
    ok,
    entries: n,
    lastVerified,
    message,
  });
  if (!check.ok) {
    const k = check.brokenEntry!;
    return verdict(
      false,
      k - 1,
      `BROKEN at entry #${k}: ${check.reason}; last verified entry #${k - 1}`,
    );
  }
  if (anchor instanceof AnchorError) {
    return verdict(
      false,
      0,
      `BAD ANCHOR: ${anchor.message}, so removed tail entries cannot be detected ` +
        `(${n} entries, chain intact); if you accept the log as it is: ${acceptCommand(logPath)}`,
    );
  }
  if (anchor === null) {
    return verdict(
      false,
      0,
      `NO ANCHOR: ${anchorPath(logPath)} is missing, so removed tail entries cannot be ` +
        `detected (${n} entries, chain intact); if the log predates anchors or you accept it ` +
        `as it is: ${acceptCommand(logPath)}`,
    );
  }
  const a = anchor.entries;
  if (n < a) {
    return verdict(
      false,
      n,
      `CUT: the anchor records ${a} entries but the log ends at entry #${n}; ` +
        `entr${a - n > 1 ? `ies #${n + 1} to #${a} were` : `y #${a} was`} removed ` +
        `(last verified entry #${n})`,
    );
  }
  if (check.heads[a] !== anchor.head) {
    return verdict(
      false,
      0,
      `REWRITTEN: entry #${a} is not the entry the anchor records (its hash differs), ` +
        `so the log was rewritten up to there and re-sealed`,
    );
  }
  if (n > a) {
    return verdict(
      false,
      a,
      `UNANCHORED TAIL: entr${n - a > 1 ? `ies #${a + 1} to #${n} come` : `y #${n} comes`} ` +
        `after the anchor (last verified entry #${a}): written by a server that stopped before ` +
        `updating the anchor, or appended by someone else; if you accept ` +
        `${n - a > 1 ? "them" : "it"}: ${acceptCommand(logPath)}`,
    );
  }
  return verdict(true, n, `OK, ${n} entries, chain intact and anchored, last verified entry #${n}`);
}
