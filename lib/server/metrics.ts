/**
 * The server's own metrics, in the Prometheus text format (prom-client):
 * one registry per process, fed by one small hook per layer, each told in
 * its layer's own words and turned into series here:
 *
 * - the guard chain (`metrics_calls.ts`): calls by tool and result,
 *   latency per tool, refusals by guard;
 * - the SSH pool (`metrics_ssh.ts`): connections per device and their state;
 * - the audit log ({@linkcode AuditObserver}): how long a line waits to be
 *   on disk, and each flush (write and fsync);
 * - the HTTP transports (`metrics_http.ts`): requests, sessions, connections;
 * - the runtime: prom-client's process metrics (CPU, memory, event-loop
 *   lag, file descriptors), less those Deno does not fill in.
 *
 * A warm call counts into arrays of its tool (one increment, one bucket
 * search), allocating nothing; prom-client reads them at each scrape. A
 * server without metrics builds none of this and its hooks are unset.
 *
 * @module
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CallObserver } from "../tools/guard/call_observer.ts";
import type { AuditObserver } from "./safety/audit_log.ts";
import { CallMetrics } from "./metrics_calls.ts";
import { HttpMetrics } from "./metrics_http.ts";
import { SshMetrics } from "./metrics_ssh.ts";

/** The prefix of every series of this server (the runtime's keep their usual names). */
export const PREFIX = "mcp_router_";

/** Audit write latency buckets (seconds): 0.1 ms (a page-cache fsync) to 2.5 s. */
export const AUDIT_BUCKETS = [
  0.0001,
  0.00025,
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
];

/**
 * prom-client's process metrics that Deno leaves empty or gets wrong:
 * libuv handles and requests (always 0), GC durations (never observed) and
 * the Node.js version (the compatibility layer's, not the runtime's; see
 * `mcp_router_build_info`).
 */
const NOT_UNDER_DENO = [
  "nodejs_active_handles",
  "nodejs_active_handles_total",
  "nodejs_active_requests",
  "nodejs_active_requests_total",
  "nodejs_gc_duration_seconds",
  "nodejs_version_info",
];

/**
 * prom-client's process metrics read from `/proc/self`, which Deno lets a
 * process read only with every permission (`--allow-all`); the release
 * binary has fewer, and would report zeros. Removed when unreadable (the
 * resident set is then read from the runtime).
 */
const FROM_PROC = [
  "process_resident_memory_bytes",
  "process_virtual_memory_bytes",
  "process_heap_bytes",
  "process_open_fds",
  "process_max_fds",
];

/** Whether this process may read `/proc/self` (Linux, with every permission). */
function procReadable(): boolean {
  try {
    Deno.readTextFileSync("/proc/self/status");
    return true;
  } catch {
    return false;
  }
}

/** How often the event-loop lag is sampled (ms): finer costs CPU while idle. */
const EVENT_LOOP_SAMPLE_MS = 50;

/** What the metrics are built with. */
export interface MetricsOptions {
  /** The server's version, for `mcp_router_build_info`. */
  version: string;
  /** Label the SSH series by device (false: fleet totals only). */
  perDevice: boolean;
}

/** The audit log's series: the wait for a line to be on disk, and each flush. */
class AuditMetrics implements AuditObserver {
  readonly #write: Histogram;
  readonly #flush: Histogram;
  readonly #failures: Counter;

  constructor(registry: Registry) {
    this.#write = new Histogram({
      name: `${PREFIX}audit_write_seconds`,
      help: "Time from appending an audit line to its being on disk (a write's command waits " +
        "for its intent line), by kind (intent, outcome)",
      labelNames: ["kind"],
      buckets: AUDIT_BUCKETS,
      registers: [registry],
    });
    this.#flush = new Histogram({
      name: `${PREFIX}audit_flush_seconds`,
      help: "One audit log flush: sealing, writing and fsync of the lines waiting",
      buckets: AUDIT_BUCKETS,
      registers: [registry],
    });
    this.#failures = new Counter({
      name: `${PREFIX}audit_write_failures_total`,
      help: "Audit lines that could not be written (their write was refused or stopped)",
      labelNames: ["kind"],
      registers: [registry],
    });
  }

  appended(kind: string, ms: number, ok: boolean): void {
    if (ok) this.#write.labels(kind).observe(ms / 1000);
    else this.#failures.labels(kind).inc();
  }

  flushed(ms: number, ok: boolean): void {
    if (ok) this.#flush.observe(ms / 1000);
  }
}

/** Every series of the process, and the text a scrape gets. */
export class ServerMetrics {
  readonly registry = new Registry();
  /** The guard chain's observer. */
  readonly calls: CallObserver;
  /** The SSH pool's observer, and its gauges. */
  readonly ssh: SshMetrics;
  #http?: HttpMetrics;
  #audit?: AuditMetrics;

  constructor(options: MetricsOptions) {
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    for (const name of NOT_UNDER_DENO) this.registry.removeSingleMetric(name);
    if (!procReadable()) {
      for (const name of FROM_PROC) this.registry.removeSingleMetric(name);
      // The resident set as the runtime reports it: no /proc read, no permission.
      new Gauge({
        name: "process_resident_memory_bytes",
        help: "Resident memory size in bytes.",
        registers: [this.registry],
        collect() {
          this.set(Deno.memoryUsage().rss);
        },
      });
    }
    new Gauge({
      name: `${PREFIX}build_info`,
      help: "The server's version and runtime (always 1)",
      labelNames: ["version", "deno", "v8"],
      registers: [this.registry],
    }).labels(options.version, Deno.version.deno, Deno.version.v8).set(1);
    this.calls = new CallMetrics(this.registry, PREFIX);
    this.ssh = new SshMetrics(this.registry, PREFIX, options.perDevice);
  }

  /** The audit log's observer (registered on first use: a server without an audit log has none). */
  get audit(): AuditObserver {
    return this.#audit ??= new AuditMetrics(this.registry);
  }

  /** The HTTP transports' series (registered on first use: a stdio server has none). */
  get http(): HttpMetrics {
    return this.#http ??= new HttpMetrics(this.registry, PREFIX);
  }

  /** The media type of {@linkcode text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every series, in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
