/**
 * One SSH connection to a router: our own TCP socket with TCP_NODELAY set
 * before the handshake, host key check, authentication (key before
 * password), and up to N exec channels at once with a queue beyond. One
 * session channel is kept open ahead of need so that a command costs one
 * round trip; when the server closes idle channels, commands fall back to
 * a fresh channel each.
 *
 * @module
 */
import net from "node:net";
import ssh2 from "ssh2";
import { log } from "../log.ts";
import { decodeOutput } from "./decode.ts";
import { SshError } from "./errors.ts";
import type { HostKeyCheck, HostKeyVerifier } from "./host_key_policy.ts";
import type { KeyStore } from "./keys.ts";
import {
  type Channel,
  channelIsOpen,
  type ExecNotStarted,
  execOnFreshChannel,
  openSessionChannel,
  requestExec,
  type Ssh2Client,
  supportsPreopen,
} from "./session_channel.ts";
import { describeTarget, type SshTarget } from "./target.ts";

const { Client } = ssh2;

/** Settings of every connection in a pool. */
export interface ConnectionSettings {
  /** Exec channels at once (the pre-opened one included). */
  maxChannels: number;
  /** Keepalive interval in ms (0 = off). */
  keepaliveMs: number;
  /** Largest output accepted per command, in bytes. */
  maxOutputBytes: number;
  /** Close the connection after this long without commands (ms). */
  idleMs: number;
  /** Keep a session channel open ahead of need. */
  preopen: boolean;
}

/** What opening a connection needs besides the target. */
export interface ConnectionDeps {
  hostKeys: HostKeyVerifier;
  keys: KeyStore;
  /** Aborts the attempt at once (pool shutting down). */
  signal?: AbortSignal;
}

/** One command to run. */
export interface ExecRequest {
  command: string;
  /** Menu or operation name, for messages. */
  menu: string;
  /** True for reads (safe to run twice). */
  idempotent: boolean;
}

/** Result of one exec. */
export interface ExecOutput {
  /** Decoded, `\r\n`-normalised output (stdout then stderr). */
  output: string;
  /** Exit status (RouterOS's is unreliable; errors are read from the text). */
  exitCode: number | null;
}

/** Counters of one connection, for tests and the benchmark. */
export interface ConnectionStats {
  /** Channels in use by commands now. */
  active: number;
  /** Commands waiting for a channel. */
  queued: number;
  /** Most channels ever in use at once. */
  peakActive: number;
  /** Channel limit in force (lowered if the server refuses channels). */
  limit: number;
  /** Commands run on a pre-opened channel. */
  preopenedUsed: number;
  /** Commands run on a channel opened for them. */
  freshChannels: number;
  /** Pre-opened channels the server closed while idle. */
  sparesClosedByServer: number;
  /** Whether pre-opening is (still) in use on this connection. */
  preopen: boolean;
}

interface Waiter {
  resolve: () => void;
  reject: (err: SshError) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Spare {
  ready: Promise<Channel>;
  taken: boolean;
}

/** Tries of a command whose channel the router refuses. */
const REFUSED_ATTEMPTS = 4;

/** Sentence added to errors of writes whose outcome is unknown. */
export function outcomeUnknownHint(menu: string): string {
  return `; the outcome is unknown (the command may have run on the router): read ${menu} ` +
    `back to check before retrying`;
}

/** A live, authenticated SSH connection. */
export class SshConnection {
  static #nextId = 1;
  /** Unique id of this connection, for per-connection caches. */
  readonly id: number;
  readonly target: SshTarget;
  #client: Ssh2Client;
  #socket: net.Socket;
  #settings: ConnectionSettings;
  #who: string;
  #closed = false;
  #retired = false;
  #onClose = new Set<() => void>();
  #active = 0;
  #limit: number;
  #queue: Waiter[] = [];
  #spare: Spare | null = null;
  #preopen: boolean;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #stats = { peakActive: 0, preopenedUsed: 0, freshChannels: 0, sparesClosedByServer: 0 };
  #idleClosedInARow = 0;
  #closing: Promise<void> | null = null;
  /** Errors of channels refused by the router while others were open (retried once). */
  #refused = new WeakSet<SshError>();

