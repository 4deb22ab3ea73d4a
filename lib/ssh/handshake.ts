/**
 * Opening an SSH session to a router: our own TCP socket with TCP_NODELAY
 * set before the first byte (without it every exec waits on Nagle's
 * algorithm and delayed acknowledgements; docs/benchmarks.md has the figures) and its writes batched per tick (`write_batching.ts`),
 * the SSH handshake with the host key check, and authentication, all
 * within the connect timeout; each failure becomes one
 * {@linkcode SshError} that says what to check.
 *
 * @module
 */
import type net from "node:net";
import type { Duplex } from "node:stream";
import { authMethods } from "./auth_methods.ts";
import { SshError } from "./errors.ts";
import { batchWrites } from "./write_batching.ts";
import type { HostKeyCheck } from "./host_key_policy.ts";
import type { Client, ParsedKey, ServerHostKeyAlgorithm, Ssh2Error } from "./ssh2.ts";
import { loadSsh2 } from "./ssh2_load.ts";
import { describeTarget, endpointOf, type SshTarget } from "./target.ts";
import {
  bannerOf,
  closedError,
  KEPT_BYTES,
  newProgress,
  type OpenProgress,
  timeoutError,
} from "./connect_failure.ts";

/**
 * What an SSH session runs over: our own TCP socket, or a channel forwarded
 * by a bastion (`jump.ts`), which has no addresses of its own.
 */
export type Transport = Duplex & { remoteAddress?: string; localAddress?: string };

/** How a connection logged in: with its key, or with its password (keyboard-interactive too). */
export type LoginMethod = "publickey" | "password";

/** An authenticated ssh2 client, the transport under it, and how it logged in. */
export interface OpenedSession {
  client: Client;
  socket: Transport;
  login: LoginMethod;
}

/**
 * The TCP socket of a new connection, with TCP_NODELAY on and what ssh2
 * writes in one tick sent as one write. Every SSH socket of the product
 * comes from here.
 */
export function openSocket(
  target: Pick<SshTarget, "host" | "port">,
  connect: typeof net.connect,
): net.Socket {
  const socket = connect({ host: target.host, port: target.port });
  socket.setNoDelay(true);
  batchWrites(socket);
  return socket;
}

/**
 * Keep the first bytes the server sends in `p.received`, without a `data`
 * listener of our own: one would start the socket flowing before ssh2 has
 * attached its own, and ssh2 would miss them.
 */
