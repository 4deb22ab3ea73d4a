/**
 * The HTTP transports' series, from the HTTP stack's observers: requests by
 * route, method and status (the application's), connections refused or
 * closed by the front door's limits; and, read at each scrape, the open
 * MCP sessions, requests in flight and open connections.
 *
 * Label values stay bounded whatever clients send: the route is the
 * pattern that matched (`/mcp`), never the path; a method outside the
 * standard ones is `other`.
 *
 * @module
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { DoorObserver } from "../http/front_door.ts";
import { countedCounter, type CountedValue } from "./metrics_counted.ts";

/** What the HTTP gauges are read from at each scrape. */
export interface HttpGauges {
  /** MCP sessions open now. */
  sessions(): number;
  /** Requests being handled now. */
  inflight(): number;
  /** TCP connections open now. */
  connections(): number;
}

/** The route label of a request no route matched. */
export const NO_ROUTE = "(none)";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]);

/** The HTTP series; the front door's observer, and the application's. */
export class HttpMetrics implements DoorObserver {
  readonly #refused: Counter;
  readonly #closed: Counter;
  /** Requests by route, method and status (counted here, read at each scrape). */
  readonly #requests = new Map<string, CountedValue>();
  #gauges?: HttpGauges;

  /** Series named `<prefix>http_...` in `registry`. */
  constructor(registry: Registry, prefix: string) {
    countedCounter(
      {
        name: `${prefix}http_requests_total`,
        help: "HTTP requests answered, by route (the pattern that matched), method and status",
        labelNames: ["route", "method", "status"],
      },
      registry,
      () => this.#requests.values(),
    );
    this.#refused = new Counter({
      name: `${prefix}http_connections_refused_total`,
      help: "HTTP connections refused at once: their address had " +
        "--mcp.max-connections-per-peer open (per-peer-limit), or they spoke HTTP/2 (http2)",
      labelNames: ["reason"],
      registers: [registry],
    });
    this.#closed = new Counter({
      name: `${prefix}http_connections_closed_total`,
      help: "HTTP connections closed by a limit: request headers slower than " +
        "--mcp.header-timeout, or idle between requests too long",
      labelNames: ["reason"],
      registers: [registry],
    });
    const gauges = () => this.#gauges;
    new Gauge({
      name: `${prefix}http_sessions`,
      help: "MCP sessions open now (streamable-http or SSE)",
      registers: [registry],
      collect() {
        this.set(gauges()?.sessions() ?? 0);
      },
    });
    new Gauge({
      name: `${prefix}http_requests_in_flight`,
      help: "HTTP requests being handled now",
      registers: [registry],
      collect() {
        this.set(gauges()?.inflight() ?? 0);
      },
    });
    new Gauge({
      name: `${prefix}http_connections`,
      help: "HTTP connections open now",
      registers: [registry],
      collect() {
        this.set(gauges()?.connections() ?? 0);
      },
    });
  }

  /** Read the gauges from a running server. */
  attach(gauges: HttpGauges): void {
    this.#gauges = gauges;
  }

  /** One request answered (the application's `observe`). */
  answered = (route: string | undefined, method: string, status: number): void => {
    // Every part of the key is bounded: the map cannot grow with what clients send.
    const m = METHODS.has(method) ? method : "other";
    const key = `${route ?? NO_ROUTE} ${m} ${status}`;
    let series = this.#requests.get(key);
    if (!series) {
      series = {
        labels: { route: route ?? NO_ROUTE, method: m, status: String(status) },
        value: 0,
      };
      this.#requests.set(key, series);
    }
    series.value++;
  };

  refused(why: "per-peer-limit" | "http2"): void {
    this.#refused.inc({ reason: why });
  }

  timedOut(which: "header" | "idle"): void {
    this.#closed.inc({ reason: which === "header" ? "header-timeout" : "idle-timeout" });
  }
}
