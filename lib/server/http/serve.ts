/**
 * The HTTP server for the streamable-http and SSE transports: routes,
 * Host/Origin guards, `/health`, and a graceful `shutdown`.
 *
 * @module
 */
import type { Server } from "../../mcp_sdk/server.ts";
import { ConfigError } from "../../config/errors.ts";
import { log } from "../../log.ts";
import { App, type Middleware } from "./app.ts";
import {
  type AllowList,
  LOCAL_HOSTS,
  LOCAL_ORIGINS,
  parseHosts,
  parseOrigins,
} from "./allow_list.ts";
import { cors } from "./cors.ts";
import { hostGuard } from "./host_guard.ts";
import { Inflight } from "./inflight.ts";
import { originGuard } from "./origin_guard.ts";
import { plainText } from "./responses.ts";
import { Sessions } from "./sessions.ts";
import { GRACE_MS, within } from "./shutdown.ts";
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
  /** A fresh MCP server for a session or (stateless) a request. */
  newServer: () => Server;
}

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

function allowLists(opts: HttpOptions): { hosts: AllowList; origins: AllowList } {
  const parse = (
    entries: readonly string[],
    local: readonly string[],
    env: string,
    parser: typeof parseHosts,
  ) => {
    try {
      return parser(entries.length > 0 ? entries : local);
    } catch (err) {
      throw new ConfigError(`invalid value for ${env}: ${(err as Error).message}`);
    }
  };
  return {
    hosts: parse(
      opts.allowedHosts,
      LOCAL_HOSTS,
      "ROUTER_MCP__ALLOWED_HOSTS (--mcp.allowed-hosts)",
      parseHosts,
    ),
    origins: parse(
      opts.allowedOrigins,
      LOCAL_ORIGINS,
      "ROUTER_MCP__ALLOWED_ORIGINS (--mcp.allowed-origins)",
      parseOrigins,
    ),
  };
}

/** Whether a listen address only takes local connections. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function startupNotices(opts: HttpOptions, hosts: AllowList, origins: AllowList): void {
  if (hosts.any) {
    log(
      "warning",
      "ROUTER_MCP__ALLOWED_HOSTS contains *: the Host check is off, so DNS rebinding protection " +
        "is disabled; list the host names clients use instead",
    );
  }
  if (origins.any) {
    log(
      "warning",
      "ROUTER_MCP__ALLOWED_ORIGINS contains *: every web page may call this server from a browser",
    );
  }
  if (opts.allowedHosts.length === 0 && !isLoopback(opts.hostname)) {
    log(
      "info",
      `listening on ${opts.hostname} but only local clients are allowed (Host localhost, 127.0.0.1 or [::1]); ` +
        "remote clients and reverse proxies need ROUTER_MCP__ALLOWED_HOSTS (such as mcp.example.com:*)",
    );
  }
}

/** Build the routes for `opts`. */
export function buildApp(
  opts: HttpOptions,
  sessions: Sessions,
  inflight: Inflight,
  draining: () => boolean,
): App {
  const { hosts, origins } = allowLists(opts);
  const guarded = (methods: string[]): Middleware[] => [
    hostGuard(hosts),
    originGuard(origins),
    cors(methods),
  ];
  const app = new App();
  app.use((_req, _ctx, next) =>
    draining()
      ? plainText(503, "Shutting down", { Connection: "close", "Retry-After": "5" })
      : next()
  );
  app.route("/health", [], {
    GET: () => plainText(200, "OK"),
    HEAD: () => plainText(200, "OK"),
  });
  const deps = { newServer: opts.newServer, sessions, inflight };
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
  const { hosts, origins } = allowLists(opts);
  startupNotices(opts, hosts, origins);
  const sessions = new Sessions(opts.sessionTimeout * 1000, opts.maxSessions);
  const inflight = new Inflight();
  let draining = false;
  const app = buildApp(opts, sessions, inflight, () => draining);
  return await new Promise((resolve, reject) => {
    let server: Deno.HttpServer<Deno.NetAddr>;
    try {
      server = Deno.serve({
        hostname: opts.hostname,
        port: opts.port,
        onListen: (addr) => {
          const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
          const path = opts.transport === "streamable-http" ? "/mcp" : "/sse";
          log(
            "info",
            `listening on http://${host}:${addr.port}${path} (${opts.transport}` +
              `${opts.stateless && opts.transport === "streamable-http" ? ", stateless" : ""}; ` +
              `health: /health)`,
          );
        },
        onError: (err) => {
          log("error", `HTTP request failed: ${err instanceof Error ? err.message : String(err)}`);
          return plainText(500, "Internal Server Error");
        },
      }, app.fetch);
    } catch (err) {
      sessions.closeAll();
      const why = err instanceof Error ? err.message : String(err);
      reject(new Error(`cannot listen on ${opts.hostname}:${opts.port}: ${why}`));
      return;
    }
    resolve({
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
    });
  });
}
