/**
 * Start the MCP server for a resolved configuration on the chosen transport.
 *
 * @module
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config/load.ts";
import { log } from "../log.ts";
import { AuditLog } from "./safety/audit_log.ts";
import type { SafetyOptions } from "./safety/guards.ts";
import { selectTools } from "./tool_selection.ts";
import { createDevices } from "./devices.ts";
import { buildServer, type ServerInfo } from "./mcp.ts";

/** The change-safety options of a configuration (opens no files yet). */
export async function safetyOptions(config: Config): Promise<SafetyOptions> {
  const path = config.settings["audit-log"] as string | undefined;
  if (!path) return {};
  const audit = new AuditLog(path);
  await audit.checkWritable().catch((err) =>
    log("warning", `${(err as Error).message} (read-only tools still work)`)
  );
  return { audit };
}

/** Run the server until the transport closes or the process is signalled. */
export async function runServer(config: Config, info: ServerInfo): Promise<void> {
  const devices = createDevices(config);
  const transport = config.settings["mcp.transport"];
  if (transport !== "stdio") {
    throw new Error(`transport ${transport} is not available in this build`);
  }
  const server = buildServer(info, selectTools(config), devices, {
    dynamicToolsets: config.settings["dynamic-toolsets"] === true,
    safety: await safetyOptions(config),
  });
  const stdio = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  const stop = async () => {
    await server.close().catch(() => {});
    await devices.close();
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => {
      stop().finally(() => Deno.exit(0));
    });
  }
  await server.connect(stdio);
  log("info", `serving ${devices.titles.length} device(s) over stdio`);
  await closed;
  await stop();
}
