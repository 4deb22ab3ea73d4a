/**
 * One SSH connection to a router: up to N exec channels at once with a
 * queue beyond, one session channel kept open ahead of need so that a
 * command costs one round trip (when the server closes idle channels,
 * commands fall back to a fresh channel each), idle close, retirement
 * after a timeout, and close. Opening (TCP with TCP_NODELAY, handshake,
 * host key, auth) is in `handshake.ts`.
 *
 * @module
 */
import { log } from "../log.ts";
import { ChannelSlots } from "./channel_slots.ts";
import { CloseReplies } from "./close_replies.ts";
import type {
  ConnectionSettings,
  ConnectionStats,
  ExecOutput,
  ExecRequest,
} from "./connection_types.ts";
import { Deadlines } from "./deadlines.ts";
import { IdleClose } from "./idle_close.ts";
import { collectOutput, execOnFreshChannel } from "./exec_output.ts";
import {
  cancelledError,
  channelsBusyError,
  commandTimeoutError,
  connectionLostError,
  SshError,
} from "./errors.ts";
import { handshake, type LoginMethod, type Transport } from "./handshake.ts";
import type { CloseReason } from "./pool_observer.ts";
import type { HostKeyVerifier } from "./host_key_policy.ts";
import type { KeyStore } from "./keys.ts";
import {
  type ChunkSink,
  type DownloadOptions,
  sftpDownload,
  sftpUpload,
  type TransferResult,
  type UploadOptions,
} from "./sftp.ts";
import { SpareChannel } from "./spare_channel.ts";
import type { Client, ClientChannel, Ssh2Error } from "./ssh2.ts";
import {
  channelIsOpen,
  deferCloseReply,
  type ExecNotStarted,
  keepaliveResetByPingsOnly,
  openSessionChannel,
  requestExec,
  supportsPreopen,
} from "./ssh2_internals.ts";
import { describeTarget, type SshTarget } from "./target.ts";

export type {
  ConnectionSettings,
  ConnectionStats,
  ExecOutput,
  ExecRequest,
} from "./connection_types.ts";

/** What opening a connection needs besides the target. */
export interface ConnectionDeps {
  hostKeys: HostKeyVerifier;
  keys: KeyStore;
  /** Aborts the attempt at once (pool shutting down). */
  signal?: AbortSignal;
  /** A channel forwarded to the target by a bastion, to run the session over (`jump.ts`). */
  through?: Transport;
}

/** Tries of a command whose channel the router refuses. */
const REFUSED_ATTEMPTS = 4;

/** A live, authenticated SSH connection. */
export class SshConnection {
  static #nextId = 1;
  /** Unique id of this connection, for per-connection caches. */
  readonly id: number;
  readonly target: SshTarget;
  /** How this connection logged in. */
  readonly login: LoginMethod;
  #client: Client;
  #socket: Transport;
  #settings: ConnectionSettings;
  #who: string;
  #closed = false;
  #retired = false;
  #closeReason: CloseReason = "closed";
  #onClose = new Set<() => void>();
  #slots: ChannelSlots;
  #spare: SpareChannel;
  #idle: IdleClose;
  /** The command timeouts, on one timer. */
  #deadlines = new Deadlines();
  /** Answers to the router's channel closes, sent with the next request. */
  #closeReplies = new CloseReplies();
  #freshChannels = 0;
  #closing: Promise<void> | null = null;
  /** Errors of channels refused by the router while others were open (retried once). */
  #refused = new WeakSet<SshError>();

