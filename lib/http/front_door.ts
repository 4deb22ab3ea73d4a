/**
 * The connection guard in front of `Deno.serve`, which has no header
 * timeout, no idle timeout and no per-peer limit (Deno 2.9: `ServeOptions`
 * offers none, and a connection whose headers never end is invisible to
 * the handler). So the public port is a plain TCP listener that accepts
 * each connection, counts it against its peer's limit and relays its bytes
 * to the real HTTP server, which listens on a loopback port of its own.
 * Watching those bytes, it closes:
 *
 * - a connection whose next request does not reach the handler within the
 *   header timeout once it started (or once the connection opened):
 *   slow or never-finished headers (slowloris);
 * - a connection idle between requests for longer than the idle timeout;
 * - a connection past the peer's limit, at once, after a `503`;
 * - a connection that opens with the HTTP/2 preface (`PRI * HTTP/2.0`, h2c
 *   with prior knowledge), after an HTTP/2 `GOAWAY` saying
 *   `HTTP_1_1_REQUIRED`: `Deno.serve` would speak HTTP/2 with it, and one
 *   connection would then carry up to 200 requests at once, past every
 *   per-connection limit here. MCP clients speak HTTP/1.1 (`Deno.serve`
 *   offers no `Upgrade: h2c`, and TLS ends before this port).
 *
 * The handler learns each request's real peer (its TCP address, not a
 * header) and can close its connection. A connection that reaches the
 * inner port without passing here (another local process) is refused.
 *
 * @module
 */
import type { ConnectionInfo } from "./app.ts";

/** The limits of the guard. */
export interface ConnectionLimits {
  /** From a request's first byte (or the connection's start) to its handler. */
  headerTimeoutMs: number;
  /** Between requests of a kept-alive connection. */
  idleTimeoutMs: number;
  /** Connections open at once from one address. */
  maxPerPeer: number;
}

/** The defaults: 15 s for headers, 60 s idle, 256 connections per address. */
export const DEFAULT_LIMITS: ConnectionLimits = {
  headerTimeoutMs: 15_000,
  idleTimeoutMs: 60_000,
  maxPerPeer: 256,
};

/** Bytes relayed per read, each way. */
const CHUNK = 16 * 1024;

/** What the guard tracks of one connection. */
interface Tracked {
  client: Deno.TcpConn;
  upstream?: Deno.TcpConn;
  peer: Deno.NetAddr;
  /** Requests of this connection being handled (or their responses sent). */
  active: number;
  /** When the connection last went idle (ms, monotonic). */
  idleSince: number;
  /** When bytes of a request not yet handled first arrived (or the connection opened). */
  pendingSince?: number;
  /** Close once the current response has been sent. */
  closeAfter: boolean;
  closed: boolean;
  /** Resolves once closed. */
  ended: PromiseWithResolvers<void>;
  /** Bytes of the connection's start that matched the HTTP/2 preface so far; -1 once decided. */
  preface: number;
}

/** Told of the connections the guard refuses or closes (the server's metrics). */
export interface DoorObserver {
  /**
   * A connection was refused: its peer had the most connections open
   * already, or it spoke HTTP/2.
   */
  refused(why: "per-peer-limit" | "http2"): void;
  /** A connection was closed: its request headers took too long, or it stayed idle too long. */
  timedOut(which: "header" | "idle"): void;
}

/** How long a closing connection may take to pass on what the server already wrote. */
const FLUSH_MS = 1_000;

/** A running guarded server. */
export interface GuardedServer {
  addr: Deno.NetAddr;
  /** Connections open now (tests). */
  readonly connections: number;
  /** Stop accepting, let requests in flight finish, close every connection. */
  shutdown(): Promise<void>;
}

/** Options of the inner server. */
export interface GuardOptions {
  hostname: string;
  port: number;
  limits: ConnectionLimits;
  onListen?: (addr: Deno.NetAddr) => void;
  onError?: (err: unknown) => Response | Promise<Response>;
  observer?: DoorObserver;
}

