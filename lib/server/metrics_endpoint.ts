/**
 * `GET /metrics`: the server's metrics for a Prometheus scraper, on the
 * HTTP transports' port (`--metrics`) behind the same guards and
 * authentication as `/mcp`, and on a listener of its own
 * (`--metrics-port`) that serves only this route, over stdio too.
 *
 * Who may scrape: a principal the authentication accepts whose view is
 * the whole fleet, since the series name every device and tool. That is a
 * key with the `metrics` role (made for a scraper: it calls no tool, and
 * `/mcp` refuses it), an unscoped read, operate or admin key, or an OAuth
 * token; a key scoped to some devices gets 403. Without credentials
 * configured, this machine only, as for `/mcp`.
 *
 * @module
 */
import { App, type MethodRoute, type Middleware } from "../http/app.ts";
import { authenticate, type AuthOptions } from "../http/authenticate.ts";
import { HttpError } from "../http/errors.ts";
import type { ConnectionLimits, GuardedServer } from "../http/front_door.ts";
import { addressUrl, listen } from "../http/listen.ts";
import { plainText } from "../http/responses.ts";
import { log } from "../log.ts";
import type { ServerMetrics } from "./metrics.ts";

/** The path metrics are served at. */
export const METRICS_PATH = "/metrics";

/** Refuse (403) a principal whose view is not the whole fleet; runs after `authenticate`. */
export const scrapeAllowed: Middleware = (_req, ctx, next) => {
  const principal = ctx.principal;
  if (principal?.scopes?.length) {
    throw new HttpError(
      403,
      "forbidden",
      `Forbidden: "${principal.name}" may use only some devices, and the metrics name every ` +
        "device; scrape with a key of the metrics role (or one without devices or tags)",
      { headers: { connection: "close" } },
    );
  }
  return next();
};

/** Refuse (403) a `metrics` principal anywhere but `/metrics`; runs after `authenticate`. */
export const callsTools: Middleware = async (req, ctx, next) => {
  const principal = ctx.principal;
  if (principal?.role === "metrics") {
    await req.body?.cancel().catch(() => {});
    throw new HttpError(
      403,
      "forbidden",
      `Forbidden: "${principal.name}" has the metrics role, which only reads ${METRICS_PATH}; ` +
        "calling tools needs a key of the read, operate or admin role",
      { headers: { connection: "close" } },
    );
  }
  return next();
};

/** The `/metrics` route's handlers: GET the text format, HEAD its headers. */
export function metricsMethods(metrics: ServerMetrics): Record<string, MethodRoute> {
  const answer = async (withBody: boolean) => {
    const text = await metrics.text();
    return new Response(withBody ? text : null, {
      status: 200,
      headers: {
        "content-type": metrics.contentType,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  };
  return { GET: () => answer(true), HEAD: () => answer(false) };
}

/** Where `--metrics-port` listens, and who may scrape. */
export interface MetricsServerOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  auth: AuthOptions;
  limits?: ConnectionLimits;
  metrics: ServerMetrics;
}

/** Serve `/metrics` alone on its own port; throws `ListenError` when the port cannot be taken. */
export function startMetricsServer(opts: MetricsServerOptions): GuardedServer {
  const app = new App({
    errorShape: (err) => plainText(err.status, err.message, err.headers),
    name: "metrics server",
  });
  app.route(METRICS_PATH, [authenticate(opts.auth), scrapeAllowed], metricsMethods(opts.metrics));
  return listen({
    hostname: opts.hostname,
    port: opts.port,
    limits: opts.limits,
    portSetting: "--metrics-port (ROUTER_METRICS_PORT)",
    hostSetting: "--metrics-host (ROUTER_METRICS_HOST)",
    onListen: (addr) => log("info", `metrics on ${addressUrl(addr)}${METRICS_PATH}`),
    onError: (err) => {
      log("error", `metrics request failed: ${err instanceof Error ? err.message : String(err)}`);
      return plainText(500, "Internal Server Error");
    },
  }, app.fetch);
}
