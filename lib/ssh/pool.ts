/**
 * The connection pool: one SSH connection per device, opened on first use
 * through the bounded dialer and reused for every call. A connection found
 * dead is reopened on the next call; a read that fails because its
 * connection died is retried once on a fresh connection, and a write is
 * retried only when it was certainly not sent. A device behind a bastion
 * is reached through the bastion's pooled connection (`jump.ts`).
 *
 * @module
 */
import { log } from "../log.ts";
import {
  type ConnectionSettings,
  type ConnectionStats,
  type ExecRequest,
  SshConnection,
} from "./connection.ts";
import { Dialer } from "./dialer.ts";
import type { LoginMethod, Transport } from "./handshake.ts";
import { SshError } from "./errors.ts";
import { type HostKeyPolicy, HostKeyVerifier } from "./host_key_policy.ts";
import { JumpHosts } from "./jump.ts";
import { KeyStore } from "./keys.ts";
import type { PoolObserver } from "./pool_observer.ts";
import type { ChunkSink, DownloadOptions, TransferResult, UploadOptions } from "./sftp.ts";
import { describeTarget, type SshTarget } from "./target.ts";

/** Pool-wide settings. */
export interface PoolOptions {
  /** Output cap per command, in bytes. */
  maxOutputBytes: number;
  /** Keepalive interval in ms (0 = off). */
  keepaliveMs: number;
  /** Concurrent exec channels per connection; more commands wait. */
  maxChannels: number;
  /** Close a connection idle this long, in ms. */
  idleTimeoutMs: number;
  /** Connections being opened at once, pool-wide. */
  maxDialing: number;
  /** OpenSSH known_hosts file (needed unless `hostKeyPolicy` is `off`). */
  knownHostsFile?: string;
  /** What to do with unknown host keys. */
  hostKeyPolicy: HostKeyPolicy;
  /** Keep one session channel open ahead of need per connection. */
  preopen: boolean;
  /** Told of connections opening and closing, command timeouts and retries (metrics). */
  observer?: PoolObserver;
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
  /** What the command is, in messages: `the command`, `/ip/address`, `the upload of a.rsc`. */
  what: string;
  /** Awaited just before the command is written to a channel (see {@linkcode ExecRequest}). */
  beforeSend?: () => Promise<void>;
  /** Aborting it stops the command (its channel is closed); the exec fails as `cancelled`. */
  signal?: AbortSignal;
  /** Who it is for: channels are shared fairly between these keys (see {@linkcode ExecRequest}). */
  who?: string;
  /** Must not wait behind other commands (see {@linkcode ExecRequest}). */
  urgent?: boolean;
}

/** A device's connection counters. */
export interface DeviceStats extends ConnectionStats {
  connectionId: number;
}

/** Default pool settings. */
export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  maxOutputBytes: 16 * 1024 * 1024,
  keepaliveMs: 15_000,
  maxChannels: 4,
  idleTimeoutMs: 300_000,
  maxDialing: 32,
  hostKeyPolicy: "accept-new",
  preopen: true,
};

/** One connection per device, reused across calls. */
export class SshPool {
  readonly options: PoolOptions;
  readonly hostKeys: HostKeyVerifier;
  #settings: ConnectionSettings;
  #dialer: Dialer;
  #keys = new KeyStore();
  #current = new Map<string, SshConnection>();
  #opening = new Map<string, Promise<SshConnection>>();
  #all = new Set<SshConnection>();
  #closed = false;
  #abort = new AbortController();
  #jumps: JumpHosts;
  #onUnload = () => {
    for (const conn of this.#all) conn.destroy();
    this.#jumps.destroy();
  };