const now = () => performance.now();

/** The client's connection preface of HTTP/2 (RFC 9113 §3.4). */
const H2_PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * The server's answer to an HTTP/2 preface: an empty SETTINGS frame (the
 * server's preface) and GOAWAY with last stream 0 and `HTTP_1_1_REQUIRED`
 * (0xd), which HTTP/2 clients report as "use HTTP/1.1".
 */
const H2_REFUSAL = new Uint8Array([
  ...[0, 0, 0, 0x4, 0, 0, 0, 0, 0], // SETTINGS, no parameters, stream 0
  ...[0, 0, 8, 0x7, 0, 0, 0, 0, 0], // GOAWAY, 8 bytes, stream 0
  ...[0, 0, 0, 0, 0, 0, 0, 0xd], // last stream 0, HTTP_1_1_REQUIRED
]);

/**
 * How far `bytes`, the next of a connection's first bytes, take the match
 * against the HTTP/2 preface from `at` matched: the new count, or -1 once
 * they differ (HTTP/1.1).
 */
function matchPreface(at: number, bytes: Uint8Array): number {
  const n = Math.min(bytes.byteLength, H2_PREFACE.byteLength - at);
  for (let i = 0; i < n; i++) if (bytes[i] !== H2_PREFACE[at + i]) return -1;
  return at + n;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.byteLength) at += await conn.write(bytes.subarray(at));
}

