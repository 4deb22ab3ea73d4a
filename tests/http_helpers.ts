/**
 * Helpers for the HTTP transport tests: run `main.ts` on an HTTP transport
 * as a real process (port 0, address read from its log), run the HTTP
 * server in-process for the guard tests, and send raw HTTP/1.1 requests
 * over TCP (so the Host header can be anything, or absent).
 *
 * @module
 */
import { Client, LazySchemaValidator } from "../lib/mcp_sdk/client.ts";
import { SSEClientTransport } from "../lib/mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import { type FlagValues, loadConfigAsync } from "../lib/config/load.ts";
import { type HttpOptions, type HttpServer, startHttp } from "../lib/server/http/serve.ts";
import { prepareServer } from "../lib/server/core.ts";
import { chooseToolsets } from "../lib/server/toolset_choice.ts";
import { buildServer } from "../lib/server/mcp.ts";
import { childEnv } from "./helpers/env.ts";
import { DENO, MAIN, OPENING_MESSAGES } from "./helpers/mcp.ts";

/** A running server process on an HTTP transport. */
export interface HttpProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  pid: number;
  /** Everything written to stderr so far. */
  stderr: () => string;
  /** Send `signal` (default SIGTERM) and wait for the exit code. */
  stop: (signal?: Deno.Signal) => Promise<number>;
  /** Wait for the exit code without signalling. */
  status: Promise<Deno.CommandStatus>;
}

export { simArgs } from "./helpers/in_process.ts";

/**
 * Spawn `main.ts --mcp.transport <transport> --mcp.host 127.0.0.1 --mcp.port 0 ...args`;
 * resolves once it listens.
 */
export async function spawnHttp(
  transport: "streamable-http" | "sse",
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpProcess> {
  const home = await Deno.makeTempDir({ prefix: "http-test-" });
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "--mcp.transport",
      transport,
      "--mcp.host",
      "127.0.0.1",
      "--mcp.port",
      "0",
      ...args,
    ],
    env: childEnv(env, home),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  let onLine: (() => void) | undefined;
  const reading = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stderr) {
      log += dec.decode(chunk, { stream: true });
      onLine?.();
    }
  })();
  const status = child.status.then(async (s) => {
    await reading;
    await Deno.remove(home, { recursive: true }).catch(() => {});
    return s;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const m = /listening on http:\/\/(?:\[[^\]]*\]|[^:/]+):(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    };
    onLine = check;
    check();
    status.then((s) => reject(new Error(`server exited ${s.code} before listening:\n${log}`)));
  });
  onLine = undefined;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stderr: () => log,
    status,
    stop: async (signal: Deno.Signal = "SIGTERM") => {
      try {
        child.kill(signal);
      } catch {
        // already exited
      }
      return (await status).code;
    },
  };
}

/** An SDK client connected over `transport` to `url`. */
export async function connect(
  transport: "streamable-http" | "sse",
  url: string,
): Promise<Client> {
  const client = new Client({ name: "http-tests", version: "1.0.0" }, {
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  await client.connect(
    transport === "sse"
      ? new SSEClientTransport(new URL(url))
      : new StreamableHTTPClientTransport(new URL(url)),
  );
  return client;
}

/** The in-process HTTP server plus what to close after. */
export interface InProcess {
  http: HttpServer;
  base: string;
  close: () => Promise<void>;
}

/**
 * Run the HTTP server in this process against the simulator at `sim`;
 * `flags` are further CLI settings by name (`{ toolsets: "all" }`).
 */
export async function startInProcess(
  sim: { host: string; port: number },
  opts: Partial<HttpOptions> = {},
  flags: FlagValues = {},
): Promise<InProcess> {
  const config = await loadConfigAsync({
    host: sim.host,
    port: String(sim.port),
    "host-key-policy": "off",
    ...flags,
  }, {});
  const { devices, core } = prepareServer(config, undefined);
  const http = await startHttp({
    transport: "streamable-http",
    hostname: "127.0.0.1",
    port: 0,
    allowedHosts: [],
    allowedOrigins: [],
    stateless: false,
    sessionTimeout: 1800,
    newServer: () =>
      buildServer({ name: "test", version: "0" }, chooseToolsets(config.settings), core),
    ...opts,
  }).catch(async (err) => {
    await devices.close();
    throw err;
  });
  return {
    http,
    base: `http://127.0.0.1:${http.addr.port}`,
    close: async () => {
      await http.shutdown(1000);
      await devices.close();
    },
  };
}

/** A raw HTTP response. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * Send one HTTP/1.1 request over TCP exactly as given: `headers` in order,
 * no Host unless listed. `Connection: close` is added.
 */
export async function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: [string, string][],
  body = "",
): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [`${method} ${path} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)];
    if (body !== "") lines.push(`Content-Length: ${new TextEncoder().encode(body).byteLength}`);
    lines.push("Connection: close", "", body);
    await conn.write(new TextEncoder().encode(lines.join("\r\n")));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(16384);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    const text = new TextDecoder().decode(
      chunks.reduce((a, c) => {
        const out = new Uint8Array(a.length + c.length);
        out.set(a);
        out.set(c, a.length);
        return out;
      }, new Uint8Array()),
    );
    const split = text.indexOf("\r\n\r\n");
    const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
    const h = new Headers();
    for (const line of headerLines) {
      const i = line.indexOf(":");
      h.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
    }
    let rest = text.slice(split + 4);
    if (h.get("transfer-encoding")?.includes("chunked")) rest = unchunk(rest);
    return { status: Number(statusLine.split(" ")[1]), headers: h, body: rest };
  } finally {
    conn.close();
  }
}

function unchunk(s: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const eol = s.indexOf("\r\n", at);
    if (eol < 0) return out;
    const size = parseInt(s.slice(at, eol), 16);
    if (!size) return out;
    out += s.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** An initialize request body. */
export const INITIALIZE = JSON.stringify(OPENING_MESSAGES[0]);

/** Headers of an MCP POST (no Host). */
export const MCP_POST: [string, string][] = [
  ["Content-Type", "application/json"],
  ["Accept", "application/json, text/event-stream"],
];
