/**
 * The audit log: one sealed JSON line per write attempt, appended and
 * flushed before the tool returns. Appends are serialised so the chain
 * stays intact under concurrent calls.
 *
 * @module
 */
import { GENESIS, sealLine, sha256 } from "./audit_chain.ts";

/** What an audit line records. */
export interface AuditEntry {
  time: string;
  device: string;
  tool: string;
  arguments: Record<string, unknown>;
  commands: string[];
  dry_run: boolean;
  outcome: "ok" | "routeros-error" | "unknown" | "refused" | "error";
  error?: string;
  duration_ms: number;
  client?: { name?: string; version?: string };
  session?: string;
}

/** Raised when the audit log cannot be written (writes are then refused). */
export class AuditLogError extends Error {}

/** An append-only, hash-chained JSON-lines file. */
export class AuditLog {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();
  #prev: string | null = null;

  constructor(path: string) {
    this.path = path;
  }

  /** Throw {@linkcode AuditLogError} unless the log can be appended to. */
  async checkWritable(): Promise<void> {
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
  }

  /** Append one entry, flushed to disk. */
  append(entry: AuditEntry): Promise<void> {
    const run = this.#queue.then(() => this.#write(entry));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(entry: AuditEntry): Promise<void> {
    try {
      if (this.#prev === null) this.#prev = await this.#lastHash();
      const line = await sealLine({ ...entry }, this.#prev);
      const f = await Deno.open(this.path, { append: true, create: true });
      try {
        await f.write(new TextEncoder().encode(line + "\n"));
        await f.sync();
      } finally {
        f.close();
      }
      this.#prev = await sha256(line);
    } catch (err) {
      this.#prev = null;
      throw new AuditLogError(
        `audit log ${this.path} cannot be written: ${(err as Error).message}`,
      );
    }
  }

  /** Hash of the file's last line, or the genesis value for an empty file. */
  async #lastHash(): Promise<string> {
    let text = "";
    try {
      text = await Deno.readTextFile(this.path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    const lines = text.split("\n").filter((l) => l !== "");
    return lines.length ? await sha256(lines[lines.length - 1]) : GENESIS;
  }
}
