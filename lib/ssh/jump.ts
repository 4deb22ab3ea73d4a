/**
 * Bastions (jump hosts), as OpenSSH's ProxyJump: a target whose `via` names
 * another SSH server is reached through a `direct-tcpip` channel that server
 * forwards to the target's host and port, and its own SSH session (handshake,
 * host key check, login) runs end to end over that channel. A bastion may
 * itself be behind another (a chain).
 *
 * One SSH connection per bastion serves everything behind it: it is opened
 * on first need (through the bastion's own chain), held by every session
 * reached through it, and closed when the last of them closes. Its host key
 * is checked like any target's (its own pin, else known_hosts under the
 * bastion's host and port), and it keeps alive with the pool's keepalive.
 *
 * Timeouts: each hop has its own connect timeout (its target's
 * `connectTimeoutMs`). For a bastion it covers its TCP connect (or, behind
 * another bastion, the forwarded channel), handshake and login; for what is
 * behind it, the forwarded channel's opening, the handshake and the login,
 * as one budget. A device behind one bastion so waits at most the bastion's
 * timeout plus its own when neither is connected yet.
 *
 * The bounded dialer counts each hop's opening as one attempt, and a hop
 * never holds its slot while it waits for the hop before it (which takes a
 * slot of its own), so a chain cannot deadlock the dialer.
 *
 * A bastion's failure is a {@linkcode BastionError} that names the bastion:
 * `bastion "jump-1" (10.0.0.9:22): connection refused`, authentication, host
 * key, forwarding refused, or the target unreachable from it.
 *
 * @module
 */
import { log } from "../log.ts";
import type { Dialer } from "./dialer.ts";
import { SshError, type SshErrorKind } from "./errors.ts";
import { handshake, type Transport } from "./handshake.ts";
import type { HostKeyVerifier } from "./host_key_policy.ts";
import type { KeyStore } from "./keys.ts";
import type { Client, ClientChannel, Ssh2Error } from "./ssh2.ts";
import { describeTarget, endpointOf, type SshTarget } from "./target.ts";

/** A bastion's failure; its message names the bastion. */
export class BastionError extends SshError {
  /** Title of the bastion that failed. */
  readonly bastion: string;

  constructor(bastion: string, kind: SshErrorKind, message: string) {
    super(kind, message);
    this.name = "BastionError";
    this.bastion = bastion;
  }
}

/** A session opened through a bastion: it says when it is gone, and can be closed. */
export interface ForwardedSession {
  /** Call `fn` once the session is gone (at once if it is gone already). */
  onClose(fn: () => void): void;
  /** Close the session. */
  close(): Promise<void>;
}

/** What the bastions share with the pool. */
export interface JumpDeps {
  /** The pool's bounded dialer; each hop's opening takes one slot. */
  dialer: Dialer;
  hostKeys: HostKeyVerifier;
  keys: KeyStore;
  /** Keepalive interval of bastion connections, in ms (0 = off). */
  keepaliveMs: number;
  /** Aborts openings at once (pool shutting down). */
  signal: AbortSignal;
}

/** SSH_MSG_CHANNEL_OPEN_FAILURE reason codes (RFC 4254, section 5.1). */
const OPEN_FAILURE = {
  ADMINISTRATIVELY_PROHIBITED: 1,
  CONNECT_FAILED: 2,
  UNKNOWN_CHANNEL_TYPE: 3,
  RESOURCE_SHORTAGE: 4,
} as const;

/** Longest piece of a bastion's own failure text shown in a message. */
const MAX_REMOTE_TEXT = 200;

/**
 * A bastion's own text (a channel open failure's description), on one line
 * and bounded: it comes from another machine and ends up in tool output.
 */
function remoteText(text: string | undefined): string {
  const t = (text ?? "").replace(/\p{Cc}+/gu, " ").trim();
  return t.length > MAX_REMOTE_TEXT ? t.slice(0, MAX_REMOTE_TEXT) + "..." : t;
}

/** `device "R1" (10.0.0.1:22)`, without its bastion (for messages that name the bastion already). */
function beyond(to: SshTarget): string {
  return describeTarget({ ...to, via: undefined });
}

/** Identity of a bastion connection: the chain of hops, each as title and user@host:port. */
function hopKey(t: SshTarget): string {
  const own = `${t.title}|${t.username}@${endpointOf(t)}`;
  return t.via ? `${hopKey(t.via)} > ${own}` : own;
}

/** One SSH connection to a bastion, shared by every session reached through it. */
class Hop implements ForwardedSession {
  static #nextId = 1;
  readonly id: number;
  readonly target: SshTarget;
  /** `bastion "jump-1" (10.0.0.9:22)`. */
  readonly who: string;
  #client: Client;
  #transport: Transport;
  #users = 0;
  #closed = false;
  #closing: Promise<void> | null = null;
  #onClose = new Set<() => void>();

