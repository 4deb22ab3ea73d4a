/**
 * Test helpers: spawn the real server (`main.ts`) as a child process and
 * talk to it with the SDK's MCP client over stdio; list every tool of a
 * session, page by page.
 *
 * @module
 */
import { Client, LazySchemaValidator } from "../../lib/mcp_sdk/client_core.ts";
export { listAllTools, listToolPages } from "../../lib/mcp_sdk/list_all_tools.ts";
import type { ClientCapabilities } from "../../lib/mcp_sdk/types.ts";
import { type SimRouter, startSimulator } from "../../lib/sim/mod.ts";
import { childEnv, DENO, runProcess } from "./env.ts";

/** Absolute path of main.ts. */
export const MAIN = new URL("../../main.ts", import.meta.url).pathname;

export { DENO };

/** What opens a raw MCP session: the `initialize` request (id 1), then `initialized`. */
export const OPENING_MESSAGES = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
] as const;

/** A connected client plus the server's captured stderr. */
export interface McpSession {
  client: Client;
  stderr: () => string;
  /** The server process id. */
  pid: number;
  close: () => Promise<void>;
}

/**
 * Spawn `main.ts` with `args` and only the given environment (plus PATH and
 * HOME), and connect an MCP client to it over stdio. Every toolset is
 * listed (`--toolsets all`) unless `args` choose toolsets themselves.
 */
export async function spawnServer(
  args: string[],
  env: Record<string, string> = {},
  capabilities: ClientCapabilities = {},
): Promise<McpSession> {
  const chooses = args.some((a) => a.startsWith("--toolsets") || a === "--dynamic-toolsets") ||
    "ROUTER_TOOLSETS" in env;
  if (!chooses) args = ["--toolsets", "all", ...args];
  const home = await Deno.makeTempDir({ prefix: "mcp-home-" });
  // Loaded here, not at the top: most files that import this module spawn nothing.
  const { StdioClientTransport } = await import("../../lib/mcp_sdk/client.ts");
  const transport = new StdioClientTransport({
    command: DENO,
    args: ["run", "--allow-all", MAIN, ...args],
    env: childEnv(env, home),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Uint8Array) => {
    stderr += new TextDecoder().decode(d);
  });
  const client = new Client({ name: "mcp-server-router-tests", version: "1.0.0" }, {
    capabilities,
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? -1,
    stderr: () => stderr,
    close: async () => {
      await client.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

/** Call a tool and return its result. */
export async function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
) {
  return (await session.client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
}

/** Run the CLI as a process and capture its exit code and output. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return await runProcess(DENO, ["run", "--allow-all", MAIN, ...args], { env });
}

/** A simulator's `/export` without its first line (the date it was made). */
export function configOf(sim: { export(): string }): string {
  return sim.export().replace(/^# .* by RouterOS .*\n/, "");
}

/**
 * `count` simulated routers, each on its own free port. (Consecutive ports,
 * as `startFleet` gives, can collide with ports in TIME_WAIT on a busy
 * machine.)
 */
export async function startRouters(
  count: number,
  opts: Parameters<typeof startSimulator>[0] = {},
): Promise<SimRouter[]> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startSimulator({ ...opts, port: 0 })),
  );
  const routers = started.flatMap((r) => r.status === "fulfilled" ? [r.value] : []);
  const failed = started.find((r) => r.status === "rejected");
  if (failed) {
    await Promise.all(routers.map((r) => r.close()));
    throw (failed as PromiseRejectedResult).reason;
  }
  return routers;
}

/**
 * Commands with their section-mark nonces made alike: every script carries
 * a fresh random nonce in its marks, so a dry run and the real call differ
 * only there.
 */
export function withoutNonces(commands: readonly string[]): string[] {
  return commands.map((c) => c.replace(/--mcp-[0-9a-f]{12}--/g, "--mcp-<nonce>--"));
}
