/**
 * One SSH connection to a router: our own TCP socket with TCP_NODELAY set
 * before the handshake, authentication, and exec channels.
 *
 * @module
 */
import net from "node:net";
import ssh2 from "ssh2";
import { SshError } from "./errors.ts";
import { describeTarget, type SshTarget } from "./target.ts";

const { Client } = ssh2;

/** Options for opening a connection. */
export interface ConnectOptions {
  /** Private key contents, already read from `target.keyFilename`. */
  privateKey?: string;
  /** Host key check: return null to accept, or an error to refuse. */
  verifyHostKey?: (key: Uint8Array) => SshError | null;
  /** Keepalive interval in ms (0 = off). */
  keepaliveMs?: number;
}

/** Result of one exec. */
export interface ExecOutput {
  /** Decoded, `\r\n`-normalised output (stdout then stderr). */
  output: string;
  /** Exit status (RouterOS's is unreliable; errors are read from the text). */
  exitCode: number | null;
}

/** A live, authenticated SSH connection. */
export class SshConnection {
  #client: InstanceType<typeof Client>;
  #closed = false;
  #onClose: (() => void)[] = [];
  /** Unique id of this connection, for per-connection caches. */
  readonly id: number;
  readonly target: SshTarget;
  static #nextId = 1;

  private constructor(client: InstanceType<typeof Client>, target: SshTarget) {
    this.#client = client;
    this.target = target;
    this.id = SshConnection.#nextId++;
    client.on("close", () => this.#markClosed());
    client.on("end", () => this.#markClosed());
    client.on("error", () => this.#markClosed());
  }

  /** True until the connection ends or errors. */
  get alive(): boolean {
    return !this.#closed;
  }

  /** Call `fn` once the connection is gone. */
  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.push(fn);
  }

  #markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const fn of this.#onClose.splice(0)) fn();
  }

  /** Open a connection: TCP with TCP_NODELAY, then handshake and auth. */
  static open(target: SshTarget, options: ConnectOptions = {}): Promise<SshConnection> {
    const who = describeTarget(target);
    return new Promise((resolve, reject) => {
      let settled = false;
      const client = new Client();
      const socket = net.connect({ host: target.host, port: target.port });
      socket.setNoDelay(true);
      let hostKeyError: SshError | null = null;
      const fail = (err: SshError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        client.end();
        socket.destroy();
        reject(err);
      };
      const timer = setTimeout(
        () =>
          fail(
            new SshError(
              "timeout",
              `${who}: connection timed out after ${target.connectTimeoutMs / 1000} s`,
            ),
          ),
        target.connectTimeoutMs,
      );
      socket.once("error", (err: NodeJS.ErrnoException) => fail(socketError(who, err)));
      socket.once("connect", () => {
        client.once("ready", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(new SshConnection(client, target));
        });
        client.once("error", (err: Error & { level?: string }) => {
          if (hostKeyError) return fail(hostKeyError);
          if (err.level === "client-authentication") {
            return fail(
              new SshError(
                "auth-failed",
                `${who}: authentication failed for user "${target.username}"; check the username, password or key`,
              ),
            );
          }
          fail(new SshError("connection-lost", `${who}: SSH handshake failed: ${err.message}`));
        });
        client.once(
          "close",
          () => fail(new SshError("connection-lost", `${who}: connection closed during handshake`)),
        );
        client.connect({
          sock: socket,
          username: target.username,
          password: target.password,
          privateKey: options.privateKey,
          passphrase: target.keyPassphrase,
          readyTimeout: target.connectTimeoutMs,
          keepaliveInterval: options.keepaliveMs ?? 0,
          keepaliveCountMax: 3,
          tryKeyboard: false,
          hostVerifier: (key: Uint8Array) => {
            hostKeyError = options.verifyHostKey?.(key) ?? null;
            return hostKeyError === null;
          },
        });
      });
    });
  }

  /**
   * Run one command on a fresh exec channel. Output beyond `maxBytes` fails
   * the call; a command silent past `timeoutMs` has its channel closed.
   */
  exec(command: string, timeoutMs: number, maxBytes: number, menu: string): Promise<ExecOutput> {
    const who = describeTarget(this.target);
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(new SshError("connection-lost", `${who}: connection is closed`));
        return;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      let done = false;
      let exitCode: number | null = null;
      let channel: any = null;
      const finish = (err: SshError | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.#onClose = this.#onClose.filter((f) => f !== lost);
        if (err) {
          channel?.close();
          reject(err);
        } else resolve({ output: decodeOutput(chunks), exitCode });
      };
      const lost = () =>
        finish(
          new SshError(
            "connection-lost",
            `${who}: connection lost while running ${menu}`,
            true,
          ),
        );
      this.onClose(lost);
      const timer = setTimeout(() =>
        finish(
          new SshError(
            "timeout",
            `${who}: ${menu} did not answer within ${timeoutMs / 1000} s; the channel was closed`,
            true,
          ),
        ), timeoutMs);
      this.#client.exec(command, (err: Error | undefined, ch: any) => {
        if (err) {
          finish(new SshError("channel-limit", `${who}: could not open a channel: ${err.message}`));
          return;
        }
        channel = ch;
        const onData = (data: Uint8Array) => {
          size += data.length;
          if (size > maxBytes) {
            finish(
              new SshError(
                "output-too-large",
                `${who}: output of ${menu} exceeded ${maxBytes} bytes`,
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
        ch.on("close", () => finish(null));
      });
    });
  }

  /** Close the connection. */
  close(): void {
    this.#client.end();
    this.#markClosed();
  }
}

function socketError(who: string, err: NodeJS.ErrnoException): SshError {
  switch (err.code) {
    case "ECONNREFUSED":
      return new SshError("connection-refused", `${who}: connection refused (is SSH enabled?)`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new SshError("unreachable", `${who}: host name could not be resolved`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new SshError("unreachable", `${who}: host unreachable`);
    case "ETIMEDOUT":
      return new SshError("timeout", `${who}: connection timed out`);
    default:
      return new SshError("unreachable", `${who}: cannot connect: ${err.message}`);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const latin1 = new TextDecoder("latin1");

/** Decode as UTF-8, falling back to Latin-1 for invalid bytes; normalise CRLF. */
export function decodeOutput(chunks: Uint8Array[]): string {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  let text: string;
  try {
    text = utf8.decode(all);
  } catch {
    text = latin1.decode(all);
  }
  return text.replace(/\r\n/g, "\n");
}
