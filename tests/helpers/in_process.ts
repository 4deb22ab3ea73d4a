/**
 * Test helpers: the real server assembly (`prepareServer`, `buildServer`)
 * in this process, reached by the SDK's MCP client through the SDK's
 * in-memory transport. Everything below the MCP transport is the product's
 * own: configuration, guard chain, catalogue, RouterOS client and real SSH
 * to the simulator. Faster than spawning `main.ts` (no process start, no
 * second module graph), so a test can afford one server per release.
 *
 * @module
 */
import { Client, InMemoryTransport, LazySchemaValidator } from "../../lib/mcp_sdk/client.ts";
import { type FlagValues, loadConfigAsync } from "../../lib/config/load.ts";
import { setLogLevel } from "../../lib/log.ts";
import { buildServer } from "../../lib/server/mcp.ts";
import { prepareServer } from "../../lib/server/core.ts";
import { openAuditLog } from "../../lib/server/safety/audit_log.ts";
import { chooseToolsets } from "../../lib/server/toolset_choice.ts";
import { TOOLSETS } from "../../lib/tools/tool.ts";
import type { McpSession } from "./mcp.ts";

/**
 * Connect an MCP client to an in-process server managing the simulator at
 * `sim` (host key not checked). `flags` are the CLI's flags by setting name
 * (`{ "allow-raw-commands": true }`); every toolset is listed unless they
 * choose toolsets themselves. Log lines below `error` are not written; the
 * ones that are go to this process's stderr, so the session's `stderr()` is
 * empty and its `pid` is this process.
 */
export async function connectInProcess(
  sim: { host: string; port: number },
  flags: FlagValues = {},
): Promise<McpSession> {
  setLogLevel("error");
  // Snapshots go to a fresh directory, never the user's state directory.
  const stateDir = flags["state-dir"] === undefined
    ? Deno.makeTempDirSync({ prefix: "mcp-router-state-" })
    : undefined;
  const config = await loadConfigAsync(
    {
      host: sim.host,
      port: String(sim.port),
      "host-key-policy": "off",
      toolsets: "all",
      ...(stateDir ? { "state-dir": stateDir } : {}),
      ...flags,
    },
    {},
    { toolsets: TOOLSETS },
  );
  const { devices, core } = prepareServer(
    config,
    await openAuditLog(config.settings["audit-log"]),
  );
  const server = buildServer(
    { name: "in-process", version: "0" },
    chooseToolsets(config.settings),
    core,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "mcp-server-router-tests", version: "1.0.0" }, {
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
  } catch (err) {
    await devices.close();
    if (stateDir) await Deno.remove(stateDir, { recursive: true });
    throw err;
  }
  return {
    client,
    pid: Deno.pid,
    stderr: () => "",
    close: async () => {
      await client.close();
      await server.close();
      await devices.close();
      if (stateDir) await Deno.remove(stateDir, { recursive: true }).catch(() => {});
    },
  };
}