  private constructor(
    client: Client,
    socket: Transport,
    target: SshTarget,
    settings: ConnectionSettings,
    login: LoginMethod,
  ) {
    this.login = login;
    this.#client = client;
    this.#socket = socket;
    this.target = target;
    this.#settings = settings;
    this.#who = describeTarget(target);
    this.#slots = new ChannelSlots(settings.maxChannels);
    this.#idle = new IdleClose(settings.idleMs, () => this.#slots.active > 0, () => {
      log("debug", `${this.#who}: closing the idle SSH connection`);
      this.#closeReason = "idle";
      this.close();
    });
    // A channel is opened only after the answers to earlier closes.
    this.#spare = new SpareChannel(
      client,
      settings.preopen && supportsPreopen(client),
      this.#who,
      () => this.#closeReplies.flush(),
    );
    keepaliveResetByPingsOnly(client);
    this.id = SshConnection.#nextId++;
    client.on("close", () => this.#markClosed("closed"));
    client.on("end", () => this.#markClosed("ended by the server"));
    client.on("error", (err: Ssh2Error) => {
      const why = err.level === "client-timeout" ? "keepalive timeout" : `error: ${err.message}`;
      this.#markClosed(why);
    });
    this.#replenish();
    this.#armIdle();
  }

  /** True until the connection ends or errors. */
  get alive(): boolean {
    return !this.#closed;
  }

  /** True once the connection takes no new commands (it closes when drained). */
  get retired(): boolean {
    return this.#retired;
  }

  /**
   * The router's address as this connection reached it (after DNS), without
   * an IPv4-mapped `::ffff:` prefix; undefined once the socket is gone.
   */
  get remoteAddress(): string | undefined {
    return this.#socket.remoteAddress?.replace(/^::ffff:(?=\d+\.)/, "");
  }

  /** This host's address on the connection, as the router sees it (before any NAT). */
  get localAddress(): string | undefined {
    return this.#socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, "");
  }

  /** Why the connection ended (or will: `retired`); `closed` while it is open. */
  get closeReason(): CloseReason {
    return this.#closeReason;
  }

  /** Counters for tests and the benchmark. */
  get stats(): ConnectionStats {
    return {
      active: this.#slots.active,
      queued: this.#slots.queued,
      peakActive: this.#slots.peak,
      limit: this.#slots.limit,
      preopenedUsed: this.#spare.used,
      freshChannels: this.#freshChannels,
      sparesClosedByServer: this.#spare.closedByServer,
      preopen: this.#spare.enabled,
    };
  }

  /** Call `fn` once the connection is gone. */
  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.add(fn);
  }

  #markClosed(why: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#idle.stop();
    if (!this.#closing) {
      this.#closeReason = "lost";
      log("info", `${this.#who}: SSH connection ${why}`);
    }
    this.#slots.rejectAll(() => this.#lost(false));
    for (const fn of [...this.#onClose]) fn();
    this.#onClose.clear();
    this.#deadlines.clear();
    this.#closeReplies.drop();
    this.#socket.destroy();
  }

  /** Open a connection: TCP with TCP_NODELAY, handshake, host key check, auth. */
  static async open(
    target: SshTarget,
    settings: ConnectionSettings,
    deps: ConnectionDeps,
  ): Promise<SshConnection> {
    const key = await deps.keys.load(target);
    const check = await deps.hostKeys.prepare(target);
    const { client, socket, login } = await handshake(
      target,
      settings.keepaliveMs,
      check,
      key,
      deps.signal,
      deps.through,
    );
    const conn = new SshConnection(client, socket, target, settings, login);
    log("debug", `${conn.#who}: SSH connection ${conn.id} open`);
    return conn;
  }

  /**
   * Run one command. Waits for a free channel (up to the command timeout),
   * then runs it on the pre-opened channel or a fresh one. Output beyond the
   * cap fails the call; a command silent past the timeout has its channel
   * closed, and the connection is retired (reopened on the next call).
   */
  async exec(req: ExecRequest, timeoutMs: number): Promise<ExecOutput> {
    for (let attempt = 1;; attempt++) {
      await this.#acquire(req, timeoutMs);
      let refused = false;
      try {
        await req.beforeSend?.();
        return await this.#run(req, timeoutMs);
      } catch (err) {
        // The router refused a channel (the command was not sent): the limit
        // is now lower, so wait for a free channel and try again, a few times
        // (a server may still be tearing down channels that just closed).
        if (attempt >= REFUSED_ATTEMPTS || !this.#refused.has(err as SshError)) throw err;
        refused = true;
      } finally {
        this.#release(req.who);
      }
      if (refused) await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  /** Download a file over SFTP into `sink`, holding one channel slot while it runs. */
  async readFile(
    path: string,
    sink: ChunkSink,
    options: DownloadOptions,
    who?: string,
  ): Promise<TransferResult> {
    const req = { command: `sftp ${path}`, what: `the download of ${path}`, idempotent: true, who };
    await this.#acquire(req, options.idleTimeoutMs);
    try {
      return await sftpDownload(this.#client, path, sink, options, this.#who);
    } finally {
      this.#release(who);
    }
  }

  /** Upload `source` to a file over SFTP, holding one channel slot while it runs. */
  async writeFile(
    path: string,
    source: AsyncIterable<Uint8Array>,
    options: UploadOptions,
    who?: string,
  ): Promise<TransferResult> {
    const req = { command: `sftp ${path}`, what: `the upload of ${path}`, idempotent: false, who };
    await this.#acquire(req, options.idleTimeoutMs);
    try {
      return await sftpUpload(this.#client, path, source, options, this.#who);
    } finally {
      this.#release(who);
    }
  }

  #lost(sent: boolean, req?: ExecRequest): SshError {
    return connectionLostError(this.#who, req?.what, sent);
  }

  #acquire(req: ExecRequest, timeoutMs: number): Promise<void> {
    if (this.#closed || this.#retired) return Promise.reject(this.#lost(false, req));
    const busy = (limit: number) => channelsBusyError(this.#who, limit, timeoutMs, req);
    return this.#slots.acquire(timeoutMs, busy, req);
  }

  #release(who: string | undefined): void {
    // Commands were waiting: the slot went to the next one (if the limit allows).
    if (this.#slots.release(who)) return;
    if (this.#slots.active === 0 && this.#retired) {
      this.close();
      return;
    }
    this.#replenish();
    this.#armIdle();
  }

  #armIdle(): void {
    if (this.#slots.active === 0) this.#idle.touch();
  }

  /** Stop taking commands; close once the running ones finish. */
  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.#closeReason = "retired";
    this.#spare.drop();
    if (this.#slots.active === 0) this.close();
  }

  /** Keep one session channel open ahead of need, within the channel limit. */
  #replenish(): void {
    if (this.#closed || this.#retired || !this.#slots.free) return;
    this.#spare.replenish();
  }

  #run(req: ExecRequest, timeoutMs: number): Promise<ExecOutput> {
    const who = this.#who;
    const max = this.#settings.maxOutputBytes;
    return new Promise((resolve, reject) => {
      let done = false;
      let channel: ClientChannel | null = null;
      /** Whether the exec request may have reached the router. */
      let sent = false;
      const finish = (err: SshError | null, out?: ExecOutput) => {
        if (done) return;
        done = true;
        this.#deadlines.remove(deadline);
        this.#onClose.delete(onLost);
        req.signal?.removeEventListener("abort", onAbort);
        if (err) {
          if (channel && channelIsOpen(channel)) channel.close();
          reject(err);
        } else resolve(out as ExecOutput);
      };
      const deadline = this.#deadlines.add(timeoutMs, () => {
        finish(commandTimeoutError(who, req.what, timeoutMs, sent));
        this.retire();
      });
      // Cancelled by the caller: closing the channel stops the command on
      // the router; the connection stays usable.
      const onAbort = () => finish(cancelledError(who, req.what, sent));
      // Last: on a connection already gone this finishes at once, and
      // finish reads `deadline`, `onLost` and `onAbort`.
      const onLost = () => finish(this.#lost(sent, req));
      this.onClose(onLost);
      if (req.signal?.aborted) return onAbort();
      req.signal?.addEventListener("abort", onAbort, { once: true });

      /** Collect a channel's output; returns the function that marks the exec accepted. */
      const collect = (ch: ClientChannel): () => void => {
        channel = ch;
        deferCloseReply(ch, (send) => this.#closeReplies.defer(send));
        return collectOutput(ch, {
          maxBytes: max,
          tooLarge: () =>
            new SshError(
              "output-too-large",
              `${who}: the output of ${req.what} exceeded ${max} bytes (--max-output); ` +
                "the channel was closed",
              true,
            ),
          done: () => done,
          finish,
        });
      };

      const openFailed = (err: Error) => {
        if (this.#closed) return finish(this.#lost(false, req));
        const error = new SshError(
          "channel-limit",
          `${who}: the SSH server refused a new channel (${err.message}) with ${this.#slots.active} ` +
            `in use; lower --max-channels. ${req.what} was not sent`,
        );
        // Learn the router's own limit: fewer channels at once from now on.
        if (this.#slots.lower(this.#slots.active - 1)) {
          const limit = this.#slots.limit;
          log(
            "info",
            `${who}: the SSH server refuses more than ${limit} channel(s) at once; ` +
              `using ${limit} on this connection`,
          );
          this.#spare.drop();
        }
        this.#refused.add(error);
        finish(error);
      };
      const fresh = () => {
        this.#freshChannels++;
        this.#closeReplies.flush();
        openSessionChannel(this.#client).then((c) => {
          this.#replenish();
          start(c, false);
        }, openFailed);
      };

      /** Send the exec request on an open session channel. */
      const start = (ch: ClientChannel, preopened: boolean) => {
        if (done) {
          ch.close();
          return;
        }
        if (preopened && !channelIsOpen(ch)) {
          // The server closed it while idle; the command goes on a new channel.
          this.#spare.noteClosedByServer();
          return fresh();
        }
        const accept = collect(ch);
        sent = true;
        // The answers to earlier closes go first, in the same write.
        this.#closeReplies.flush();
        requestExec(ch, req.command, (err?: ExecNotStarted) => {
          if (done) return;
          if (!err) {
            if (preopened) this.#spare.noteUsed();
            return accept();
          }
          if (this.#closed) return finish(this.#lost(true, req));
          sent = false;
          ch.removeAllListeners("data");
          ch.stderr.removeAllListeners("data");
          ch.removeAllListeners("close");
          if (err.channelClosed && preopened) {
            // The server closed the pre-opened channel as we used it: the
            // command did not run, so it goes on a new channel.
            this.#spare.noteClosedByServer();
            return fresh();
          }
          finish(
            new SshError(
              "exec-refused",
              `${who}: the SSH server refused to run ${req.what} (${err.message}); it was not run`,
            ),
          );
        });
      };

      if (!supportsPreopen(this.#client)) {
        // An ssh2 without the internals: its public exec (open + exec, two round trips).
        this.#freshChannels++;
        sent = true;
        execOnFreshChannel(this.#client, req.command).then(
          (ch) => collect(ch)(),
          (err: Error) => {
            if (this.#closed) return finish(this.#lost(true, req));
            finish(
              new SshError("exec-refused", `${who}: ${req.what} could not run: ${err.message}`),
            );
          },
        );
        return;
      }
      const spare = this.#spare.take();
      if (!spare) return fresh();
      // The exec request first, then the next spare's open: the router
      // reads them in that order.
      spare.then((ch) => {
        start(ch, true);
        this.#replenish();
      }, fresh);
    });
  }

  /** Close the connection (SSH disconnect, then the socket); resolves when closed. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closing = new Promise<void>((resolve) => {
      if (this.#closed) {
        resolve();
        return;
      }
      const timer = setTimeout(() => this.#socket.destroy(), 1000);
      this.#socket.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      this.#spare.drop();
      this.#closeReplies.drop();
      this.#client.end();
    }).then(() => this.#markClosed("closed"));
    return this.#closing;
  }

  /** Drop the socket at once (process exit). */
  destroy(): void {
    this.#socket.destroy();
  }
}
