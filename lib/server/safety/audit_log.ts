/**
 * The audit log: sealed JSON lines (audit_chain.ts), written ahead of the
 * commands they record (the guard chain's intents and outcomes), and the
 * anchor (`FILE.anchor`: entry count and head hash) moved after each flush.
 *
 * Lines are written by group commit: the lines waiting when a flush starts
 * are sealed in order, written in one write and flushed with one fsync;
 * each caller resumes once its line is on disk (a write's command is sent
 * only then), and the anchor is rewritten to that flush's end beside the
 * next flush, never more than two flushes behind the log. A flush of several lines says
 * so in its first line (`"flush": n`), which is how a lagging anchor is
 * told from an appended tail (audit_anchor.ts).
 *
 * Before its first append the log is checked the way `audit verify` checks
 * it. At start-up ({@linkcode openAuditLog}) a log left by a crash is
 * recovered without anyone's help: a torn last line is cut off, and one
 * recovery line names the writes that never got their outcome and moves
 * the anchor to the end. A log that verify would not call OK for any other
 * reason (broken, cut, rewritten, without its anchor or key) refuses every
 * write until an operator looks at it.
 *
 * @module
 */
import { sealLine, sha256, verifyChain } from "./audit_chain.ts";
import {
  type Anchor,
  AnchorError,
  anchorPath,
  EMPTY_ANCHOR,
  judgeLog,
  readAnchor,
  type Verdict,
  writeAnchor,
} from "./audit_anchor.ts";
import { describeWrite, type RecoveryEntry } from "./audit_calls.ts";
import { type AuditKey, readAuditKey } from "./audit_key.ts";
import type { AuditEntry, AuditSink } from "../../tools/guard/audit.ts";
import { log } from "../../log.ts";

export type { AuditEntry };

/**
 * The audit log at `path` (`--audit-log`), if one is set, sealed with the
 * key in `keyFile` (`--audit-key-file`) if one is set, checked and
 * recovered once at start. A log that cannot be written is a warning then,
 * and every write is refused while it stays so (read-only tools still
 * work). A key file that cannot be used is an error: the server does not
 * start (AuditKeyError).
 */
export async function openAuditLog(
  path: string | undefined,
  keyFile?: string,
): Promise<AuditLog | undefined> {
  if (!path) return undefined;
  const key = keyFile ? await readAuditKey(keyFile) : undefined;
  const audit = new AuditLog(path, key);
  await audit.recover().catch((err) =>
    log("warning", `${(err as Error).message} (read-only tools still work)`)
  );
  return audit;
}

/** Raised when the audit log cannot be written (writes are then refused). */
export class AuditLogError extends Error {}

/** Told how long the log's writes take (the server's metrics). */
export interface AuditObserver {
  /** A line of `kind` (intent, outcome) waited `ms` until it was on disk, or until it failed. */
  appended(kind: string, ms: number, ok: boolean): void;
  /** One flush (a write and an fsync of the lines waiting) took `ms`, or failed after it. */
  flushed(ms: number, ok: boolean): void;
}

/** A line waiting for the next flush. */
interface Pending {
  entry: Record<string, unknown>;
  resolve(entry: number): void;
  reject(err: Error): void;
}

/** The log's end as this server knows it. */
interface State {
  entries: number;
  head: string;
}

const encoder = new TextEncoder();

/** An append-only, hash-chained JSON-lines file with its anchor. */
export class AuditLog implements AuditSink {
  readonly path: string;
  /** Told of each line and flush; none: nothing is measured. */
  observer?: AuditObserver;
  readonly #key?: AuditKey;
  /** Flushes, loads and recovery, one at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #pending: Pending[] = [];
  #flushQueued = false;
  /** Entry count and head after the last flush; null until checked (or after a failure). */
  #state: State | null = null;
  /** A last line cut short by a crash, found by the last load: its size, hash and where it starts. */
  #torn: { bytes: number; sha256: string; keep: number } | null = null;

  constructor(path: string, key?: AuditKey) {
    this.path = path;
    this.#key = key;
  }

