/**
 * The audit log's anchor: a small JSON file next to the log (`FILE.anchor`)
 * that records how many entries the log holds and the hash of the last one
 * (with a key, also the key's id and an HMAC over both). The hash chain
 * alone cannot show entries removed from the end (what is left is still a
 * valid chain); the anchor can: a log shorter than its anchor was cut, and
 * a log whose entry at the anchor's count has another hash was rewritten.
 *
 * The anchor is moved after each flush of the log, never before: the server
 * writes a batch of lines, flushes it to disk, and only then rewrites the
 * anchor to that flush's end (atomically: a temporary file, flushed,
 * renamed). Anchor writes run one at a time, each beside the next flush
 * (so a write does not wait for the anchor of the one before), and a flush
 * starts only once the anchor write before the previous one is done. So:
 *
 * - the log is never shorter than its anchor, whatever the crash: a log
 *   shorter than its anchor was always cut by someone (`CUT`);
 * - a crash leaves the anchor behind by at most the lines of the last two
 *   flushes, each one line or the `n` lines of a flush whose first line
 *   says `"flush": n`. That lag is accepted (verify says so; the server
 *   moves the anchor at its next start, in its recovery line). More lines
 *   past the anchor than two flushes explain did not come from a crash of
 *   this server (`UNANCHORED TAIL`).
 *
 * The flushes past a lagging anchor could be cut without a trace, as any
 * tail written just before a crash could; with a key, entries past the
 * anchor must be keyed, so none can be added by someone without it. The
 * rule counts on an anchor's rename being on disk by the time a later
 * flush's fsync returns: so it is on ext4 (its journal commits in order);
 * on a file system that does not order them, a power cut may leave the
 * anchor further behind, which is then refused as an unanchored tail.
 *
 * One judgement, {@linkcode judgeLog}, serves both `audit verify` and the
 * server, which refuses to append to a log that verify would not call OK.
 *
 * @module
 */
import { type ChainCheck, GENESIS } from "./audit_chain.ts";
import { describeWrite, type Interrupted, interruptedWrites } from "./audit_calls.ts";
import type { AuditKey } from "./audit_key.ts";

/** What the anchor file holds. */
export interface Anchor {
  /** Entries the log held after the last flush. */
  entries: number;
  /** SHA-256 of the last entry's line (the next entry's `prev`), or the genesis value. */
  head: string;
  /** With a key: its id, and the HMAC of entries and head. */
  key?: string;
  mac?: string;
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

/** What the key's HMAC covers in an anchor. */
function anchorMac(key: AuditKey, entries: number, head: string): Promise<string> {
  return key.mac(`${FORMAT}\n${entries}\n${head}`);
}

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
  const hex = (v: unknown, n: number) =>
    typeof v === "string" && new RegExp(`^[0-9a-f]{${n}}$`).test(v);
  if (
    !a || a.format !== FORMAT || !Number.isSafeInteger(a.entries) || (a.entries as number) < 0 ||
    !hex(a.head, 64) || (a.mac !== undefined && (!hex(a.mac, 64) || !hex(a.key, 16)))
  ) {
    throw new AnchorError(`${path} is not an audit anchor (format, entries and head expected)`);
  }
  return {
    entries: a.entries as number,
    head: a.head as string,
    ...(a.mac !== undefined ? { key: a.key, mac: a.mac } : {}),
  };
}

/** Write a log's anchor atomically (sealed with `key` if given): a temporary file, flushed, renamed. */
export async function writeAnchor(
  logPath: string,
  anchor: { entries: number; head: string },
  key?: AuditKey,
): Promise<void> {
  const path = anchorPath(logPath);
  const tmp = `${path}.${Deno.pid}.tmp`;
  const body = JSON.stringify({
    format: FORMAT,
    entries: anchor.entries,
    head: anchor.head,
    ...(key ? { key: key.id, mac: await anchorMac(key, anchor.entries, anchor.head) } : {}),
  });
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
  /** Further lines when ok: keying, a lagging anchor, a torn tail, interrupted writes. */
  notes: string[];
  /** Entries past the anchor that the last flushes before a crash explain. */
  behind: number;
  /** Writes whose outcome was never written. */
  interrupted: Interrupted[];
}

/** A path as a shell word, for commands shown to the user. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The command that accepts a log as it is. */
function acceptCommand(logPath: string, keyed: boolean): string {
  return `mcp-server-router audit anchor ${keyed ? "--key-file KEY " : ""}${shellWord(logPath)}`;
}

/** `entry #3` or `entries #3 to #5`. */
function span(from: number, to: number): string {
  return from === to ? `entry #${from}` : `entries #${from} to #${to}`;
}

/**
 * Judge a log from its chain check and its anchor (null: none; an
 * AnchorError: unusable), with the key if one is given. OK only when the
 * chain is intact and ends where the anchor says, or at most two flushes
 * past it.
 */
