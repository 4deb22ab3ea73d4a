/**
 * Figure 4: tool calls per second over streamable-http with 1, 8 and 32
 * concurrent clients spread across 4 simulated devices, with sessions and
 * stateless, beside the floor (raw ssh2 execs per second on the same
 * simulators), plus the heap an open session holds (issue 16).
 *
 * Three kinds of process, so that the figure measures the server and not
 * its clients: the server (`main.ts`, every guard on), the simulators
 * (`sim_child.ts`), and a light load generator (`http_load_child.ts`:
 * plain keep-alive HTTP/1.1 posting JSON-RPC, no MCP SDK). Each one's CPU
 * time per call is read over the same measured stretch. At each
 * concurrency the session server, the stateless server and the floor run
 * one after the other, so load from elsewhere falls on all three alike.
 *
 * Run alone with `deno run --allow-all bench/http.ts [ms]`.
 *
 * @module
 */
import { runMeasured } from "./measured_child.ts";
import { rssMb } from "./proc.ts";
import { type ThroughputFloor, throughputFloor } from "./raw_floor.ts";
import { startSimChild } from "./sim_process.ts";
import { newAuditLog } from "./stdio_server.ts";
import { percentile, round } from "./stats.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const LOAD = new URL("./http_load_child.ts", import.meta.url).pathname;
const LEAK_FIXTURE = new URL("../tests/http_leak_fixture.ts", import.meta.url).pathname;

/** The tool every call runs. */
const TOOL = "router_list_ip_addresses";

/** One concurrency level of one server mode. */
export interface HttpThroughput {
  /** `session`: each client holds a session; `stateless`: `--mcp.stateless`. */
  mode: "session" | "stateless";
  clients: number;
  devices: number;
  calls: number;
  errors: number;
  /** The first error's text, if any. */
  firstError?: string;
  seconds: number;
  callsPerSecond: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  /** CPU time per call (ms, all threads) of the server, the simulators and the load generator. */
  cpuMsPerCall: { server: number; simulators: number; load: number };
}

/** Heap of an in-process server before and after `sessions` sessions came and went. */
export interface HttpSessionMemory {
  sessions: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  /** Per-session MCP servers still reachable after gc (must be 0). */
  serversAlive: number;
  /** Heap an open session holds on the server, KiB (goal: at most 512). */
  perOpenSessionKb: number;
}

/** Everything `benchHttp` measures. */
export interface HttpBench {
  devices: number;
  /** Time to open a session (initialize + initialized), median, in ms. */
  sessionOpenMedianMs: number;
  throughput: HttpThroughput[];
  /** Raw ssh2 on the same simulators, by concurrency. */
  floor: ThroughputFloor[];
  serverRssMb: { idle: number; after32Sessions: number };
  memory: HttpSessionMemory;
}

/** Options (defaults give the standard run). */
export interface HttpBenchOptions {
  concurrency?: number[];
  devices?: number;
  /** Measured time per concurrency level and mode. */
  durationMs?: number;
  /** Sessions for the memory check. */
  memorySessions?: number;
}