  /** Throw {@linkcode AuditLogError} unless the log can be appended to. */
  checkWritable(): Promise<void> {
    if (this.#state) return Promise.resolve();
    return this.#serial(async () => {
      await this.#load();
    });
  }

  /**
   * Check the log as the server starts, and recover what a crash left: cut
   * a torn last line, then append one recovery line naming the writes that
   * never got their outcome (and move a lagging anchor to the end).
   */
  recover(): Promise<void> {
    return this.#serial(async () => {
      const verdict = await this.#load(true);
      const open = verdict.interrupted.filter((w) => w.recoveredAt === undefined);
      if (open.length === 0 && verdict.behind === 0 && !this.#torn) return;
      const torn = this.#torn;
      if (torn) await this.#cutTorn(torn);
      const entry: RecoveryEntry = {
        kind: "recovery",
        time: new Date().toISOString(),
        interrupted: open.map((w) => w.entry),
        ...(verdict.behind ? { anchor_behind: verdict.behind } : {}),
        ...(torn ? { torn_bytes: torn.bytes, torn_sha256: torn.sha256 } : {}),
      };
      const [at] = await this.#writeLines([{ ...entry }]);
      const shown = open.slice(0, 10).map(describeWrite).join(", ");
      log(
        open.length ? "warning" : "info",
        `audit log ${this.path}: recovered after a stop (recovery line #${at})` +
          (open.length
            ? `: ${open.length} write(s) were being sent when the server stopped and their ` +
              `outcome is unknown, so read those routers back: ${shown}${
                open.length > 10 ? ", ..." : ""
              }`
            : "") +
          (verdict.behind ? `; the anchor was ${verdict.behind} entries behind` : "") +
          (torn ? `; a torn last line of ${torn.bytes} bytes was cut off` : ""),
      );
    });
  }

  /** Resolves once every line appended so far is flushed and the anchor moved to it. */
  settle(): Promise<void> {
    return this.#serial(() => this.#anchoring);
  }

  /** Append one entry, flushed to disk with the others waiting; resolves to its entry number. */
  append(entry: AuditEntry): Promise<number> {
    const done = new Promise<number>((resolve, reject) => {
      this.#pending.push({ entry: { ...entry }, resolve, reject });
    });
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      void this.#serial(() => this.#flush()).catch(() => {});
    }
    return this.observer ? measured(done, this.observer, entry.kind) : done;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Write every waiting line in one flush, then move the anchor. */
  async #flush(): Promise<void> {
    this.#flushQueued = false;
    const batch = this.#pending.splice(0);
    if (batch.length === 0) return;
    let numbers: number[];
    try {
      await this.#anchorBeforeLast;
      if (this.#anchorFailed) {
        // Judge the log again from the disk: a lag within the rule goes on.
        this.#anchorFailed = false;
        await this.#anchoring;
        this.#state = null;
      }
      if (!this.#state) await this.#load();
      const entries = batch.map((p) => p.entry);
      if (entries.length > 1) entries[0] = { ...entries[0], flush: entries.length };
      const started = performance.now();
      let ok = false;
      try {
        numbers = await this.#writeLines(entries, false);
        ok = true;
      } finally {
        this.observer?.flushed(performance.now() - started, ok);
      }
    } catch (err) {
      const error = err instanceof AuditLogError
        ? err
        : new AuditLogError(`audit log ${this.path} cannot be written: ${(err as Error).message}`);
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(numbers[i]));
    this.#anchorLater();
  }

  /**
   * Anchor writes, one at a time, each to the end of the flush that asked
   * for it; the anchor of the flush before the last one is always done
   * before a flush starts, so a crash leaves the anchor at most two flushes
   * behind (the rule audit_anchor.ts judges by).
   */
  #anchoring: Promise<void> = Promise.resolve();
  /** The anchor write of the flush before the last one. */
  #anchorBeforeLast: Promise<void> = Promise.resolve();
  /** An anchor write failed since the last flush. */
  #anchorFailed = false;

  /** Move the anchor to the current end without holding up the next flush. */
  #anchorLater(): void {
    const state = this.#state;
    if (!state) return;
    this.#anchorBeforeLast = this.#anchoring;
    this.#anchoring = this.#anchoring.then(() => this.#moveAnchor({ ...state }));
  }

  /**
   * Seal and write lines after the current end in one write, flushed; the
   * anchor is moved too unless `anchor` is false (the caller moves it).
   * Resolves to their entry numbers.
   */
  async #writeLines(entries: Record<string, unknown>[], anchor = true): Promise<number[]> {
    const state = this.#state!;
    let head = state.head;
    let text = "";
    for (const entry of entries) {
      const line = await sealLine(entry, head, this.#key);
      text += line + "\n";
      head = await sha256(line);
    }
    try {
      const f = await Deno.open(this.path, { append: true, create: true });
      try {
        const bytes = encoder.encode(text);
        for (let at = 0; at < bytes.length;) at += await f.write(bytes.subarray(at));
        await f.sync();
      } finally {
        f.close();
      }
    } catch (err) {
      this.#state = null;
      throw new AuditLogError(
        `audit log ${this.path} cannot be written: ${(err as Error).message}`,
      );
    }
    const first = state.entries + 1;
    this.#state = { entries: state.entries + entries.length, head };
    if (anchor) {
      this.#anchorLater();
      await this.#anchoring;
    }
    return entries.map((_, i) => first + i);
  }

  /** Rewrite the anchor at `state` (a failure is logged; the next flush judges the log again). */
  async #moveAnchor(state: State): Promise<void> {
    try {
      await writeAnchor(this.path, state, this.#key);
    } catch (err) {
      this.#anchorFailed = true;
      log(
        "warning",
        `audit log anchor ${anchorPath(this.path)} cannot be written: ${(err as Error).message}`,
      );
    }
  }

  /** Cut the torn last line off the log. */
  async #cutTorn(torn: { keep: number }): Promise<void> {
    const f = await Deno.open(this.path, { write: true });
    try {
      await f.truncate(torn.keep);
      await f.sync();
    } finally {
      f.close();
    }
    this.#torn = null;
  }

  /**
   * The log's end, checked the way `audit verify` checks it (a new log gets
   * an empty anchor). A torn last line is accepted only while recovering.
   */
  async #load(recovering = false): Promise<Verdict> {
    try {
      const f = await Deno.open(this.path, { append: true, create: true });
      f.close();
    } catch (err) {
      throw new AuditLogError(
        `audit log ${this.path} cannot be written (${
          (err as Error).message
        }); writes are refused until it can`,
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(this.path);
    } catch (err) {
      throw new AuditLogError(`audit log ${this.path} cannot be read: ${(err as Error).message}`);
    }
    const text = new TextDecoder().decode(bytes);
    const anchor = await readAnchor(this.path).catch((err) => {
      if (err instanceof AnchorError) return err;
      throw err;
    });
    const check = await verifyChain(text, this.#key);
    if (check.entries === 0 && !check.tornBytes && (anchor === null || isEmpty(anchor))) {
      try {
        await writeAnchor(this.path, EMPTY_ANCHOR, this.#key);
      } catch (err) {
        throw new AuditLogError(
          `audit log anchor ${anchorPath(this.path)} cannot be written: ${(err as Error).message}`,
        );
      }
      this.#state = { ...EMPTY_ANCHOR };
      return await judgeLog(this.path, check, EMPTY_ANCHOR, this.#key);
    }
    const verdict = await judgeLog(this.path, check, anchor, this.#key);
    if (!verdict.ok) {
      throw new AuditLogError(
        `audit log ${this.path} is not intact, so writes are refused: ${verdict.message}`,
      );
    }
    this.#torn = null;
    if (check.tornBytes) {
      if (!recovering) {
        throw new AuditLogError(
          `audit log ${this.path} ends in a torn line (a write cut short), so writes are ` +
            "refused until the server restarts and recovers it",
        );
      }
      const keep = bytes.length - check.tornBytes;
      this.#torn = {
        bytes: check.tornBytes,
        sha256: await sha256(text.slice(text.lastIndexOf("\n") + 1)),
        keep,
      };
    }
    this.#state = { entries: check.entries, head: check.heads[check.entries] };
    return verdict;
  }
}

/** `done`, telling `observer` how long it took to settle. */
function measured(done: Promise<number>, observer: AuditObserver, kind: string): Promise<number> {
  const started = performance.now();
  return done.then((n) => {
    observer.appended(kind, performance.now() - started, true);
    return n;
  }, (err) => {
    observer.appended(kind, performance.now() - started, false);
    throw err;
  });
}

/** An anchor of an empty log (keyed or not). */
function isEmpty(anchor: Anchor | AnchorError): boolean {
  return !(anchor instanceof AnchorError) && anchor.entries === 0;
}
