/**
 * Start the MCP server for a resolved configuration on the chosen transport.
 *
 * Over stdio, `initialize` is answered before the catalogue is loaded: the
 * core (`core.ts`, with every module of the catalogue) is imported and built
 * once the client has its answer, or at the first request that needs it,
 * whichever comes first. The HTTP transports build it before they listen.
 *
 * @module
 */
import type { Config } from "../config/load.ts";
import { log } from "../log.ts";
import { startIdleGc } from "./idle_gc.ts";
import { buildServer, type ServerInfo } from "./mcp.ts";
import type { HttpTransport } from "./http/serve.ts";
import type { Server } from "../mcp_sdk/server.ts";
import { LineStdioTransport } from "./stdio_transport.ts";
import { plainRequestDispatch } from "../mcp_sdk/dispatch.ts";
import type { Devices } from "./devices.ts";
import type { ServerCore } from "./core.ts";
import { chooseToolsets } from "./toolset_choice.ts";
import { type AuditLog, openAuditLog } from "./safety/audit_log.ts";
import type { ServerMetrics } from "./metrics.ts";

/** The metrics `--metrics` or `--metrics-port` asks for (prom-client is loaded only then). */
async function metricsOf(
  config: Config,
  info: ServerInfo,
  audit: AuditLog | undefined,
): Promise<ServerMetrics | undefined> {
  const s = config.settings;
  if (!s.metrics && s["metrics-port"] === undefined) return undefined;
  const { createMetrics } = await import("./metrics_setup.ts");
  return createMetrics(s, info.version, audit);
}

/**
 * Build the core of `config` (loading the catalogue), once, with the
 * metrics `metrics` gives (set up with the core, not before `initialize`).
 */
function coreLoader(
  config: Config,
  audit: AuditLog | undefined,
  metrics: () => Promise<ServerMetrics | undefined>,
): {
  load(): Promise<ServerCore>;
  /** The devices, if the core was built (to close their connections). */
  devices(): Promise<Devices | undefined>;
} {
  let building: Promise<{ devices: Devices; core: ServerCore }> | undefined;
  const build = () =>
    building ??= metrics().then((m) =>
      import("./core.ts").then(({ prepareServer }) => prepareServer(config, audit, { metrics: m }))
    );
  return {
    load: () => build().then((b) => b.core),
    devices: () => building?.then((b) => b.devices, () => undefined) ?? Promise.resolve(undefined),
  };
}

/** Run the server until the transport closes or the process is signalled. */
export async function runServer(config: Config, info: ServerInfo): Promise<void> {
  startIdleGc();
  const choice = chooseToolsets(config.settings);
  const audit = await openAuditLog(config.settings["audit-log"], config.settings["audit-key-file"]);
  const transport = config.settings["mcp.transport"];
  if (transport === "streamable-http" || transport === "sse") {
    const metrics = await metricsOf(config, info, audit);
    const { prepareServer } = await import("./core.ts");
    const { devices, core } = prepareServer(config, audit, { metrics });
    const newServer = () => buildServer(info, choice, core);
    return await runHttp(config, transport, newServer, devices, audit, metrics);
  }
  if (config.settings.metrics && config.settings["metrics-port"] === undefined) {
    log(
      "warning",
      "--metrics serves /metrics on the HTTP transports' port; over stdio, set --metrics-port",
    );
  }
  // The metrics (and their port) come with the core, once `initialize` is answered.
  let metricsPort: { close(): Promise<void> } | undefined;
  const loader = coreLoader(config, audit, async () => {
    const metrics = await metricsOf(config, info, audit);
    if (metrics && config.settings["metrics-port"] !== undefined) {
      const { serveMetricsPort } = await import("./metrics_setup.ts");
      metricsPort = await serveMetricsPort(config.settings, metrics);
    }
    return metrics;
  });
  // A core that cannot be built is fatal: no request could be served.
  const load = () =>
    loader.load().catch((err) => {
      log("error", `the server could not start: ${(err as Error).message}`);
      Deno.exit(1);
    });
  const server = buildServer(info, choice, load);
  server.oninitialized = () => void load();
  // The client closing our stdin ends the session, so a parent that goes
  // away leaves no server behind; bad lines are answered, not fatal.
  const stdio = new LineStdioTransport(log);
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  const stop = async () => {
    await server.close().catch(() => {});
    await metricsPort?.close();
    await (await loader.devices())?.close();
    await audit?.settle();
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => {
      stop().finally(() => Deno.exit(0));
    });
  }
  await server.connect(stdio);
  stdio.onplainrequest = plainRequestDispatch(server);
  log("info", `serving ${config.devices.length} device(s) over stdio`);
  await closed;
  await stop();
}

/** Serve over HTTP until SIGINT/SIGTERM, then shut down gracefully. */
async function runHttp(
  config: Config,
  transport: HttpTransport,
  newServer: () => Server,
  devices: Devices,
  audit: AuditLog | undefined,
  metrics: ServerMetrics | undefined,
): Promise<void> {
  const s = config.settings;
  // The HTTP stack is loaded only by the HTTP transports (stdio never needs it).
  const { startHttp } = await import("./http/serve.ts");
  const { onSignals, within } = await import("../http/shutdown.ts");
  const { httpAuth } = await import("./http/auth_setup.ts");
  let auth: Awaited<ReturnType<typeof httpAuth>>;
  try {
    auth = await httpAuth(s);
  } catch (err) {
    await devices.close();
    throw err;
  }
  const starting = startHttp({
    transport,
    hostname: s["mcp.host"],
    port: s["mcp.port"],
    allowedHosts: s["mcp.allowed-hosts"],
    allowedOrigins: s["mcp.allowed-origins"],
    stateless: s["mcp.stateless"],
    sessionTimeout: s["mcp.session-timeout"],
    maxSessions: s["mcp.max-sessions"],
    maxSessionsPerPrincipal: s["mcp.max-sessions-per-principal"],
    newServer,
    auth: auth.auth,
    resourceMetadata: auth.resourceMetadata,
    limits: auth.limits,
    bodyTimeoutMs: auth.bodyTimeoutMs,
    metrics,
    metricsRoute: s.metrics,
  });
  let metricsPort: { close(): Promise<void> } | undefined;
  // Listen for signals before the port opens, so none arrives unhandled.
  const signals = onSignals(async () => {
    const http = await starting.catch(() => undefined);
    await metricsPort?.close();
    await http?.shutdown();
    if (!(await within(devices.close(), 5_000))) {
      log("warning", "SSH connections did not close in 5 s");
    }
    await audit?.settle();
  });
  try {
    await starting;
    if (metrics && s["metrics-port"] !== undefined) {
      const { serveMetricsPort } = await import("./metrics_setup.ts");
      metricsPort = await serveMetricsPort(s, metrics, auth);
    }
  } catch (err) {
    await (await starting.catch(() => undefined))?.shutdown();
    signals.remove();
    auth.close();
    await devices.close();
    throw err;
  }
  log("info", `serving ${devices.titles.length} device(s) over ${transport}`);
  await signals.stopped;
  signals.remove();
  auth.close();
  log("info", "stopped");
}