  constructor(options: Partial<PoolOptions> = {}) {
    this.options = { ...DEFAULT_POOL_OPTIONS, ...options };
    const o = this.options;
    this.#settings = {
      maxChannels: o.maxChannels,
      keepaliveMs: o.keepaliveMs,
      maxOutputBytes: o.maxOutputBytes,
      idleMs: o.idleTimeoutMs,
      preopen: o.preopen,
    };
    this.#dialer = new Dialer(o.maxDialing);
    this.hostKeys = new HostKeyVerifier(o.hostKeyPolicy, o.knownHostsFile);
    this.#jumps = new JumpHosts({
      dialer: this.#dialer,
      hostKeys: this.hostKeys,
      keys: this.#keys,
      keepaliveMs: o.keepaliveMs,
      signal: this.#abort.signal,
    });
    globalThis.addEventListener("unload", this.#onUnload);
  }

  /** True when the device has an open, live connection. */
  isConnected(title: string): boolean {
    return this.#usable(this.#current.get(title)) !== undefined;
  }

  /** Id of the device's live connection, if any. */
  connectionId(title: string): number | undefined {
    return this.#usable(this.#current.get(title))?.id;
  }

  /** Counters of the device's live connection, if any. */
  stats(title: string): DeviceStats | undefined {
    const conn = this.#usable(this.#current.get(title));
    return conn ? { connectionId: conn.id, ...conn.stats } : undefined;
  }

  /** The device's live connection, if any: the router's address, ours, and how it logged in. */
  endpoints(
    title: string,
  ): { router?: string; local?: string; login: LoginMethod } | undefined {
    const conn = this.#usable(this.#current.get(title));
    return conn
      ? { router: conn.remoteAddress, local: conn.localAddress, login: conn.login }
      : undefined;
  }

  /** Dialer counters: attempts in flight, waiting, and the most ever in flight. */
  dialerStats(): { limit: number; inFlight: number; waiting: number; peak: number } {
    const d = this.#dialer;
    return { limit: d.limit, inFlight: d.inFlight, waiting: d.waiting, peak: d.peak };
  }

  /** Bastion connections open now, and opened since the start. */
  bastionStats(): { open: number; opened: number } {
    return this.#jumps.stats();
  }

  #usable(conn: SshConnection | undefined): SshConnection | undefined {
    return conn && conn.alive && !conn.retired ? conn : undefined;
  }

  /** The device's connection: the live one, the one being opened, or a new one. */
  connect(target: SshTarget): Promise<SshConnection> {
    if (this.#closed) {
      return Promise.reject(
        new SshError(
          "connection-lost",
          `${describeTarget(target)}: the server is shutting down; no new connections`,
        ),
      );
    }
    const live = this.#usable(this.#current.get(target.title));
    if (live) return Promise.resolve(live);
    const pending = this.#opening.get(target.title);
    if (pending) return pending;
    const observer = this.options.observer;
    observer?.connecting(target.title);
    const opening = this.#dial(target)
      .then((conn) => {
        this.#all.add(conn);
        conn.onClose(() => {
          this.#all.delete(conn);
          if (this.#current.get(target.title) !== conn) return;
          this.#current.delete(target.title);
          observer?.closed(target.title, conn.closeReason);
        });
        if (this.#closed) {
          conn.close();
          throw new SshError(
            "connection-lost",
            `${describeTarget(target)}: the server is shutting down; no new connections`,
          );
        }
        this.#current.set(target.title, conn);
        observer?.opened(target.title);
        return conn;
      }, (err) => {
        observer?.failed(target.title, err instanceof SshError ? err.kind : "other");
        throw err;
      })
      .finally(() => {
        if (this.#opening.get(target.title) === opening) this.#opening.delete(target.title);
      });
    this.#opening.set(target.title, opening);
    return opening;
  }

  /**
   * Prove that a fresh login works (a new connection, handshake and auth,
   * then closed), without touching the pooled connection.
   */
  async probe(target: SshTarget): Promise<void> {
    const conn = await this.#dial(target);
    await conn.close();
  }

  /**
   * Open a new connection in a dialer slot: directly, or through the
   * device's bastion (whose own connection takes a slot of its own first).
   */
  #dial(target: SshTarget): Promise<SshConnection> {
    if (target.via) return this.#jumps.through(target, (through) => this.#open(target, through));
    return this.#dialer.dial(() => this.#open(target));
  }

  /** Open a new connection, over a bastion's forwarded channel when given one. */
  #open(target: SshTarget, through?: Transport): Promise<SshConnection> {
    return SshConnection.open(target, this.#settings, {
      hostKeys: this.hostKeys,
      keys: this.#keys,
      signal: this.#abort.signal,
      through,
    });
  }

  /** Run `command` on the device's pooled connection. */
  async exec(target: SshTarget, command: string, options: ExecOptions): Promise<PoolExecResult> {
    const req: ExecRequest = {
      command,
      what: options.what,
      idempotent: options.idempotent,
      ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      who: options.who,
      urgent: options.urgent,
    };
    const run = async () => {
      const conn = await this.connect(target);
      try {
        const r = await conn.exec(req, target.commandTimeoutMs);
        return { ...r, connectionId: conn.id };
      } catch (err) {
        if (err instanceof SshError && err.kind === "timeout") {
          this.options.observer?.commandTimedOut(target.title);
        }
        throw err;
      }
    };
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof SshError) || err.kind !== "connection-lost" || this.#closed) throw err;
      // Not sent at all: safe to send on a new connection. Sent: only a read.
      if (err.outcomeUnknown && !options.idempotent) throw err;
      log(
        "info",
        `${describeTarget(target)}: ${
          err.outcomeUnknown ? "connection lost during" : "could not send"
        } ` +
          `${options.what}; running it again on a new connection`,
      );
      this.options.observer?.retried(target.title);
      try {
        return await run();
      } catch (again) {
        if (again instanceof SshError && again.kind === "connection-lost") {
          throw new SshError(
            again.kind,
            `${again.message} (also after one retry on a new connection)`,
            again.outcomeUnknown,
          );
        }
        throw again;
      }
    }
  }

  /** Download `path` over SFTP into `sink` on the device's pooled connection. */
  readFile(
    target: SshTarget,
    path: string,
    sink: ChunkSink,
    options: Omit<DownloadOptions, "idleTimeoutMs">,
    who?: string,
  ): Promise<TransferResult> {
    const idleTimeoutMs = target.commandTimeoutMs;
    return this.#transfer(
      target,
      (c) => c.readFile(path, sink, { ...options, idleTimeoutMs }, who),
    );
  }

  /** Upload `source` to `path` over SFTP on the device's pooled connection. */
  writeFile(
    target: SshTarget,
    path: string,
    source: AsyncIterable<Uint8Array>,
    options: Omit<UploadOptions, "idleTimeoutMs">,
    who?: string,
  ): Promise<TransferResult> {
    const idleTimeoutMs = target.commandTimeoutMs;
    return this.#transfer(
      target,
      (c) => c.writeFile(path, source, { ...options, idleTimeoutMs }, who),
    );
  }

  /** An SFTP transfer, once more on a new connection when the old one had gone (nothing sent). */
  async #transfer<T>(target: SshTarget, op: (conn: SshConnection) => Promise<T>): Promise<T> {
    try {
      return await op(await this.connect(target));
    } catch (err) {
      if (!(err instanceof SshError) || err.kind !== "connection-lost" || err.outcomeUnknown) {
        throw err;
      }
      if (this.#closed) throw err;
      return await op(await this.connect(target));
    }
  }

  /** Close every connection (SSH disconnect); later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#abort.abort();
    globalThis.removeEventListener("unload", this.#onUnload);
    await Promise.allSettled([...this.#opening.values()]);
    await Promise.all([...this.#all].map((c) => c.close()));
    this.#current.clear();
    await this.#jumps.close();
  }
}
