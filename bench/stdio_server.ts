/**
 * The MCP server as a child process (`deno run main.ts`, or the compiled
 * binary) with the SDK client connected over stdio, as an agent runs it.
 *
 * @module
 */
import { Client } from "../lib/mcp_sdk/client.ts";
import { StdioClientTransport } from "../lib/mcp_sdk/client.ts";
import { rssMb } from "./proc.ts";

export { rssMb } from "./proc.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;

/** How to start the server. */
export interface ServerCommand {
  /** Name in the results: "deno run" or "binary". */
  label: string;
  command: string;
  args: string[];
}

/** `deno run --allow-all [flags] main.ts`, with the deno running the benchmark. */
export function denoRun(flags: string[] = []): ServerCommand {
  return {
    label: "deno run",
    command: Deno.execPath(),
    args: ["run", "--allow-all", ...flags, MAIN],
  };
}

/** The hello-world server (`bench/hello_server.ts`) on the same deno, for comparison. */
export function helloServer(flags: string[] = []): ServerCommand {
  return {
    label: "hello-world",
    command: Deno.execPath(),
    args: ["run", "--allow-all", ...flags, new URL("./hello_server.ts", import.meta.url).pathname],
  };
}

/** The newest compiled binary in dist/ for this machine's architecture, if one is built. */
export function compiledBinary(): ServerCommand | null {
  const arch = Deno.build.arch === "x86_64" ? "amd64" : "arm64";
  let best: { path: string; mtime: number } | null = null;
  try {
    for (const e of Deno.readDirSync(`${ROOT}dist`)) {
      if (!e.isFile || !e.name.startsWith("mcp-server-router-")) continue;
      if (!e.name.endsWith(`-linux-${arch}`)) continue;
      const path = `${ROOT}dist/${e.name}`;
      const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
      if (!best || mtime > best.mtime) best = { path, mtime };
    }
  } catch {
    return null;
  }
  return best ? { label: "binary", command: best.path, args: [] } : null;
}

/** A tool result as the SDK returns it. */
export interface CallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A running server with its client. */
export interface StdioServer {
  client: Client;
  pid: number;
  /** Milliseconds from spawning to the `initialize` answer. */
  initializeMs: number;
  /** Server stderr so far. */
  stderr(): string;
  rssMb(): Promise<number>;
  /** Call a tool; an error result throws with its text. */
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * Spawn the server with `serverArgs` (after the command's own arguments)
 * and connect the SDK client. HOME is a fresh temporary directory.
 */
export async function startStdioServer(
  serverArgs: string[],
  command: ServerCommand = denoRun(),
): Promise<StdioServer> {
  const home = await Deno.makeTempDir({ prefix: "bench-home-" });
  const transport = new StdioClientTransport({
    command: command.command,
    args: [...command.args, ...serverArgs],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      NO_COLOR: "1",
    },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (d: Uint8Array) => {
    if (log.length < 100_000) log += new TextDecoder().decode(d);
  });
  const client = new Client({ name: "mcp-server-router-bench", version: "1.0.0" });
  const t0 = performance.now();
  try {
    await client.connect(transport, { timeout: 30_000 });
  } catch (err) {
    await transport.close().catch(() => {});
    await Deno.remove(home, { recursive: true }).catch(() => {});
    throw new Error(`the server did not start: ${(err as Error).message}\n${log}`);
  }
  const initializeMs = performance.now() - t0;
  const pid = transport.pid ?? -1;
  return {
    client,
    pid,
    initializeMs,
    stderr: () => log,
    rssMb: () => rssMb(pid),
    async call(name, args = {}, timeoutMs = 60_000) {
      const r = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: timeoutMs,
      })) as CallResult;
      if (r.isError) {
        const text = (r.content ?? []).map((c) => c.text ?? "").join("\n");
        throw new Error(`${name} failed: ${text}`);
      }
      return r;
    },
    async close() {
      await client.close().catch(() => {});
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

/** Where the benchmark's servers keep their audit logs (removed when the benchmark ends). */
let auditDir: string | undefined;

/** A new audit log file for one server (each log is its own hash chain). */
export function newAuditLog(): string {
  if (!auditDir) {
    const dir = Deno.makeTempDirSync({ prefix: "bench-audit-" });
    auditDir = dir;
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* already gone */ }
    });
  }
  return `${auditDir}/${crypto.randomUUID()}.jsonl`;
}

/**
 * The usual arguments for a server in front of one simulated router: every
 * toolset, every guard on (an audit log too: writes append to it), the
 * default log level (nothing is logged per call).
 */
export function singleRouterArgs(host: string, port: number): string[] {
  return [
    "--host",
    host,
    "--port",
    String(port),
    "--host-key-policy",
    "off",
    "--toolsets",
    "all",
    "--audit-log",
    newAuditLog(),
  ];
}
