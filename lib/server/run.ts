/**
 * Start the MCP server for a resolved configuration on the chosen transport.
 *
 * @module
 */
import type { Config } from "../config/load.ts";
import { log } from "../log.ts";
import { AuditLog } from "./safety/audit_log.ts";
import { selectTools } from "./tool_selection.ts";
import { startIdleGc } from "./idle_gc.ts";
import { preloadSsh2 } from "../ssh/ssh2_load.ts";
import { createDevices } from "./devices.ts";
import { buildServer, serverCore, type ServerInfo } from "./mcp.ts";
import { ToolRunner } from "../tools/guard/runner.ts";
import type { HttpTransport } from "./http/serve.ts";
import type { Server } from "../mcp_sdk/server.ts";
import { LineStdioTransport } from "./stdio_transport.ts";
import type { Devices } from "./devices.ts";
import { expandHome } from "../ssh/host_key_policy.ts";

/** The audit log of a configuration, if any (writes are refused while it is unusable). */
export async function auditLog(config: Config): Promise<AuditLog | undefined> {
  const path = config.settings["audit-log"];
  if (!path) return undefined;
  const audit = new AuditLog(path);
  await audit.checkWritable().catch((err) =>
    log("warning", `${(err as Error).message} (read-only tools still work)`)
  );
  return audit;
}

/** What every session of this process shares: devices, guard chain, tool list. */
export async function prepareServer(config: Config, info: ServerInfo) {
  const devices = createDevices(config);
  const selection = selectTools(config);
  const runner = new ToolRunner(selection.all, selection.offered, devices, {
    readOnly: config.settings["read-only"],
    revealSecrets: config.settings["reveal-secrets"],
    audit: await auditLog(config),
    stateDir: expandHome(config.settings["state-dir"]),
  });
  const core = serverCore(info, runner, selection, devices);
  return { devices, core };
}

/** Run the server until the transport closes or the process is signalled. */
export async function runServer(config: Config, info: ServerInfo): Promise<void> {
  startIdleGc();
  const { devices, core } = await prepareServer(config, info);
  const transport = config.settings["mcp.transport"];
  if (transport === "streamable-http" || transport === "sse") {
    return await runHttp(config, transport, () => buildServer(core), devices);
  }
  const server = buildServer(core);
  // The client closing our stdin ends the session, so a parent that goes
  // away leaves no server behind; bad lines are answered, not fatal.
  const stdio = new LineStdioTransport((m) => log("warning", m));
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
  preloadSsh2();
  log("info", `serving ${devices.titles.length} device(s) over stdio`);
  await closed;
  await stop();
}

/** Serve over HTTP until SIGINT/SIGTERM, then shut down gracefully. */
async function runHttp(
  config: Config,
  transport: HttpTransport,
  newServer: () => Server,
  devices: Devices,
): Promise<void> {
  const s = config.settings;
  // The HTTP stack is loaded only by the HTTP transports (stdio never needs it).
  const { startHttp } = await import("./http/serve.ts");
  const { onSignals, within } = await import("./http/shutdown.ts");
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
  preloadSsh2();
  log("info", `serving ${devices.titles.length} device(s) over ${transport}`);
  await signals.stopped;
  signals.remove();
  log("info", "stopped");
}
