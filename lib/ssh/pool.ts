/**
 * The connection pool: one SSH connection per device, opened on first use
 * and reused for every call.
 *
 * @module
 */
import { SshConnection } from "./connection.ts";
import { SshError } from "./errors.ts";
import { describeTarget, type SshTarget } from "./target.ts";

/** Pool-wide settings. */
export interface PoolOptions {
  /** Output cap per command, in bytes. */
  maxOutputBytes: number;
  /** Keepalive interval in ms. */
  keepaliveMs: number;
}

/** What `exec` returns. */
export interface PoolExecResult {
  output: string;
  exitCode: number | null;
  /** Id of the connection that ran the command (for per-connection caches). */
  connectionId: number;
}

/** Options for one `exec`. */
export interface ExecOptions {
  /** True for reads: retried once on a fresh connection if the connection died. */
  idempotent: boolean;
  /** Menu or operation name, for error messages. */
  menu: string;
}

/** Default pool settings. */
export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  maxOutputBytes: 16 * 1024 * 1024,
  keepaliveMs: 15_000,
};

/** One connection per device, reused across calls. */
export class SshPool {
  #options: PoolOptions;
  #connections = new Map<string, Promise<SshConnection>>();

  constructor(options: Partial<PoolOptions> = {}) {
    this.#options = { ...DEFAULT_POOL_OPTIONS, ...options };
  }

  /** True when the device has an open, live connection. */
  isConnected(title: string): boolean {
    return this.#live.has(title);
  }

  /** Id of the device's live connection, if any. */
  connectionId(title: string): number | undefined {
    return this.#live.get(title);
  }

  #live = new Map<string, number>();

  async #connection(target: SshTarget): Promise<SshConnection> {
    const existing = this.#connections.get(target.title);
    if (existing) {
      const conn = await existing.catch(() => null);
      if (conn?.alive) return conn;
      if (this.#connections.get(target.title) === existing) this.#connections.delete(target.title);
      const again = this.#connections.get(target.title);
      if (again) return again;
    }
    const opening = this.#open(target);
    this.#connections.set(target.title, opening);
    opening.catch(() => {
      if (this.#connections.get(target.title) === opening) this.#connections.delete(target.title);
    });
    return opening;
  }

  async #open(target: SshTarget): Promise<SshConnection> {
    let privateKey: string | undefined;
    if (target.keyFilename) {
      try {
        privateKey = await Deno.readTextFile(target.keyFilename);
      } catch (err) {
        throw new SshError(
          "key-error",
          `${describeTarget(target)}: cannot read key file ${target.keyFilename}: ${
            (err as Error).message
          }`,
        );
      }
    }
    const conn = await SshConnection.open(target, {
      privateKey,
      keepaliveMs: this.#options.keepaliveMs,
    });
    this.#live.set(target.title, conn.id);
    conn.onClose(() => {
      if (this.#live.get(target.title) === conn.id) this.#live.delete(target.title);
    });
    return conn;
  }

  /** Run `command` on the device's pooled connection. */
  async exec(target: SshTarget, command: string, options: ExecOptions): Promise<PoolExecResult> {
    const conn = await this.#connection(target);
    try {
      const r = await conn.exec(
        command,
        target.commandTimeoutMs,
        this.#options.maxOutputBytes,
        options.menu,
      );
      return { ...r, connectionId: conn.id };
    } catch (err) {
      if (
        options.idempotent && err instanceof SshError && err.kind === "connection-lost"
      ) {
        const fresh = await this.#connection(target);
        const r = await fresh.exec(
          command,
          target.commandTimeoutMs,
          this.#options.maxOutputBytes,
          options.menu,
        );
        return { ...r, connectionId: fresh.id };
      }
      throw err;
    }
  }

  /** Close every connection. */
  async close(): Promise<void> {
    const all = [...this.#connections.values()];
    this.#connections.clear();
    for (const p of all) (await p.catch(() => null))?.close();
  }
}