  private constructor(
    client: Ssh2Client,
    socket: net.Socket,
    target: SshTarget,
    settings: ConnectionSettings,
  ) {
    this.#client = client;
    this.#socket = socket;
    this.target = target;
    this.#settings = settings;
    this.#who = describeTarget(target);
    this.#limit = Math.max(1, settings.maxChannels);
    this.#preopen = settings.preopen && supportsPreopen(client);
    this.id = SshConnection.#nextId++;
    client.on("close", () => this.#markClosed("closed"));
    client.on("end", () => this.#markClosed("ended by the router"));
    client.on("error", (err: Error & { level?: string }) => {
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

  /** Counters for tests and the benchmark. */
  get stats(): ConnectionStats {
    return {
      active: this.#active,
      queued: this.#queue.length,
      limit: this.#limit,
      preopen: this.#preopen,
      ...this.#stats,
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
    clearTimeout(this.#idleTimer);
    if (!this.#closing) log("info", `${this.#who}: SSH connection ${why}`);
    for (const w of this.#queue.splice(0)) {
      clearTimeout(w.timer);
      w.reject(this.#lost(false));
    }
    for (const fn of [...this.#onClose]) fn();
    this.#onClose.clear();
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
    return await connect(target, settings, check, key, deps.signal);
  }

  /** @internal Wrap an authenticated client. */
  static wrap(
    client: Ssh2Client,
    socket: net.Socket,
    target: SshTarget,
    settings: ConnectionSettings,
  ): SshConnection {
    return new SshConnection(client, socket, target, settings);
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
        return await this.#run(req, timeoutMs);
      } catch (err) {
        // The router refused a channel (the command was not sent): the limit
        // is now lower, so wait for a free channel and try again, a few times
        // (a server may still be tearing down channels that just closed).
        if (attempt >= REFUSED_ATTEMPTS || !this.#refused.has(err as SshError)) throw err;
        refused = true;
      } finally {
        this.#release();
      }
      if (refused) await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  #lost(sent: boolean, req?: ExecRequest): SshError {
    if (!sent || !req) {
      return new SshError("connection-lost", `${this.#who}: the connection was lost`);
    }
    const hint = req.idempotent ? "" : outcomeUnknownHint(req.menu);
    return new SshError(
      "connection-lost",
      `${this.#who}: the connection was lost while running ${req.menu}${hint}`,
      true,
    );
  }

  #acquire(req: ExecRequest, timeoutMs: number): Promise<void> {
    if (this.#closed || this.#retired) return Promise.reject(this.#lost(false));
    clearTimeout(this.#idleTimer);
    if (this.#active < this.#limit) {
      this.#take();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#queue = this.#queue.filter((w) => w !== waiter);
          reject(
            new SshError(
              "channel-limit",
              `${this.#who}: all ${this.#limit} channels stayed busy for ${timeoutMs / 1000} s ` +
                `(--max-channels, --command-timeout); ${req.menu} was not sent`,
            ),
          );
        }, timeoutMs),
      };
      this.#queue.push(waiter);
    });
  }

  #take(): void {
    this.#active++;
    this.#stats.peakActive = Math.max(this.#stats.peakActive, this.#active);
  }

  #release(): void {
    this.#active--;
    if (this.#queue.length > 0) {
      // The limit may have been lowered meanwhile: hand over only what it allows.
      if (this.#active < this.#limit) {
        const next = this.#queue.shift()!;
        clearTimeout(next.timer);
        this.#take();
        next.resolve();
      }
      return;
    }
    if (this.#active === 0 && this.#retired) {
      this.close();
      return;
    }
    this.#replenish();
    this.#armIdle();
  }

  #armIdle(): void {
    clearTimeout(this.#idleTimer);
    if (this.#closed || this.#active > 0 || this.#settings.idleMs <= 0) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#active > 0 || this.#closed) return;
      log("debug", `${this.#who}: closing the idle SSH connection`);
      this.close();
    }, this.#settings.idleMs);
    Deno.unrefTimer(this.#idleTimer as unknown as number);
  }

  /** Stop taking commands; close once the running ones finish. */
  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.#dropSpare();
    if (this.#active === 0) this.close();
  }

  #dropSpare(): void {
    const spare = this.#spare;
    this.#spare = null;
    if (!spare) return;
    spare.taken = true;
    spare.ready.then((ch) => ch.close(), () => {});
  }

  /** Keep one session channel open ahead of need, within the channel limit. */
  #replenish(): void {
    if (!this.#preopen || this.#spare || this.#closed || this.#retired) return;
    if (this.#queue.length > 0 || this.#active >= this.#limit) return;
    const spare: Spare = { ready: openSessionChannel(this.#client), taken: false };
    this.#spare = spare;
    spare.ready.then(
      (ch) => {
        if (spare.taken) return;
        // Flowing, so that ssh2 emits "close" when the server closes it.
        ch.resume();
        ch.once("close", () => {
          if (this.#spare !== spare) return;
          // The server closed the idle channel: the next command opens its own.
          this.#spare = null;
          this.#noteSpareClosed();
        });
      },
      () => {
        if (this.#spare === spare) this.#spare = null;
      },
    );
  }

  #takeSpare(): Promise<Channel> | null {
    const spare = this.#spare;
    if (!spare) return null;
    this.#spare = null;
    spare.taken = true;
    return spare.ready;
  }

  #run(req: ExecRequest, timeoutMs: number): Promise<ExecOutput> {
    const who = this.#who;
    const max = this.#settings.maxOutputBytes;
    const writeHint = req.idempotent ? "" : outcomeUnknownHint(req.menu);
    return new Promise((resolve, reject) => {
      let done = false;
      let channel: Channel | null = null;
      /** Whether the exec request may have reached the router. */
      let sent = false;
      const finish = (err: SshError | null, out?: ExecOutput) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.#onClose.delete(onLost);
        if (err) {
          if (channel && channelIsOpen(channel)) channel.close();
          reject(err);
        } else resolve(out as ExecOutput);
      };
      const onLost = () => finish(this.#lost(sent, req));
      this.onClose(onLost);
      const timer = setTimeout(() => {
        finish(
          new SshError(
            "timeout",
            `${who}: ${req.menu} did not answer within ${timeoutMs / 1000} s ` +
              `(--command-timeout, or command_timeout per device); the channel was closed and the connection will be ` +
              `reopened on the next call${writeHint}`,
            true,
          ),
        );
        this.retire();
      }, timeoutMs);

      /** Collect a channel's output; returns the function that marks the exec accepted. */
      const collect = (ch: Channel): () => void => {
        channel = ch;
        const chunks: Uint8Array[] = [];
        let size = 0;
        let exitCode: number | null = null;
        let accepted = false;
        const onData = (data: Uint8Array) => {
          if (done) return;
          size += data.length;
          if (size > max) {
            finish(
              new SshError(
                "output-too-large",
                `${who}: the output of ${req.menu} exceeded ${max} bytes (--max-output); ` +
                  `the channel was closed${writeHint}`,
                !req.idempotent,
              ),
            );
            return;
          }
          chunks.push(data);
        };
        ch.on("data", onData);
        ch.stderr.on("data", onData);
        ch.on("exit", (code: number | null) => {
          exitCode = code;
        });
        ch.on("close", () => {
          if (accepted) finish(null, { output: decodeOutput(chunks), exitCode });
        });
        return () => {
          accepted = true;
        };
      };

      const openFailed = (err: Error) => {
        if (this.#closed) return finish(this.#lost(false));
        const error = new SshError(
          "channel-limit",
          `${who}: the router refused a new channel (${err.message}) with ${this.#active} ` +
            `in use; lower --max-channels. ${req.menu} was not sent`,
        );
        // Learn the router's own limit: fewer channels at once from now on.
        const limit = Math.max(1, this.#active - 1);
        if (limit < this.#limit) {
          log(
            "info",
            `${who}: the router refuses more than ${limit} channel(s) at once; ` +
              `using ${limit} on this connection`,
          );
          this.#limit = limit;
          this.#dropSpare();
        }
        this.#refused.add(error);
        finish(error);
      };
      const fresh = () => {
        this.#stats.freshChannels++;
        openSessionChannel(this.#client).then((c) => {
          this.#replenish();
          start(c, false);
        }, openFailed);
      };

      /** Send the exec request on an open session channel. */
      const start = (ch: Channel, preopened: boolean) => {
        if (done) {
          ch.close();
          return;
        }
        if (preopened && !channelIsOpen(ch)) {
          // The server closed it while idle; the command goes on a new channel.
          this.#noteSpareClosed();
          return fresh();
        }
        const accept = collect(ch);
        sent = true;
        requestExec(ch, req.command, (err?: ExecNotStarted) => {
          if (done) return;
          if (!err) {
            if (preopened) {
              this.#stats.preopenedUsed++;
              this.#idleClosedInARow = 0;
            }
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
            this.#noteSpareClosed();
            return fresh();
          }
          finish(
            new SshError(
              "exec-refused",
              `${who}: the router refused to run ${req.menu} (${err.message}); it was not run`,
            ),
          );
        });
      };

      if (!supportsPreopen(this.#client)) {
        // An ssh2 without the internals: its public exec (open + exec, two round trips).
        this.#stats.freshChannels++;
        sent = true;
        execOnFreshChannel(this.#client, req.command).then(
          (ch) => collect(ch)(),
          (err: Error) => {
            if (this.#closed) return finish(this.#lost(true, req));
            finish(
              new SshError("exec-refused", `${who}: ${req.menu} could not run: ${err.message}`),
            );
          },
        );
        return;
      }
      const spare = this.#takeSpare();
      if (!spare) return fresh();
      this.#replenish();
      spare.then((ch) => start(ch, true), fresh);
    });
  }

  #noteSpareClosed(): void {
    this.#stats.sparesClosedByServer++;
    if (++this.#idleClosedInARow >= 3 && this.#preopen) {
      this.#preopen = false;
      log(
        "debug",
        `${this.#who}: the router closes idle session channels; not pre-opening any more`,
      );
    }
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
      this.#dropSpare();
      this.#client.end();
    }).then(() => this.#markClosed("closed"));
    return this.#closing;
  }

  /** Drop the socket at once (process exit). */
  destroy(): void {
    this.#socket.destroy();
  }
}

/** TCP connect, handshake and authentication, within the connect timeout. */
function connect(
  target: SshTarget,
  settings: ConnectionSettings,
  check: HostKeyCheck,
  key: unknown,
  signal?: AbortSignal,
): Promise<SshConnection> {
  const who = describeTarget(target);
  const seconds = target.connectTimeoutMs / 1000;
  return new Promise((resolve, reject) => {
    const shuttingDown = () =>
      new SshError("connection-lost", `${who}: the server is shutting down; no new connections`);
    if (signal?.aborted) return reject(shuttingDown());
    let settled = false;
    let hostKeyError: SshError | null = null;
    const client = new Client();
    const socket = net.connect({ host: target.host, port: target.port });
    socket.setNoDelay(true);
    const onAbort = () => fail(shuttingDown());
    signal?.addEventListener("abort", onAbort);
    const fail = (err: SshError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      client.removeAllListeners("ready");
      client.on("error", () => {});
      client.end();
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () =>
        fail(
          new SshError(
            "timeout",
            `${who}: connection timed out after ${seconds} s (--connect-timeout, or connect_timeout per device)`,
          ),
        ),
      target.connectTimeoutMs,
    );
    socket.on("error", (err: NodeJS.ErrnoException) => fail(socketError(who, err, seconds)));
    socket.once("connect", () => {
      const tried: string[] = [];
      const methods = authMethods(target, key, tried);
      client.once("ready", () => {
        if (settled) return;
        check.commit().then(() => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          socket.removeAllListeners("error");
          socket.on("error", () => {});
          const conn = SshConnection.wrap(client, socket, target, settings);
          log("debug", `${who}: SSH connection ${conn.id} open`);
          resolve(conn);
        });
      });
      client.on("error", (err: Error & { level?: string }) => {
        if (hostKeyError) return fail(hostKeyError);
        if (err.level === "client-authentication") {
          return fail(
            new SshError(
              "auth-failed",
              `${who}: authentication failed for user "${target.username}" (tried ${
                tried.length > 0 ? tried.join(", ") : "no method"
              }); check the username, password or key`,
            ),
          );
        }
        if (err.level === "client-timeout") {
          return fail(
            new SshError(
              "timeout",
              `${who}: SSH handshake timed out after ${seconds} s (--connect-timeout, or connect_timeout per device)`,
            ),
          );
        }
        if (check.algorithms && /host key/i.test(err.message)) {
          return fail(
            new SshError(
              "host-key-mismatch",
              `${who}: host key mismatch: the router offers none of the key types recorded ` +
                `for it (${check.knownTypes.join(", ")}); its key may have been replaced. If ` +
                `the change is expected, remove the old entry with ssh-keygen -R`,
            ),
          );
        }
        if ((err as NodeJS.ErrnoException).code && err.level === "client-socket") {
          return fail(socketError(who, err as NodeJS.ErrnoException, seconds));
        }
        fail(new SshError("connection-lost", `${who}: SSH handshake failed: ${err.message}`));
      });
      client.once("close", () =>
        fail(
          hostKeyError ??
            new SshError(
              "connection-lost",
              `${who}: the router closed the connection during the SSH handshake`,
            ),
        ));
      client.connect({
        sock: socket,
        username: target.username,
        readyTimeout: target.connectTimeoutMs,
        keepaliveInterval: settings.keepaliveMs,
        keepaliveCountMax: 3,
        authHandler: methods,
        ...(check.algorithms ? { algorithms: { serverHostKey: check.algorithms } } : {}),
        hostVerifier: (hostKey: Uint8Array) => {
          hostKeyError = check.verify(hostKey);
          return hostKeyError === null;
        },
      });
    });
  });
}

/**
 * The authentication methods in order: the key first, then the password
 * (plain, or keyboard-interactive for servers that only offer that).
 * `tried` collects the names of the methods attempted, for messages.
 */
function authMethods(target: SshTarget, key: unknown, tried: string[]) {
  const username = target.username;
  const methods: Record<string, unknown>[] = [];
  if (key) methods.push({ type: "publickey", username, key });
  // Without a key, no password means the empty one (RouterOS's default admin).
  const password = target.password ?? (key ? undefined : "");
  if (password !== undefined) {
    methods.push({ type: "password", username, password });
    methods.push({
      type: "keyboard-interactive",
      username,
      prompt: (
        _name: string,
        _instructions: string,
        _lang: string,
        prompts: { prompt: string }[],
        finish: (answers: string[]) => void,
      ) => {
        // Answer only password prompts; anything else (a one-time code) fails.
        const ok = prompts.length === 1 && /password/i.test(prompts[0].prompt);
        finish(ok ? [password] : []);
      },
    });
  }
  let next = 0;
  const names: Record<string, string> = {
    publickey: `key ${target.keyFilename}`,
    password: "password",
    "keyboard-interactive": "keyboard-interactive",
  };
  return (allowed: string[] | null) => {
    while (next < methods.length) {
      const m = methods[next++];
      if (allowed && !allowed.includes(m.type as string)) continue;
      // keyboard-interactive is for servers without "password"; never send it twice.
      if (m.type === "keyboard-interactive" && tried.includes("password")) continue;
      const name = names[m.type as string];
      if (!tried.includes(name)) tried.push(name);
      return m;
    }
    return false;
  };
}

function socketError(who: string, err: NodeJS.ErrnoException, seconds: number): SshError {
  switch (err.code) {
    case "ECONNREFUSED":
      return new SshError(
        "connection-refused",
        `${who}: connection refused; is the SSH service enabled on the router (/ip service), ` +
          `and is the port right?`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new SshError("unreachable", `${who}: the host name could not be resolved (DNS)`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
      return new SshError("unreachable", `${who}: host unreachable`);
    case "ETIMEDOUT":
      return new SshError("timeout", `${who}: connection timed out after ${seconds} s`);
    case "ECONNRESET":
    case "EPIPE":
      return new SshError("connection-lost", `${who}: the router reset the connection`);
    default:
      return new SshError("unreachable", `${who}: cannot connect: ${err.message}`);
  }
}
