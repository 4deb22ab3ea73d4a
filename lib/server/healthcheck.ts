/**
 * `mcp-server-router healthcheck`: probe an HTTP health endpoint and exit 0
 * when it answers 200, 1 otherwise. The distroless image has no shell and no
 * curl, so its `HEALTHCHECK` runs this.
 *
 * The probe speaks HTTP/1.1 over a plain socket rather than through `fetch`,
 * because `fetch` honours `HTTP_PROXY`, which Docker injects into containers
 * from the daemon's proxy settings: a health check of 127.0.0.1 sent to a
 * corporate proxy reports a healthy server as dead. Redirects are not
 * followed; only a 200 counts.
 *
 * Every failure, usage errors included, exits 1: Docker reserves exit code 2
 * of a health check.
 *
 * @module
 */
import { log } from "../log.ts";

/** The URL probed when `--url` is not given. */
export const DEFAULT_HEALTH_URL = "http://127.0.0.1:8000/health";
/** Seconds to wait for the status line when `--timeout` is not given. */
export const DEFAULT_HEALTH_TIMEOUT = 5;

const USAGE = `Usage: mcp-server-router healthcheck [options]

Probe the server's health endpoint for a container health check: exit 0 when
the URL answers HTTP 200, 1 otherwise (one line on stderr says why; usage
errors exit 1 too, because Docker reserves exit code 2 of a health check).

Options:
  --url <url>            health endpoint (default: ${DEFAULT_HEALTH_URL})
  --timeout <seconds>    give up after this long (default: ${DEFAULT_HEALTH_TIMEOUT})
  -h, --help             show this help`;

/** Largest response head read while looking for the status line. */
const MAX_HEAD = 16 * 1024;

class UsageError extends Error {}

interface Options {
  url: URL;
  timeoutMs: number;
}

function parseArgs(args: string[]): Options | "help" {
  let url = DEFAULT_HEALTH_URL;
  let timeout = String(DEFAULT_HEALTH_TIMEOUT);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") return "help";
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (name !== "--url" && name !== "--timeout") {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}; expected --url or --timeout`);
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else value = args[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    if (name === "--url") url = value;
    else timeout = value;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL; e.g. ${DEFAULT_HEALTH_URL}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`--url must be an http:// or https:// URL, not ${parsed.protocol}`);
  }
  const seconds = Number(timeout);
  if (timeout.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `--timeout ${JSON.stringify(timeout)}: expected a number of seconds from 0.1 to 3600`,
    );
  }
  return { url: parsed, timeoutMs: Math.round(seconds * 1000) };
}

/** Send one GET and return the response's status code. */
async function probe(url: URL, signal: AbortSignal): Promise<number> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const tls = url.protocol === "https:";
  const port = url.port !== "" ? Number(url.port) : tls ? 443 : 80;
  const conn = tls
    ? await Deno.connectTls({ hostname, port })
    : await Deno.connect({ hostname, port, transport: "tcp" });
  const abort = () => {
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  signal.addEventListener("abort", abort, { once: true });
  try {
    const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\n` +
      `Host: ${url.host}\r\n` +
      "User-Agent: mcp-server-router-healthcheck\r\n" +
      "Accept: */*\r\n" +
      "Connection: close\r\n\r\n";
    const bytes = new TextEncoder().encode(request);
    for (let sent = 0; sent < bytes.length;) sent += await conn.write(bytes.subarray(sent));
    const decoder = new TextDecoder();
    const buf = new Uint8Array(4096);
    let head = "";
    while (!head.includes("\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      head += decoder.decode(buf.subarray(0, n), { stream: true });
      if (head.length > MAX_HEAD) break;
    }
    const match = /^HTTP\/1\.[01] (\d{3})[ \r]/.exec(head);
    if (!match) throw new Error("the answer is not HTTP/1.x");
    return Number(match[1]);
  } finally {
    signal.removeEventListener("abort", abort);
    abort();
  }
}

/**
 * Run `healthcheck` with its arguments (after the subcommand name).
 * Resolves to the exit code: 0 when the URL answers 200, else 1.
 */
export async function runHealthcheck(args: string[]): Promise<number> {
  let options: Options;
  try {
    const parsed = parseArgs(args);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    options = parsed;
  } catch (err) {
    log("error", `healthcheck: ${(err as Error).message}`);
    return 1;
  }
  const { url, timeoutMs } = options;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A connect that hangs is not abortable, so the timeout races the probe.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error("timeout"));
    }, timeoutMs);
  });
  try {
    const status = await Promise.race([probe(url, controller.signal), deadline]);
    if (status === 200) return 0;
    log("error", `healthcheck: ${url.href} answered HTTP ${status}, not 200`);
    return 1;
  } catch (err) {
    const reason = controller.signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : err instanceof Deno.errors.ConnectionRefused
      ? "connection refused (is the server running with --mcp.transport streamable-http or sse?)"
      : (err as Error).message;
    log("error", `healthcheck: ${url.href} failed: ${reason}`);
    return 1;
  } finally {
    clearTimeout(timer);
  }
}