  constructor(client: Client, transport: Transport, target: SshTarget) {
    this.id = Hop.#nextId++;
    this.#client = client;
    this.#transport = transport;
    this.target = target;
    this.who = describeTarget(target);
    client.on("close", () => this.#markClosed("closed"));
    client.on("end", () => this.#markClosed("ended by the bastion"));
    client.on("error", (err: Ssh2Error) => {
      this.#markClosed(
        err.level === "client-timeout" ? "keepalive timeout" : `error: ${err.message}`,
      );
    });
  }

  /** True while the connection is up and not closing. */
  get alive(): boolean {
    return !this.#closed && this.#closing === null;
  }

  /** Sessions holding this connection now. */
  get users(): number {
    return this.#users;
  }

  /** Hold the connection open; the returned function lets go (once). The last to let go closes it. */
  hold(): () => void {
    this.#users++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.#users > 0) return;
      log("debug", `${this.who}: nothing behind the bastion is connected; closing its connection`);
      this.close();
    };
  }

  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.add(fn);
  }

  /** A `direct-tcpip` channel from the bastion to `to`'s host and port. */
  forward(to: SshTarget): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      if (!this.alive) return reject(this.#lost(to));
      try {
        this.#client.forwardOut("127.0.0.1", 0, to.host, to.port, (err, channel) => {
          if (!err) return resolve(channel);
          reject(
            this.alive ? this.#refused(to, err as Error & { reason?: number }) : this.#lost(to),
          );
        });
      } catch {
        // ssh2 throws "Not connected" when the socket has gone.
        reject(this.#lost(to));
      }
    });
  }

  #lost(to: SshTarget): BastionError {
    return new BastionError(
      this.target.title,
      "connection-lost",
      `${this.who}: the connection to the bastion was lost before it reached ${beyond(to)}`,
    );
  }

  #refused(to: SshTarget, err: Error & { reason?: number }): BastionError {
    const said = remoteText(err.message.replace(/^\(SSH\) Channel open failure:\s*/, ""));
    const detail = said ? `: ${said}` : "";
    const target = beyond(to);
    const bastion = (kind: SshErrorKind, text: string) =>
      new BastionError(this.target.title, kind, `${this.who}: ${text}`);
    switch (err.reason) {
      case OPEN_FAILURE.ADMINISTRATIVELY_PROHIBITED:
        return bastion(
          "connection-refused",
          `forwarding refused by the bastion (administratively prohibited${detail}) for ` +
            `${target}; allow TCP (local) port forwarding for user "${this.target.username}" ` +
            `on the bastion`,
        );
      case OPEN_FAILURE.CONNECT_FAILED:
        return bastion("unreachable", `cannot reach ${target} from the bastion${detail}`);
      case OPEN_FAILURE.UNKNOWN_CHANNEL_TYPE:
        return bastion(
          "connection-refused",
          `the bastion does not forward TCP connections (unknown channel type); ${target} ` +
            `was not reached`,
        );
      case OPEN_FAILURE.RESOURCE_SHORTAGE:
        return bastion(
          "connection-refused",
          `the bastion has no room for another forwarded connection (resource shortage); ` +
            `${target} was not reached`,
        );
      default:
        return bastion("connection-refused", `forwarding to ${target} failed${detail}`);
    }
  }

  #markClosed(why: string): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#closing) log("info", `${this.who}: SSH connection ${why}`);
    for (const fn of [...this.#onClose]) fn();
    this.#onClose.clear();
    this.#transport.destroy();
  }

  /** Close the connection (SSH disconnect; every channel through it ends). */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closing = new Promise<void>((resolve) => {
      if (this.#closed) return resolve();
      const timer = setTimeout(() => this.#transport.destroy(), 1000);
      this.#transport.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      this.#client.end();
    }).then(() => this.#markClosed("closed"));
    return this.#closing;
  }

  /** Drop the transport at once (process exit). */
  destroy(): void {
    this.#transport.destroy();
  }
}

/** A bastion's failure from an error of its own opening. */
function asBastionError(bastion: SshTarget, err: unknown): SshError {
  if (err instanceof BastionError) return err;
  if (err instanceof SshError) return new BastionError(bastion.title, err.kind, err.message);
  return new BastionError(
    bastion.title,
    "connection-lost",
    `${describeTarget(bastion)}: ${err instanceof Error ? err.message : String(err)}`,
  );
}

/** The pool's bastion connections, one per bastion chain. */
export class JumpHosts {
  #deps: JumpDeps;
  #hops = new Map<string, Hop>();
  #opening = new Map<string, Promise<Hop>>();
  #all = new Set<Hop>();
  #opened = 0;

  constructor(deps: JumpDeps) {
    this.#deps = deps;
  }

  /** Bastion connections open now, and opened since the start. */
  stats(): { open: number; opened: number } {
    return { open: this.#all.size, opened: this.#opened };
  }

  /**
   * Open a session to `target` (whose `via` is set) through its bastion
   * chain: `open` runs the session's handshake over the forwarded channel.
   * The bastion connection is held until that session closes. Runs its own
   * dialer slot for the last hop; the bastions before take theirs first.
   */
  async through<T extends ForwardedSession>(
    target: SshTarget,
    open: (through: Transport) => Promise<T>,
  ): Promise<T> {
    const { hop, release } = await this.#hold(target.via!);
    try {
      const session = await this.#deps.dialer.dial(() => this.#reach(hop, target, open));
      session.onClose(release);
      return session;
    } catch (err) {
      release();
      throw err;
    }
  }

  /** A live connection to the bastion, held (opened, with its own chain, when needed). */
  async #hold(via: SshTarget): Promise<{ hop: Hop; release: () => void }> {
    // A connection found closing as it is handed over is opened anew, once.
    for (let attempt = 1;; attempt++) {
      const hop = await this.#hop(via);
      if (hop.alive) return { hop, release: hop.hold() };
      if (attempt >= 2) {
        throw new BastionError(
          via.title,
          "connection-lost",
          hop.who + ": the connection to the bastion was lost",
        );
      }
    }
  }

  #hop(bastion: SshTarget): Promise<Hop> {
    const via: SshTarget = { ...bastion, role: "bastion" };
    const key = hopKey(via);
    const live = this.#hops.get(key);
    if (live?.alive) return Promise.resolve(live);
    const pending = this.#opening.get(key);
    if (pending) return pending;
    const opening = this.#open(via)
      .then((hop) => {
        this.#opened++;
        this.#all.add(hop);
        this.#hops.set(key, hop);
        hop.onClose(() => {
          this.#all.delete(hop);
          if (this.#hops.get(key) === hop) this.#hops.delete(key);
        });
        log("debug", `${hop.who}: SSH connection ${hop.id} to the bastion open`);
        return hop;
      })
      .finally(() => {
        if (this.#opening.get(key) === opening) this.#opening.delete(key);
      });
    this.#opening.set(key, opening);
    return opening;
  }

  /** Open a bastion connection: directly, or through the bastion before it. */
  #open(via: SshTarget): Promise<Hop> {
    if (via.via) return this.through(via, (through) => this.#login(via, through));
    return this.#deps.dialer.dial(() => this.#login(via));
  }

  /** Handshake, host key check and login to a bastion. */
  async #login(via: SshTarget, through?: Transport): Promise<Hop> {
    try {
      const key = await this.#deps.keys.load(via);
      const check = await this.#deps.hostKeys.prepare(via);
      const { client, socket } = await handshake(
        via,
        this.#deps.keepaliveMs,
        check,
        key,
        this.#deps.signal,
        through,
      );
      return new Hop(client, socket, via);
    } catch (err) {
      throw asBastionError(via, err);
    }
  }

  /**
   * Forward a channel from `hop` to `target` and open the session over it,
   * within `target`'s connect timeout as one budget.
   */
  async #reach<T extends ForwardedSession>(
    hop: Hop,
    target: SshTarget,
    open: (through: Transport) => Promise<T>,
  ): Promise<T> {
    if (this.#deps.signal.aborted) {
      throw new SshError(
        "connection-lost",
        `${describeTarget(target)}: the server is shutting down; no new connections`,
      );
    }
    const ms = target.connectTimeoutMs;
    let timedOut = false;
    let channel: ClientChannel | undefined;
    const work = (async () => {
      channel = await hop.forward(target);
      if (timedOut) {
        channel.destroy();
        throw new Error("timed out");
      }
      return await open(channel);
    })();
    // A session that opens after the deadline is closed at once.
    work.then((late) => {
      if (timedOut) late.close();
    }, () => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        const s = ms / 1000;
        if (!channel) {
          reject(
            new BastionError(
              hop.target.title,
              "timeout",
              `${hop.who}: did not open a connection to ${beyond(target)} within ${s} s; ` +
                `is it reachable from the bastion? (--connect-timeout, or connect_timeout per device)`,
            ),
          );
        } else {
          channel.destroy();
          reject(
            new SshError(
              "timeout",
              `${describeTarget(target)}: connection timed out after ${s} s ` +
                `(--connect-timeout, or connect_timeout per device)`,
            ),
          );
        }
      }, ms);
    });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Close every bastion connection. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#opening.values()]);
    await Promise.all([...this.#all].map((hop) => hop.close()));
  }

  /** Drop every bastion connection at once (process exit). */
  destroy(): void {
    for (const hop of this.#all) hop.destroy();
  }
}
