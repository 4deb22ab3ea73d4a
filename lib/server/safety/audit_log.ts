/**
 * The audit log: one sealed JSON line per write attempt, appended and
 * flushed before the tool returns, then the anchor (`FILE.anchor`: entry
 * count and head hash) rewritten atomically. Appends are serialised so the
 * chain stays intact under concurrent calls.
 *
 * Before its first append the log is checked the way `audit verify` checks
 * it; a log that verify would not call OK (broken, cut, rewritten, or with
 * entries but no anchor) refuses every write until an operator looks at it.
 *
 * @module
 */
import { GENESIS, sealLine, sha256, verifyChain } from "./audit_chain.ts";
import {
  type Anchor,
  AnchorError,
  anchorPath,
  EMPTY_ANCHOR,
  judgeLog,
  readAnchor,
  writeAnchor,
} from "./audit_anchor.ts";

import type { AuditEntry, AuditSink } from "../../tools/guard/audit.ts";
import { log } from "../../log.ts";

export type { AuditEntry };

/**
 * The audit log at `path` (`--audit-log`), if one is set, checked once at
 * start: one that cannot be written is a warning then, and every write is
 * refused while it stays so (read-only tools still work).
 */
export async function openAuditLog(path: string | undefined): Promise<AuditLog | undefined> {
  if (!path) return undefined;
  const audit = new AuditLog(path);
  await audit.checkWritable().catch((err) =>
    log("warning", `${(err as Error).message} (read-only tools still work)`)
  );
  return audit;
}

/** Raised when the audit log cannot be written (writes are then refused). */
export class AuditLogError extends Error {}

/** An append-only, hash-chained JSON-lines file with its anchor. */
export class AuditLog implements AuditSink {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();
  /** Entry count and head hash after the last append; null until checked. */
  #state: Anchor | null = null;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Throw {@linkcode AuditLogError} unless the log can be appended to: the
   * file is writable, and its chain and anchor are intact.
   */
  checkWritable(): Promise<void> {
    return this.#serial(async () => {
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
      await this.#load();
    });
  }

  /** Append one entry, flushed to disk, and move the anchor to it. */
  append(entry: AuditEntry): Promise<void> {
    return this.#serial(() => this.#write(entry));
  }

  #serial(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(entry: AuditEntry): Promise<void> {
    const state = await this.#load();
    try {
      const line = await sealLine({ ...entry }, state.head);
      const f = await Deno.open(this.path, { append: true, create: true });
      try {
        await f.write(new TextEncoder().encode(line + "\n"));
        await f.sync();
      } finally {
        f.close();
      }
      const next = { entries: state.entries + 1, head: await sha256(line) };
      await writeAnchor(this.path, next);
      this.#state = next;
    } catch (err) {
      this.#state = null;
      throw new AuditLogError(
        `audit log ${this.path} cannot be written: ${(err as Error).message}`,
      );
    }
  }

  /** The log's end, checked against its anchor once (a new log gets an empty anchor). */
  async #load(): Promise<Anchor> {
    if (this.#state) return this.#state;
    let text = "";
    try {
      text = await Deno.readTextFile(this.path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        throw new AuditLogError(`audit log ${this.path} cannot be read: ${(err as Error).message}`);
      }
    }
    const anchor = await readAnchor(this.path).catch((err) => {
      if (err instanceof AnchorError) return err;
      throw err;
    });
    const check = await verifyChain(text);
    if (check.entries === 0 && anchor === null) {
      try {
        await writeAnchor(this.path, EMPTY_ANCHOR);
      } catch (err) {
        throw new AuditLogError(
          `audit log anchor ${anchorPath(this.path)} cannot be written: ${(err as Error).message}`,
        );
      }
      return this.#state = EMPTY_ANCHOR;
    }
    const verdict = judgeLog(this.path, check, anchor);
    if (!verdict.ok) {
      throw new AuditLogError(
        `audit log ${this.path} is not intact, so writes are refused: ${verdict.message}`,
      );
    }
    return this.#state = { entries: check.entries, head: check.heads[check.entries] ?? GENESIS };
  }
}
