/**
 * The metrics of a configuration: built when `--metrics` or
 * `--metrics-port` asks for them (a process without either loads none of
 * this, nor prom-client), wired to the audit log, and the `--metrics-port`
 * listener started with the HTTP transports' authentication settings.
 * `run.ts` imports this module only when metrics are on.
 *
 * @module
 */
import type { Settings } from "../config/settings.ts";
import { isLoopback } from "../http/allow_list.ts";
import { authConfigured } from "../http/authenticate.ts";
import { log } from "../log.ts";
import { type HttpAuth, httpAuth } from "./http/auth_setup.ts";
import { ServerMetrics } from "./metrics.ts";
import { startMetricsServer } from "./metrics_endpoint.ts";
import type { AuditLog } from "./safety/audit_log.ts";

/** The metrics of `settings`, told of `audit`'s writes. */
export function createMetrics(
  settings: Settings,
  version: string,
  audit: AuditLog | undefined,
): ServerMetrics {
  const metrics = new ServerMetrics({
    version,
    perDevice: !settings["metrics-no-device-label"],
  });
  if (audit) audit.observer = metrics.audit;
  return metrics;
}

/** A running `--metrics-port` listener. */
export interface MetricsPort {
  addr: Deno.NetAddr;
  close(): Promise<void>;
}

/**
 * Serve `/metrics` on `--metrics-port`, authenticated by `auth` (the HTTP
 * transports'), or by authentication built here from the same settings
 * (stdio). Throws `ListenError` or `ConfigError` when it cannot start.
 */
export async function serveMetricsPort(
  settings: Settings,
  metrics: ServerMetrics,
  auth?: HttpAuth,
): Promise<MetricsPort> {
  const own = auth ? undefined : await httpAuth(settings, true);
  const use = (auth ?? own)!;
  if (own) notices(settings, use);
  try {
    const server = startMetricsServer({
      hostname: settings["metrics-host"],
      port: settings["metrics-port"] ?? 0,
      auth: { ...use.auth, resourceMetadata: undefined },
      limits: use.limits,
      metrics,
    });
    return {
      addr: server.addr,
      close: async () => {
        await server.shutdown();
        own?.close();
      },
    };
  } catch (err) {
    own?.close();
    throw err;
  }
}

/** Who can scrape a stdio server's metrics port without a credential. */
function notices(settings: Settings, auth: HttpAuth): void {
  const host = settings["metrics-host"];
  if (authConfigured(auth.auth)) return;
  if (settings["mcp.allow-unauthenticated"]) {
    log(
      "warning",
      `--mcp.allow-unauthenticated: every machine that can reach ${host}:` +
        `${settings["metrics-port"]} may read the metrics (device names, tool calls) ` +
        "without a credential; configure --mcp.api-keys-file",
    );
  } else if (!isLoopback(host)) {
    log(
      "info",
      `metrics on ${host} without client authentication: only requests from this machine ` +
        "are served (others get 403); set --mcp.api-keys-file (ROUTER_MCP__API_KEYS_FILE) " +
        "with a key of the metrics role for a remote scraper",
    );
  }
}