export async function judgeLog(
  logPath: string,
  check: ChainCheck,
  anchor: Anchor | null | AnchorError,
  key?: AuditKey,
): Promise<Verdict> {
  const n = check.entries;
  const verdict = (ok: boolean, lastVerified: number, message: string): Verdict => ({
    ok,
    entries: n,
    lastVerified,
    message,
    notes: [],
    behind: 0,
    interrupted: [],
  });
  const anchorKey = anchor && !(anchor instanceof AnchorError) ? anchor.key : undefined;
  if (key && anchorKey && anchorKey !== key.id) {
    return verdict(
      false,
      0,
      `WRONG KEY: the anchor is sealed with key ${anchorKey}, and the key given is ${key.id}`,
    );
  }
  if (!check.ok) {
    const k = check.brokenEntry!;
    if (check.needsKey) {
      return verdict(
        false,
        k - 1,
        `KEYED: entries from #${k} are sealed with a key (HMAC-SHA256${
          anchorKey ? `, key ${anchorKey}` : ""
        }); verify them with its key file (audit verify --key-file; the server's --audit-key-file)`,
      );
    }
    return verdict(
      false,
      k - 1,
      `BROKEN at entry #${k}: ${check.reason}; last verified entry #${k - 1}`,
    );
  }
  const keyed = key !== undefined;
  if (anchor instanceof AnchorError) {
    return verdict(
      false,
      0,
      `BAD ANCHOR: ${anchor.message}, so removed tail entries cannot be detected ` +
        `(${n} entries, chain intact); if you accept the log as it is: ${
          acceptCommand(logPath, keyed)
        }`,
    );
  }
  if (anchor === null) {
    return verdict(
      false,
      0,
      `NO ANCHOR: ${anchorPath(logPath)} is missing, so removed tail entries cannot be ` +
        `detected (${n} entries, chain intact); if the log predates anchors or you accept it ` +
        `as it is: ${acceptCommand(logPath, keyed)}`,
    );
  }
  const a = anchor.entries;
  if (!key && anchor.mac) {
    return verdict(
      false,
      0,
      `KEYED: the anchor is sealed with a key (HMAC-SHA256, key ${anchor.key}); verify the log ` +
        "with its key file (audit verify --key-file; the server's --audit-key-file)",
    );
  }
  if (key && !anchor.mac && (a > 0 || n > 0)) {
    return verdict(
      false,
      0,
      `NOT KEYED: the anchor is not sealed with the key (${n} entries, chain intact): a log ` +
        `written before the key was set, or one rewritten without it; if you accept it: ` +
        acceptCommand(logPath, true),
    );
  }
  if (key && anchor.mac) {
    if (anchor.mac !== await anchorMac(key, a, anchor.head)) {
      return verdict(false, 0, "BAD ANCHOR: its MAC does not match (it was edited)");
    }
  }
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
  const past = n - a;
  const unkeyedPast = keyed && check.parsed.slice(a).some((e) => !("hmac" in e));
  if (flushesFrom(check.parsed, a) > LAGGING_FLUSHES || unkeyedPast) {
    return verdict(
      false,
      a,
      `UNANCHORED TAIL: ${span(a + 1, n)} come${past > 1 ? "" : "s"} after the anchor ` +
        `(last verified entry #${a}), more than the server leaves when it stops before ` +
        `moving the anchor${unkeyedPast ? ", and not sealed with the key" : ""}: ` +
        `appended by someone else, or by a server writing the same log; if you accept ` +
        `${past > 1 ? "them" : "it"}: ${acceptCommand(logPath, keyed)}`,
    );
  }
  const keying = keyed
    ? `keyed, HMAC-SHA256 key ${key.id}`
    : check.keyedFrom === undefined
    ? "unkeyed"
    : "keyed";
  const out = verdict(
    true,
    n,
    `OK, ${n} entries, chain intact (${keying}) and anchored, last verified entry #${n}`,
  );
  if (!keyed) {
    out.notes.push(
      "unkeyed: an entry edited and re-sealed together with the entries after it and the " +
        "anchor would verify too; a key file (--audit-key-file) makes the chain an HMAC that " +
        "cannot be re-sealed without the key",
    );
  } else if (n > 0 && check.keyedFrom !== 1) {
    const last = (check.keyedFrom ?? n + 1) - 1;
    out.notes.push(
      `unkeyed part: ${span(1, last)} ${last > 1 ? "were" : "was"} written before the key ` +
        "was set (accepted with audit anchor --key-file); the anchor covers them",
    );
  }
  if (past > 0) {
    out.behind = past;
    out.notes.push(
      `anchor behind: ${span(a + 1, n)} ${past > 1 ? "were" : "was"} flushed just before ` +
        "the server stopped, before it moved the anchor; the server moves it at its next start",
    );
  }
  if (check.tornBytes) {
    out.notes.push(
      `torn: the last ${check.tornBytes} bytes (no newline) are a line the stop cut short; ` +
        "it never reached the disk whole, so nothing was sent on its strength; the server " +
        "removes it at its next start",
    );
  }
  out.interrupted = interruptedWrites(check.parsed);
  for (const w of out.interrupted.slice(0, MAX_LISTED)) {
    out.notes.push(
      `interrupted: ${describeWrite(w)}: the server stopped while sending it, before its ` +
        "outcome was written; its command may or may not have reached the router, so read " +
        `the router back${
          w.recoveredAt
            ? ` (recovery line #${w.recoveredAt})`
            : " (the server records it at its next start)"
        }`,
    );
  }
  const more = out.interrupted.length - MAX_LISTED;
  if (more > 0) {
    out.notes.push(`interrupted: ${more} more (audit verify lists the first ${MAX_LISTED})`);
  }
  return out;
}

/** Flushes whose anchor a crash may not have written: the last one, and the one before it. */
const LAGGING_FLUSHES = 2;

/**
 * How many flushes wrote the entries after entry #a: each flush's first
 * line says how many lines it wrote (`"flush": n`; none: one line).
 */
function flushesFrom(parsed: readonly Record<string, unknown>[], a: number): number {
  let flushes = 0;
  for (let i = a; i < parsed.length; flushes++) {
    const n = parsed[i].flush;
    i += typeof n === "number" && Number.isSafeInteger(n) && n > 1 ? n : 1;
  }
  return flushes;
}

/** Interrupted writes listed one per line; the rest are counted. */
const MAX_LISTED = 50;