interface ServerProcess {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

async function spawnServer(ports: number[], stateless: boolean): Promise<ServerProcess> {
  const inventory = JSON.stringify(
    ports.map((port, i) => ({ title: `r${i + 1}`, host: "127.0.0.1", port, username: "admin" })),
  );
  const home = await Deno.makeTempDir({ prefix: "bench-http-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "--inventory",
      inventory,
      "--host-key-policy",
      "off",
      "--audit-log",
      newAuditLog(),
      "--mcp.transport",
      "streamable-http",
      "--mcp.host",
      "127.0.0.1",
      "--mcp.port",
      "0",
      ...(stateless ? ["--mcp.stateless"] : []),
      "--log-level",
      "info",
    ],
    env: { HOME: home, NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    (async () => {
      const dec = new TextDecoder();
      for await (const chunk of child.stderr) {
        if (log.length < 100_000) log += dec.decode(chunk, { stream: true });
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
        if (m) resolve(Number(m[1]));
      }
      reject(new Error(`server exited:\n${log}`));
    })();
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

/** One measured level: the load generator against `server`, every process's CPU read. */
async function level(
  server: ServerProcess,
  mode: "session" | "stateless",
  clients: number,
  devices: number,
  durationMs: number,
  simulators: number,
): Promise<HttpThroughput & { opens: number[] }> {
  const { result: r, cpuMs } = await runMeasured(LOAD, {
    url: server.url,
    mode,
    clients,
    devices,
    tool: TOOL,
    warmMs: Math.min(1000, durationMs / 4),
    ms: durationMs,
  }, [server.pid, simulators]);
  const latencies = r.latencies as number[];
  const calls = r.calls as number;
  const seconds = r.seconds as number;
  const per = (ms: number) => round(ms / Math.max(1, calls), 3);
  return {
    mode,
    clients,
    devices,
    calls,
    errors: r.errors as number,
    ...(r.firstError ? { firstError: String(r.firstError) } : {}),
    seconds: round(seconds),
    callsPerSecond: round(calls / seconds, 1),
    medianMs: round(percentile(latencies, 0.5)),
    p95Ms: round(percentile(latencies, 0.95)),
    p99Ms: round(percentile(latencies, 0.99)),
    cpuMsPerCall: {
      server: per(cpuMs[0]),
      simulators: per(cpuMs[1]),
      load: per(r.cpuMs as number),
    },
    opens: r.opens as number[],
  };
}

async function sessionMemory(
  host: string,
  port: number,
  sessions: number,
): Promise<HttpSessionMemory> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--v8-flags=--expose-gc",
      LEAK_FIXTURE,
      host,
      String(port),
      String(sessions),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  return {
    sessions,
    heapBeforeMb: round(r.heapBefore / 2 ** 20, 1),
    heapAfterMb: round(r.heapAfter / 2 ** 20, 1),
    serversAlive: r.alive,
    perOpenSessionKb: round(r.perOpenSession / 1024, 1),
  };
}

/** Run the HTTP benchmark. */
export async function benchHttp(opts: HttpBenchOptions = {}): Promise<HttpBench> {
  const concurrency = opts.concurrency ?? [1, 8, 32];
  const devices = opts.devices ?? 4;
  const durationMs = opts.durationMs ?? 5000;
  const sims = await startSimChild(devices);
  const servers: ServerProcess[] = [];
  try {
    const session = await spawnServer(sims.ports, false);
    servers.push(session);
    const stateless = await spawnServer(sims.ports, true);
    servers.push(stateless);
    const idle = await rssMb(session.pid);
    const throughput: HttpThroughput[] = [];
    const floor: ThroughputFloor[] = [];
    const opens: number[] = [];
    let after32 = NaN;
    for (const clients of concurrency) {
      const { opens: o, ...s } = await level(
        session,
        "session",
        clients,
        devices,
        durationMs,
        sims.pid,
      );
      throughput.push(s);
      opens.push(...o);
      if (clients === 32) after32 = await rssMb(session.pid);
      const { opens: _, ...l } = await level(
        stateless,
        "stateless",
        clients,
        devices,
        durationMs,
        sims.pid,
      );
      throughput.push(l);
      floor.push(await throughputFloor(sims.ports, clients, durationMs, [sims.pid]));
    }
    const memory = await sessionMemory(sims.host, sims.port, opts.memorySessions ?? 100);
    return {
      devices,
      sessionOpenMedianMs: round(percentile(opens.sort((a, b) => a - b), 0.5)),
      throughput,
      floor,
      serverRssMb: { idle, after32Sessions: after32 },
      memory,
    };
  } finally {
    for (const s of servers) await s.stop();
    await sims.close();
  }
}

if (import.meta.main) {
  const ms = Number(Deno.args[0] ?? 5000);
  console.log(JSON.stringify(await benchHttp({ durationMs: ms, memorySessions: 20 }), null, 2));
}
