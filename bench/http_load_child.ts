/**
 * A light HTTP load generator in a process of its own, so that what the
 * throughput figure measures is the server and not its clients: plain
 * keep-alive HTTP/1.1 connections (one per client) posting JSON-RPC bytes
 * made once, answers read with a minimal parser (status line, headers,
 * `Content-Length` or chunked body). No MCP SDK, no `fetch`.
 *
 * `deno run -A bench/http_load_child.ts <json>` with
 * `{ "url": "http://127.0.0.1:port/mcp", "mode": "session" | "stateless",
 *    "clients": 32, "devices": 4, "tool": "router_list_ip_addresses",
 *    "warmMs": 1000, "ms": 5000 }`;
 * prints `{"measuring":true}` when the measured stretch starts (after the
 * sessions are open and warm), then one JSON line when it ends: calls,
 * errors, seconds, latencies (ms, sorted), this process's own CPU time in
 * the stretch (ms), and how long opening each session took.
 *
 * In session mode each client opens its own session (initialize, then
 * notifications/initialized) and ends it (DELETE) after the run; in
 * stateless mode every call is a request of its own.
 *
 * @module
 */
import { ownCpuMs } from "./proc.ts";

interface LoadJob {
  url: string;
  mode: "session" | "stateless";
  clients: number;
  devices: number;
  tool: string;
  /** The tool takes no `device` (it acts on no router): every call is the same. */
  noDevice?: boolean;
  warmMs: number;
  ms: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const CRLF2 = enc.encode("\r\n\r\n");

/** One parsed answer. */
interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** A keep-alive HTTP/1.1 connection with a read buffer. */
class HttpConn {
  #conn: Deno.TcpConn;
  #buf = new Uint8Array(64 * 1024);
  #start = 0;
  #end = 0;

  constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
  }

  static async open(host: string, port: number): Promise<HttpConn> {
    const conn = await Deno.connect({ hostname: host, port });
    conn.setNoDelay(true);
    return new HttpConn(conn);
  }

