/**
 * Test helpers: the real server assembly (`prepareServer`, `buildServer`)
 * in this process, reached by the SDK's MCP client through the SDK's
 * in-memory transport. Everything below the MCP transport is the product's
 * own: configuration, guard chain, catalogue, RouterOS client and real SSH
 * to the simulator. Faster than spawning `main.ts` (no process start, no
 * second module graph), so a test can afford one server per release; the
 * tests of the process itself (stdio, stderr, exit codes, environment)
 * spawn it (`helpers/mcp.ts`).
 *
 * @module
 */
import { Client, InMemoryTransport, LazySchemaValidator } from "../../lib/mcp_sdk/client_core.ts";
import type { ClientCapabilities } from "../../lib/mcp_sdk/types.ts";
import { type FlagValues, loadConfigAsync } from "../../lib/config/load.ts";
import { SETTINGS } from "../../lib/config/settings.ts";
import { setLogLevel } from "../../lib/log.ts";
import { buildServer } from "../../lib/server/mcp.ts";
import { prepareServer } from "../../lib/server/core.ts";
import type { ServerMetrics } from "../../lib/server/metrics.ts";
import { openAuditLog } from "../../lib/server/safety/audit_log.ts";
import { chooseToolsets } from "../../lib/server/toolset_choice.ts";
import { type ToolDef, TOOLSETS } from "../../lib/tools/tool.ts";
import type { McpSession } from "./mcp.ts";

const TAKES_VALUE = new Set<string>(SETTINGS.filter((s) => s.arg).map((s) => s.name));

/**
 * The CLI's arguments as flag values by setting name, the way the CLI reads
 * them: `--name value`, `--name=value`, or a bare switch.
 */
export function flagsOf(args: readonly string[]): FlagValues {
  const flags: FlagValues = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) throw new Error(`flagsOf: ${args[i]} is not a flag`);
    const [, name, inline] = m;
    if (!TAKES_VALUE.has(name)) flags[name] = true;
    else if (inline !== undefined) flags[name] = inline;
    else flags[name] = args[++i];
  }
  return flags;
}

/**
 * The server of `args` (CLI flags) and `env` in this process, with an MCP
 * client connected: what `spawnServer` gives, without a process. Every
 * toolset is listed unless the arguments choose toolsets; snapshots and
 * known hosts go to fresh temporary files, never the user's. Log lines below
 * `error` are not written, so the session's `stderr()` is empty and its
 * `pid` is this process. `options.tools` is the catalogue (default: the
 * product's); `options.metrics`, when given, is told of every call and
 * connection.
 */
export async function serveInProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  capabilities: ClientCapabilities = {},
  options: { metrics?: ServerMetrics; tools?: readonly ToolDef[] } = {},
): Promise<McpSession> {
  const flags = flagsOf(args);
  setLogLevel("error");
  const scratch = Deno.makeTempDirSync({ prefix: "mcp-router-state-" });
  const chooses = flags.toolsets !== undefined || flags["dynamic-toolsets"] !== undefined ||
    "ROUTER_TOOLSETS" in env;
  const config = await loadConfigAsync(
    {
      ...(chooses ? {} : { toolsets: "all" }),
      "state-dir": `${scratch}/state`,
      "known-hosts": `${scratch}/known_hosts`,
      ...flags,
    },
    env,
    { toolsets: TOOLSETS },
  );
  const audit = await openAuditLog(config.settings["audit-log"], config.settings["audit-key-file"]);
  const { devices, core } = prepareServer(config, audit, options);
  const server = buildServer(
    { name: "in-process", version: "0" },
    chooseToolsets(config.settings),
    core,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "mcp-server-router-tests", version: "1.0.0" }, {
    capabilities,
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  const cleanup = async () => {
    await devices.close();
    await audit?.settle();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  };
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    client,
    pid: Deno.pid,
    stderr: () => "",
    close: async () => {
      await client.close();
      await server.close();
      await cleanup();
    },
  };
}

/** Arguments pointing the server at a simulator, host key checks off. */
export function simArgs(sim: { host: string; port: number }): string[] {
  return ["--host", sim.host, "--port", String(sim.port), "--host-key-policy", "off"];
}

/**
 * Connect an MCP client to an in-process server managing the simulator at
 * `sim` (host key not checked). `flags` are the CLI's flags by setting name
 * (`{ "allow-raw-commands": true }`); every toolset is listed unless they
 * choose toolsets themselves.
 */
export function connectInProcess(
  sim: { host: string; port: number },
  flags: FlagValues = {},
): Promise<McpSession> {
  const args = simArgs(sim);
  for (const [name, value] of Object.entries(flags)) {
    if (value === undefined || value === false) continue;
    args.push(value === true ? `--${name}` : `--${name}=${value}`);
  }
  return serveInProcess(args);
}