function watchFirstBytes(socket: Transport, p: OpenProgress): () => void {
  const emit = socket.emit;
  const restore = () => {
    if (socket.emit !== emit) socket.emit = emit;
  };
  socket.emit = function (this: Transport, event: string | symbol, ...args: unknown[]) {
    if (event === "data" && p.received.length < KEPT_BYTES) {
      const chunk = args[0] as Uint8Array;
      p.received += latin1.decode(chunk.subarray(0, KEPT_BYTES - p.received.length));
      if (p.received.length >= KEPT_BYTES) restore();
    }
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as Transport["emit"];
  return restore;
}

const latin1 = new TextDecoder("latin1");

/**
 * TCP connect, handshake and authentication, within the connect timeout.
 * With `through` (a channel a bastion forwarded to the target), the session
 * runs over it instead of a TCP socket of its own.
 */
export async function handshake(
  target: SshTarget,
  keepaliveMs: number,
  check: HostKeyCheck,
  key: ParsedKey | undefined,
  signal?: AbortSignal,
  through?: Transport,
): Promise<OpenedSession> {
  // node:net is loaded with ssh2, when the first connection opens.
  const [{ Client }, { connect }] = await Promise.all([loadSsh2(), import("node:net")]);
  const who = describeTarget(target);
  const endpoint = endpointOf(target);
  const seconds = target.connectTimeoutMs / 1000;
  return await new Promise((resolve, reject) => {
    const shuttingDown = () =>
      new SshError("connection-lost", `${who}: the server is shutting down; no new connections`);
    if (signal?.aborted) return reject(shuttingDown());
    let settled = false;
    let hostKeyError: SshError | null = null;
    const progress = newProgress();
    const client = new Client();
    const socket: Transport = through ?? openSocket(target, connect);
    const stopWatching = watchFirstBytes(socket, progress);
    const onAbort = () => fail(shuttingDown());
    signal?.addEventListener("abort", onAbort);
    const fail = (err: SshError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopWatching();
      signal?.removeEventListener("abort", onAbort);
      client.removeAllListeners("ready");
      client.on("error", () => {});
      client.end();
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(timeoutError(who, endpoint, seconds, progress)),
      target.connectTimeoutMs,
    );
    socket.on(
      "error",
      (err: NodeJS.ErrnoException) => fail(socketError(who, endpoint, err, seconds, progress)),
    );
    const onConnect = () => {
      progress.connected = true;
      const tried: string[] = [];
      client.once("handshake", () => {
        progress.handshaken = true;
      });
      client.once("ready", () => {
        if (settled) return;
        check.commit().then(() => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          stopWatching();
          signal?.removeEventListener("abort", onAbort);
          socket.removeAllListeners("error");
          socket.on("error", () => {});
          // The last method tried is the one the server accepted (auth_methods.ts names them).
          const login = tried.at(-1)?.startsWith("key ") ? "publickey" : "password";
          resolve({ client, socket, login });
        });
      });
      client.on("error", (err: Ssh2Error) => {
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
          return fail(timeoutError(who, endpoint, seconds, progress));
        }
        if (check.algorithms && /host key/i.test(err.message)) {
          return fail(
            new SshError(
              "host-key-mismatch",
              `${who}: host key mismatch: the server offers none of the key types recorded ` +
                `for it (${check.knownTypes.join(", ")}); its key may have been replaced. If ` +
                `the change is expected, remove the old entry with ssh-keygen -R`,
            ),
          );
        }
        if (err.code && err.level === "client-socket") {
          return fail(socketError(who, endpoint, err, seconds, progress));
        }
        if (/no matching/i.test(err.message)) {
          return fail(
            new SshError(
              "handshake-failed",
              `${who}: the SSH server (${bannerOf(progress) ?? endpoint}) has no algorithm in ` +
                `common with this client: ${err.message}`,
            ),
          );
        }
        fail(
          closedError(
            who,
            endpoint,
            progress,
            /Connection lost before handshake/.test(err.message) ? undefined : err.message,
          ),
        );
      });
      client.once("close", () => fail(hostKeyError ?? closedError(who, endpoint, progress)));
      client.connect({
        sock: socket,
        username: target.username,
        readyTimeout: target.connectTimeoutMs,
        keepaliveInterval: keepaliveMs,
        keepaliveCountMax: 3,
        authHandler: authMethods(target, key, tried),
        ...(check.algorithms
          ? { algorithms: { serverHostKey: check.algorithms as ServerHostKeyAlgorithm[] } }
          : {}),
        hostVerifier: (hostKey: Uint8Array) => {
          hostKeyError = check.verify(hostKey);
          return hostKeyError === null;
        },
      });
    };
    // A forwarded channel is open already.
    if (through) queueMicrotask(() => settled || onConnect());
    else socket.once("connect", onConnect);
  });
}

function socketError(
  who: string,
  endpoint: string,
  err: { code?: string; message: string },
  seconds: number,
  progress: OpenProgress,
): SshError {
  const port = endpoint.slice(endpoint.lastIndexOf(":") + 1);
  switch (err.code) {
    case "ECONNREFUSED":
      return new SshError(
        "connection-refused",
        `${who}: connection refused: nothing listens on port ${port}; is the port right?`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new SshError("unreachable", `${who}: the host name could not be resolved (DNS)`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
      return new SshError("unreachable", `${who}: host unreachable: no route to ${endpoint}`);
    case "ETIMEDOUT":
      return timeoutError(who, endpoint, seconds, progress);
    case "ECONNRESET":
    case "EPIPE":
      return closedError(who, endpoint, progress, "reset");
    default:
      return new SshError("unreachable", `${who}: cannot connect to ${endpoint}: ${err.message}`);
  }
}