  async #fill(): Promise<void> {
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buf.length) {
      if (this.#start > 0) {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      } else {
        const bigger = new Uint8Array(this.#buf.length * 2);
        bigger.set(this.#buf);
        this.#buf = bigger;
      }
    }
    const n = await this.#conn.read(this.#buf.subarray(this.#end));
    if (n === null) throw new Error("the server closed the connection");
    this.#end += n;
  }

  /** Index of `needle` in the unread bytes, or -1. */
  #find(needle: Uint8Array): number {
    const b = this.#buf;
    outer: for (let i = this.#start; i + needle.length <= this.#end; i++) {
      for (let j = 0; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  }

  async #line(): Promise<string> {
    for (;;) {
      const at = this.#find(CRLF2.subarray(0, 2));
      if (at >= 0) {
        const line = dec.decode(this.#buf.subarray(this.#start, at));
        this.#start = at + 2;
        return line;
      }
      await this.#fill();
    }
  }

  async #bytes(n: number): Promise<Uint8Array> {
    while (this.#end - this.#start < n) await this.#fill();
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }

  async request(bytes: Uint8Array): Promise<Answer> {
    for (let at = 0; at < bytes.length;) at += await this.#conn.write(bytes.subarray(at));
    let head: number;
    while ((head = this.#find(CRLF2)) < 0) await this.#fill();
    const lines = dec.decode(this.#buf.subarray(this.#start, head)).split("\r\n");
    this.#start = head + 4;
    const status = Number(lines[0].split(" ")[1]);
    const headers = new Map<string, string>();
    for (const l of lines.slice(1)) {
      const c = l.indexOf(":");
      headers.set(l.slice(0, c).trim().toLowerCase(), l.slice(c + 1).trim());
    }
    let body = "";
    const length = headers.get("content-length");
    if (length !== undefined) {
      body = dec.decode(await this.#bytes(Number(length)));
    } else if (headers.get("transfer-encoding")?.includes("chunked")) {
      const parts: Uint8Array[] = [];
      for (;;) {
        const size = parseInt(await this.#line(), 16);
        if (size === 0) {
          await this.#line();
          break;
        }
        parts.push(await this.#bytes(size));
        await this.#line();
      }
      body = parts.map((p) => dec.decode(p)).join("");
    }
    return { status, headers, body };
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // already closed
    }
  }
}

/** The bytes of one POST (or DELETE) with a JSON body. */
function post(
  url: URL,
  body: unknown,
  session?: string,
  method = "POST",
): Uint8Array {
  const json = body === undefined ? "" : JSON.stringify(body);
  const length = enc.encode(json).length;
  return enc.encode(
    `${method} ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
      "MCP-Protocol-Version: 2025-06-18\r\n" +
      (session ? `Mcp-Session-Id: ${session}\r\n` : "") +
      `Content-Length: ${length}\r\n\r\n${json}`,
  );
}

/** The JSON-RPC answer in a body (plain JSON, or the data of an event stream). */
function rpcOf(body: string): { result?: { isError?: boolean }; error?: unknown } | undefined {
  const data = body.startsWith("{") ? body : /^data: (.*)$/m.exec(body)?.[1];
  try {
    return data ? JSON.parse(data) : undefined;
  } catch {
    return undefined;
  }
}

async function openClient(job: LoadJob, url: URL): Promise<{ conn: HttpConn; session?: string }> {
  const conn = await HttpConn.open(url.hostname, Number(url.port));
  if (job.mode === "stateless") return { conn };
  const init = await conn.request(post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench-http-load", version: "1.0.0" },
    },
  }));
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !session) {
    throw new Error(`initialize: HTTP ${init.status} ${init.body.slice(0, 300)}`);
  }
  const ack = await conn.request(
    post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session),
  );
  if (ack.status !== 202) throw new Error(`initialized: HTTP ${ack.status}`);
  return { conn, session };
}

async function run(job: LoadJob) {
  const url = new URL(job.url);
  const opens: number[] = [];
  const clients = await Promise.all(Array.from({ length: job.clients }, async () => {
    const t0 = performance.now();
    const c = await openClient(job, url);
    opens.push(performance.now() - t0);
    return c;
  }));
  // Each client's requests, made once: one per device, in turn.
  const requests = clients.map((c) =>
    Array.from({ length: job.devices }, (_, d) =>
      post(url, {
        jsonrpc: "2.0",
        id: d + 1,
        method: "tools/call",
        params: { name: job.tool, arguments: job.noDevice ? {} : { device: `r${d + 1}` } },
      }, c.session))
  );
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const loop = async (i: number, until: number, record: boolean) => {
    const { conn } = clients[i];
    for (let n = i; performance.now() < until; n++) {
      const t0 = performance.now();
      const a = await conn.request(requests[i][n % job.devices]);
      const t = performance.now() - t0;
      if (!record) continue;
      const rpc = a.status === 200 ? rpcOf(a.body) : undefined;
      if (!rpc || rpc.error || rpc.result?.isError) {
        errors++;
        firstError ??= `HTTP ${a.status} ${a.body.slice(0, 300)}`;
      } else latencies.push(t);
    }
  };
  const warmUntil = performance.now() + job.warmMs;
  await Promise.all(clients.map((_, i) => loop(i, warmUntil, false)));
  console.log(JSON.stringify({ measuring: true }));
  const cpu0 = await ownCpuMs();
  const t0 = performance.now();
  await Promise.all(clients.map((_, i) => loop(i, t0 + job.ms, true)));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await ownCpuMs()) - cpu0;
  const result = { calls: latencies.length, errors, firstError, seconds, cpuMs: cpu };
  console.log(JSON.stringify({ ...result, latencies: latencies.sort((a, b) => a - b), opens }));
  for (const c of clients) {
    if (c.session) {
      await c.conn.request(post(url, undefined, c.session, "DELETE")).catch(() => {});
    }
    c.conn.close();
  }
}

if (import.meta.main) {
  const job = JSON.parse(Deno.args[0]) as LoadJob;
  await run(job);
  Deno.exit(0);
}
