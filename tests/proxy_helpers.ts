/**
 * Helpers for the REST proxy tests: run `main.ts proxy` as a real process
 * from a written configuration file, find its HTTP address in its log, and
 * look at its child processes through /proc.
 *
 * @module
 */
import { childEnv } from "./helpers/env.ts";
import { DENO, MAIN } from "./helpers/mcp.ts";

/** A running proxy process. */
export interface ProxyProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The proxy's pid. */
  pid: number;
  /** Everything the proxy (and its children, prefixed) wrote to stderr so far. */
  stderr: () => string;
  /** Send `signal` and wait for the exit; resolves to the exit code. */
  stop: (signal?: Deno.Signal) => Promise<number>;
  /** `fetch` relative to the proxy's URL. */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
}

/** The MCP server entry that runs this repository's server against a simulator. */
export function routerEntry(sim: { host: string; port: number }) {
  return {
    command: DENO,
    args: [
      "run",
      "--allow-all",
      MAIN,
      "--host",
      sim.host,
      "--port",
      String(sim.port),
      "--host-key-policy",
      "off",
      "--toolsets",
      "all",
    ],
  };
}

/**
 * Write `config` to a file and start `main.ts proxy --config <file> --host
 * 127.0.0.1 --port 0 ...flags`; resolves once it listens.
 */
export async function startProxy(
  config: unknown,
  flags: string[] = [],
  env: Record<string, string> = {},
): Promise<ProxyProcess> {
  const dir = await Deno.makeTempDir({ prefix: "proxy-test-" });
  const file = `${dir}/proxy.json`;
  await Deno.writeTextFile(file, JSON.stringify(config, null, 2));
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "proxy",
      "--config",
      file,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      ...flags,
    ],
    env: childEnv(env, dir),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const { promise: listening, resolve, reject } = Promise.withResolvers<string>();
  const drained = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      log += decoder.decode(chunk, { stream: true });
      const m = /listening on (http:\/\/[^\s]+)/.exec(log);
      if (m) resolve(m[1]);
    }
    reject(new Error(`proxy exited before listening:\n${log}`));
  })();
  const timer = setTimeout(
    () => reject(new Error(`proxy not listening after 60 s:\n${log}`)),
    60_000,
  );
  let exited: Promise<number> | undefined;
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (!exited) {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      exited = child.status.then((s) => s.code);
    }
    const code = await exited;
    await drained;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    return code;
  };
  let url: string;
  try {
    url = await listening;
  } catch (err) {
    await stop("SIGKILL");
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return {
    url,
    pid: child.pid,
    stderr: () => log,
    stop,
    fetch: (path, init) => fetch(url + path, init),
  };
}

/** POST a JSON body (a string is sent as is) and read the answer as JSON. */
export async function postJson(
  proxy: ProxyProcess,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await proxy.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** GET and read the answer as JSON. */
export async function getJson(
  proxy: ProxyProcess,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await proxy.fetch(path, { headers });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** Pids whose parent is `pid`, from /proc. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry.name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether `pid` is a live (not zombie) process, from /proc. */
export function processAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Poll `check` every 100 ms until it returns a value other than undefined, or fail. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A tiny MCP server over Streamable HTTP in this process, with one tool `echo`. */
export async function startEchoServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const { McpServer } = await import("../lib/mcp_sdk/mcp_server.ts");
  const { WebStandardStreamableHTTPServerTransport } = await import(
    "../lib/mcp_sdk/streamable_http.ts"
  );
  const z = await import("zod");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const mcp = new McpServer({ name: "echo", version: "1.0.0" });
    mcp.registerTool("echo", {
      description: "Echo the text back",
      inputSchema: { text: z.string() },
    }, ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));
    await mcp.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      await mcp.close();
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    close: () => server.shutdown(),
  };
}