/** Serve `handler` behind the connection guard; throws what `Deno.listen` throws. */
export function serveGuarded(
  opts: GuardOptions,
  handler: (req: Request, info: ConnectionInfo) => Response | Promise<Response>,
): GuardedServer {
  const listener = Deno.listen({ hostname: opts.hostname, port: opts.port });
  const conns = new Set<Tracked>();
  const byInnerPort = new Map<number, Tracked>();
  const perPeer = new Map<string, number>();
  const { headerTimeoutMs, idleTimeoutMs, maxPerPeer } = opts.limits;

  const close = (t: Tracked) => {
    if (t.closed) return;
    t.closed = true;
    conns.delete(t);
    if (t.upstream) byInnerPort.delete((t.upstream.localAddr as Deno.NetAddr).port);
    const left = (perPeer.get(t.peer.hostname) ?? 1) - 1;
    if (left > 0) perPeer.set(t.peer.hostname, left);
    else perPeer.delete(t.peer.hostname);
    for (const c of [t.client, t.upstream]) {
      try {
        c?.close();
      } catch {
        // already closed
      }
    }
    t.ended.resolve();
  };

  /**
   * Close once the bytes the server has written are passed on: the server
   * ends its side (a `Connection: close` answer, a shutdown), the relay
   * forwards the rest and closes; after {@linkcode FLUSH_MS} it closes anyway.
   */
  const closeSoon = (t: Tracked) => {
    if (t.closed) return;
    const timer = setTimeout(() => close(t), FLUSH_MS);
    Deno.unrefTimer(timer);
    t.ended.promise.then(() => clearTimeout(timer));
  };

  let inner: Deno.HttpServer<Deno.NetAddr>;
  try {
    inner = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
      ...(opts.onError ? { onError: opts.onError } : {}),
    }, (req, info) => {
      const t = info.remoteAddr.hostname === "127.0.0.1"
        ? byInnerPort.get(info.remoteAddr.port)
        : undefined;
      if (!t) {
        return new Response("connect to the server's own address\n", {
          status: 403,
          headers: { "content-type": "text/plain; charset=utf-8", connection: "close" },
        });
      }
      t.active++;
      t.pendingSince = undefined;
      info.completed.catch(() => {}).finally(() => {
        t.active--;
        if (t.closeAfter) closeSoon(t);
        else if (t.active === 0) t.idleSince = now();
      });
      return handler(req, {
        remoteAddr: t.peer,
        close: () => {
          t.closeAfter = true;
        },
      });
    });
  } catch (err) {
    listener.close();
    throw err;
  }
  const innerPort = inner.addr.port;

  const relay = async (t: Tracked, from: Deno.TcpConn, to: Deno.TcpConn, inbound: boolean) => {
    const buf = new Uint8Array(CHUNK);
    try {
      for (;;) {
        const n = await from.read(buf);
        if (n === null) break;
        if (inbound && t.active === 0 && t.pendingSince === undefined) t.pendingSince = now();
        if (inbound && t.preface >= 0) {
          // The whole preface is never passed on: the server cannot start HTTP/2.
          t.preface = matchPreface(t.preface, buf.subarray(0, n));
          if (t.preface === H2_PREFACE.byteLength) {
            opts.observer?.refused("http2");
            await writeAll(t.client, H2_REFUSAL).catch(() => {});
            close(t);
            return;
          }
        }
        await writeAll(to, buf.subarray(0, n));
      }
      // The client finished sending: let the server answer, then end.
      if (inbound) await to.closeWrite().catch(() => close(t));
      else close(t);
    } catch {
      close(t);
    }
  };

  const admit = async (client: Deno.TcpConn) => {
    const peer = client.remoteAddr as Deno.NetAddr;
    const started = now();
    const t: Tracked = {
      client,
      peer,
      active: 0,
      idleSince: started,
      pendingSince: started,
      closeAfter: false,
      closed: false,
      ended: Promise.withResolvers<void>(),
      preface: 0,
    };
    conns.add(t);
    try {
      client.setNoDelay(true);
      const upstream = await Deno.connect({ hostname: "127.0.0.1", port: innerPort });
      upstream.setNoDelay(true);
      t.upstream = upstream;
      if (t.closed) {
        upstream.close();
        return;
      }
      byInnerPort.set((upstream.localAddr as Deno.NetAddr).port, t);
      void relay(t, client, upstream, true);
      void relay(t, upstream, client, false);
    } catch {
      close(t);
    }
  };

  const refuse = (client: Deno.TcpConn) => {
    const body = "Too many connections from your address; close some and retry\n";
    const head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
      `Retry-After: 5\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
    client.write(new TextEncoder().encode(head + body)).catch(() => 0).finally(() => {
      try {
        client.close();
      } catch {
        // already closed
      }
    });
  };

  const accepting = (async () => {
    try {
      for await (const client of listener) {
        const host = (client.remoteAddr as Deno.NetAddr).hostname;
        const open = perPeer.get(host) ?? 0;
        if (open >= maxPerPeer) {
          opts.observer?.refused("per-peer-limit");
          refuse(client);
          continue;
        }
        perPeer.set(host, open + 1);
        void admit(client);
      }
    } catch {
      // the listener closed
    }
  })();

  const sweep = setInterval(() => {
    const at = now();
    for (const t of conns) {
      if (t.active > 0) continue;
      const since = t.pendingSince;
      const late = since !== undefined
        ? at - since > headerTimeoutMs
        : at - t.idleSince > idleTimeoutMs;
      if (!late) continue;
      opts.observer?.timedOut(since !== undefined ? "header" : "idle");
      close(t);
    }
  }, Math.max(50, Math.min(1000, headerTimeoutMs / 4)));
  Deno.unrefTimer(sweep);

  const addr = listener.addr as Deno.NetAddr;
  opts.onListen?.(addr);
  return {
    addr,
    get connections() {
      return conns.size;
    },
    async shutdown() {
      try {
        listener.close();
      } catch {
        // already closed
      }
      await accepting;
      // The server closes idle connections now and the others once answered.
      await inner.shutdown();
      clearInterval(sweep);
      // The server closed its side of each: let the last answers through.
      const left = [...conns];
      for (const t of left) closeSoon(t);
      await Promise.all(left.map((t) => t.ended.promise));
    },
  };
}
