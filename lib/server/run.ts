/**
 * Start the MCP server for a resolved configuration on the chosen transport.
 *
 * @module
 */
import process from "node:process";
import { StdioServerTransport } from "../mcp_sdk/server.ts";
import type { Config } from "../config/load.ts";
import { log } from "../log.ts";
import { AuditLog } from "./safety/audit_log.ts";
import type { SafetyOptions } from "./safety/guards.ts";
import { selectTools } from "./tool_selection.ts";
import { createDevices } from "./devices.ts";
import { buildServer, type ServerInfo } from "./mcp.ts";
import { type HttpTransport, startHttp } from "./http/serve.ts";
import { onSignals, within } from "./http/shutdown.ts";
import type { McpServer } from "../mcp_sdk/server.ts";
import type { Devices } from "./devices.ts";

/** The change-safety options of a configuration (opens no files yet). */
export async function safetyOptions(config: Config): Promise<SafetyOptions> {
  const path = config.settings["audit-log"];
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
  const tools = selectTools(config);
  const options = {
    dynamicToolsets: config.settings["dynamic-toolsets"],
    safety: await safetyOptions(config),
  };
  if (transport === "streamable-http" || transport === "sse") {
    return await runHttp(
      config,
      transport,
      () => buildServer(info, tools, devices, options),
      devices,
    );
  }
  const server = buildServer(info, tools, devices, options);
  const stdio = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  // The client closing our stdin ends the session (the SDK transport does
  // not watch for it), so a parent that goes away leaves no server behind.
  process.stdin.once("end", () => void stdio.close());
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

/** Serve over HTTP until SIGINT/SIGTERM, then shut down gracefully. */
async function runHttp(
  config: Config,
  transport: HttpTransport,
  newServer: () => McpServer,
  devices: Devices,
): Promise<void> {
  const s = config.settings;
  const starting = startHttp({
    transport,
    hostname: s["mcp.host"],
    port: s["mcp.port"],
    allowedHosts: s["mcp.allowed-hosts"],
    allowedOrigins: s["mcp.allowed-origins"],
    stateless: s["mcp.stateless"],
    sessionTimeout: s["mcp.session-timeout"],
    maxSessions: s["mcp.max-sessions"],
    newServer,
  });
  // Listen for signals before the port opens, so none arrives unhandled.
  const signals = onSignals(async () => {
    const http = await starting.catch(() => undefined);
    await http?.shutdown();
    if (!(await within(devices.close(), 5_000))) {
      log("warning", "SSH connections did not close in 5 s");
    }
  });
  try {
    await starting;
  } catch (err) {
    signals.remove();
    await devices.close();
    throw err;
  }
  log("info", `serving ${devices.titles.length} device(s) over ${transport}`);
  await signals.stopped;
  signals.remove();
  log("info", "stopped");
}
