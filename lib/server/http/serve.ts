/**
 * The HTTP server for the streamable-http and SSE transports: routes,
 * Host/Origin guards, client authentication (API keys, OAuth, or this
 * machine only), `/health`, the OAuth protected resource metadata, the
 * connection limits, and a graceful `shutdown`.
 *
 * @module
 */
import type { Server } from "../../mcp_sdk/server.ts";
import { log } from "../../log.ts";
import { App } from "../../http/app.ts";
import { cors } from "../../http/cors.ts";
import {
  guardChain,
  type GuardLists,
  guardLists,
  guardNotices,
  type GuardSettingNames,
} from "../../http/guard_settings.ts";
import { addressUrl, listen } from "../../http/listen.ts";
import { authenticate, type AuthOptions } from "../../http/authenticate.ts";
import { BODY_TIMEOUT_MS } from "../../http/body_limit.ts";
import { type ConnectionLimits, DEFAULT_LIMITS } from "../../http/front_door.ts";
import {
  metadataPaths,
  protectedResourceMetadata,
  type ResourceMetadata,
} from "../../http/protected_resource.ts";
import { plainText } from "../../http/responses.ts";
import type { ServerMetrics } from "../metrics.ts";
import { callsTools, METRICS_PATH, metricsMethods, scrapeAllowed } from "../metrics_endpoint.ts";
import { Inflight } from "./inflight.ts";
import { mcpErrorShape } from "./responses.ts";
import { Sessions } from "./sessions.ts";
import { GRACE_MS, within } from "../../http/shutdown.ts";
import { MESSAGES_PATH, sseMessages, sseStream } from "./sse.ts";
import { streamableRoutes } from "./streamable.ts";

/** The HTTP transports. */
export type HttpTransport = "streamable-http" | "sse";

/** How to serve. */
export interface HttpOptions {
  transport: HttpTransport;
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  /** Allowed Host header patterns; empty means local access only. */
  allowedHosts: readonly string[];
  /** Allowed Origin patterns; empty means local pages only. */
  allowedOrigins: readonly string[];
  /** streamable-http without sessions. */
  stateless: boolean;
  /** Idle sessions close after this many seconds. */
  sessionTimeout: number;
  /** Most sessions open at once (default: no limit). */
  maxSessions?: number;
  /** Most sessions of one principal (default: three quarters of `maxSessions`). */
  maxSessionsPerPrincipal?: number;
  /** A fresh MCP server for a session or (stateless) a request. */
  newServer: () => Server;
  /** Client authentication (default: this machine only, no credentials). */
  auth?: AuthOptions;
  /** The OAuth protected resource metadata, when OAuth is on. */
  resourceMetadata?: ResourceMetadata;
  /** Header and idle timeouts, connections per peer. */
  limits?: ConnectionLimits;
  /** How long a request body may take to arrive (ms). */
  bodyTimeoutMs?: number;
  /** The process's metrics, told of requests and connections; none: nothing is measured. */
  metrics?: ServerMetrics;
  /** Serve `/metrics` (behind the same guards and authentication as `/mcp`). */
  metricsRoute?: boolean;
}

/** Authentication when none is configured: this machine only. */
export const LOCAL_ONLY: AuthOptions = {
  allowUnauthenticated: false,
  realm: "mcp-server-router",
  settings: "--mcp.api-keys-file (ROUTER_MCP__API_KEYS_FILE) or --mcp.oauth-issuer " +
    "(ROUTER_MCP__OAUTH_ISSUER), or start it with --mcp.allow-unauthenticated",
};

/** A running HTTP server. */
export interface HttpServer {
  /** The address it listens on. */
  addr: Deno.NetAddr;
  /** Open sessions (for tests and the benchmark). */
  sessions: Sessions;
  /** Requests in flight. */
  inflight: Inflight;
  /** Stop accepting, wait for requests in flight (up to `graceMs`), close sessions. */
  shutdown(graceMs?: number): Promise<void>;
}

/** How people set the allow-lists of the MCP transports. */
const GUARD_NAMES: GuardSettingNames = {
  hostsFlag: "--mcp.allowed-hosts",
  originsFlag: "--mcp.allowed-origins",
  hosts: "ROUTER_MCP__ALLOWED_HOSTS",
  origins: "ROUTER_MCP__ALLOWED_ORIGINS",
};

/** Request headers MCP clients in a browser send. */
const CORS_REQUEST_HEADERS = [
  "Content-Type",
  "Accept",
  "Authorization",
  "Mcp-Session-Id",
  "Mcp-Protocol-Version",
  "Last-Event-ID",
];

function lists(opts: HttpOptions): GuardLists {
  return guardLists(opts.allowedHosts, opts.allowedOrigins, GUARD_NAMES);
}

/** Build the routes for `opts`. */
export function buildApp(
  opts: HttpOptions,
  sessions: Sessions,
  inflight: Inflight,
  draining: () => boolean,
): App {
  const guards = guardChain(lists(opts), GUARD_NAMES);
  // Credentials are checked before a body is read: a stranger's body is never buffered.
  const auth = authenticate(opts.auth ?? LOCAL_ONLY);
  const guarded = (methods: string[]) => [
    ...guards,
    cors({
      methods,
      allowHeaders: CORS_REQUEST_HEADERS,
      exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"],
    }),
    auth,
    callsTools,
  ];
  const app = new App({
    errorShape: mcpErrorShape,
    name: "MCP HTTP server",
    observe: opts.metrics?.http.answered,
  });
  app.use((_req, _ctx, next) =>
    draining()
      ? plainText(503, "Shutting down", { Connection: "close", "Retry-After": "5" })
      : next()
  );
  app.route("/health", [], {
    GET: () => plainText(200, "OK"),
    HEAD: () => plainText(200, "OK"),
  });
  if (opts.resourceMetadata) {
    const metadata = protectedResourceMetadata(opts.resourceMetadata);
    for (const path of metadataPaths(opts.resourceMetadata.resource)) {
      app.route(path, [...guards, cors({ methods: ["GET"], allowHeaders: [] })], {
        GET: metadata,
      });
    }
  }
  if (opts.metrics && opts.metricsRoute) {
    app.route(METRICS_PATH, [...guards, auth, scrapeAllowed], metricsMethods(opts.metrics));
  }
  const deps = {
    newServer: opts.newServer,
    sessions,
    inflight,
    bodyTimeoutMs: opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
  };
  if (opts.transport === "streamable-http") {
    const routes = streamableRoutes({ ...deps, stateless: opts.stateless });
    app.route("/mcp", guarded(Object.keys(routes)), routes);
  } else {
    app.route("/sse", guarded(["GET"]), { GET: sseStream(deps) });
    app.route(MESSAGES_PATH, guarded(["POST"]), { POST: sseMessages(deps) });
  }
  return app;
}

/** Start serving; resolves once listening. */
export async function startHttp(opts: HttpOptions): Promise<HttpServer> {
  guardNotices(opts.hostname, opts.allowedHosts, lists(opts), GUARD_NAMES);
  const sessions = new Sessions(
    opts.sessionTimeout * 1000,
    opts.maxSessions,
    undefined,
    opts.maxSessionsPerPrincipal,
  );
  const inflight = new Inflight();
  let draining = false;
  const app = buildApp(opts, sessions, inflight, () => draining);
  let server: ReturnType<typeof listen>;
  try {
    server = listen({
      hostname: opts.hostname,
      port: opts.port,
      limits: opts.limits ?? DEFAULT_LIMITS,
      portSetting: "--mcp.port (ROUTER_MCP__PORT)",
      hostSetting: "--mcp.host (ROUTER_MCP__HOST)",
      observer: opts.metrics?.http,
      onListen: (addr) => {
        const path = opts.transport === "streamable-http" ? "/mcp" : "/sse";
        log(
          "info",
          `listening on ${addressUrl(addr)}${path} (${opts.transport}` +
            `${opts.stateless && opts.transport === "streamable-http" ? ", stateless" : ""}; ` +
            `health: /health${opts.metrics && opts.metricsRoute ? ", metrics: /metrics" : ""})`,
        );
      },
      onError: (err) => {
        log("error", `HTTP request failed: ${err instanceof Error ? err.message : String(err)}`);
        return plainText(500, "Internal Server Error");
      },
    }, app.fetch);
  } catch (err) {
    await sessions.closeAll();
    throw err;
  }
  opts.metrics?.http.attach({
    sessions: () => sessions.size,
    inflight: () => inflight.count,
    connections: () => server.connections,
  });
  return {
    addr: server.addr,
    sessions,
    inflight,
    async shutdown(graceMs = GRACE_MS) {
      draining = true;
      const finished = server.shutdown();
      if (!(await within(inflight.idle(), graceMs))) {
        log(
          "warning",
          `${inflight.count} request(s) still running after ${graceMs / 1000} s; closing`,
        );
      }
      await sessions.closeAll();
      await within(finished, 2_000);
    },
  };
}
