/**
 * HTTP transport benchmark: tool calls per second over streamable-http with
 * 1, 8 and 32 concurrent clients (one session each) spread across 4
 * simulated devices, plus the heap before and after many sessions come and
 * go (the server's per-session MCP servers must all be collected).
 *
 * The server runs as a real process (`main.ts` with an inventory); the
 * simulators and clients run in this process and share the machine's
 * cores with it, so the figures are lower bounds for the server.
 *
 * Run alone with `deno run --allow-all bench/http.ts`.
 *
 * @module
 */
import { Client } from "../lib/mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import { type SimRouter, startFleet } from "../lib/sim/mod.ts";
import { throughputFloor } from "./raw_floor.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const LEAK_FIXTURE = new URL("../tests/http_leak_fixture.ts", import.meta.url).pathname;

/** One concurrency level's figures. */
export interface HttpThroughput {
  clients: number;
  devices: number;
  calls: number;
  errors: number;
  seconds: number;
  callsPerSecond: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  /** The server process's CPU use while measuring (100 = one core). */
  serverCpuPercent: number;
  /** This process's (clients and simulators) CPU use while measuring. */
  clientCpuPercent: number;
  /**
   * The floor: raw ssh2 execs of the tool's command per second, as many at
   * once over one connection per simulator, from a process of their own
   * (`raw_floor.ts`), against the same simulators for the same time.
   */
  floorCallsPerSecond: number;
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
  /** Time to open a session (initialize + initialized), median over 20, in ms. */
  sessionOpenMedianMs: number;
  throughput: HttpThroughput[];
  serverRssMb: { idle: number; after32Sessions: number };
  memory: HttpSessionMemory;
}

/** Options (defaults give the standard run). */
export interface HttpBenchOptions {
  concurrency?: number[];
  devices?: number;
  /** Measured time per concurrency level. */
  durationMs?: number;
  /** Sessions for the memory check. */
  memorySessions?: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** CPU seconds (user + system) a process has used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks, USER_HZ = 100
}

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return round(kb / 1024, 1);
}

interface ServerProcess {
  url: URL;
  pid: number;
  stop: () => Promise<void>;
}

async function spawnServer(sims: SimRouter[]): Promise<ServerProcess> {
  const inventory = JSON.stringify(
    sims.map((s, i) => ({ title: `r${i + 1}`, host: s.host, port: s.port, username: "admin" })),
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
      "--mcp.transport",
      "streamable-http",
      "--mcp.host",
      "127.0.0.1",
      "--mcp.port",
      "0",
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
        log += dec.decode(chunk, { stream: true });
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
        if (m) resolve(Number(m[1]));
      }
      reject(new Error(`server exited:\n${log}`));
    })();
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

async function openSession(url: URL): Promise<{ client: Client; end: () => Promise<void> }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "bench-http", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    end: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

async function throughput(
  pid: number,
  url: URL,
  clients: number,
  sims: SimRouter[],
  durationMs: number,
): Promise<HttpThroughput> {
  const devices = sims.length;
  const sessions = await Promise.all(Array.from({ length: clients }, () => openSession(url)));
  const latencies: number[] = [];
  let errors = 0;
  const run = async (deadline: number, i: number, record: boolean) => {
    let n = i;
    while (performance.now() < deadline) {
      const device = `r${(n++ % devices) + 1}`;
      const t0 = performance.now();
      const r = await sessions[i].client.callTool({
        name: "router_list_ip_addresses",
        arguments: { device },
      });
      if (!record) continue;
      if (r.isError) errors++;
      else latencies.push(performance.now() - t0);
    }
  };
  const warm = performance.now() + Math.min(1000, durationMs / 4);
  await Promise.all(sessions.map((_, i) => run(warm, i, false)));
  const cpu0 = await cpuSeconds(pid);
  const self0 = await cpuSeconds(Deno.pid);
  const start = performance.now();
  await Promise.all(sessions.map((_, i) => run(start + durationMs, i, true)));
  const seconds = (performance.now() - start) / 1000;
  const serverCpu = (await cpuSeconds(pid)) - cpu0;
  const clientCpu = (await cpuSeconds(Deno.pid)) - self0;
  await Promise.all(sessions.map((s) => s.end()));
  latencies.sort((a, b) => a - b);
  const floor = await throughputFloor(sims, clients, durationMs);
  return {
    clients,
    devices,
    calls: latencies.length,
    errors,
    seconds: round(seconds),
    callsPerSecond: round(latencies.length / seconds, 1),
    medianMs: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
    p99Ms: round(quantile(latencies, 0.99)),
    serverCpuPercent: round((serverCpu / seconds) * 100, 0),
    clientCpuPercent: round((clientCpu / seconds) * 100, 0),
    floorCallsPerSecond: floor.callsPerSecond,
  };
}

async function sessionMemory(sim: SimRouter, sessions: number): Promise<HttpSessionMemory> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--v8-flags=--expose-gc",
      LEAK_FIXTURE,
      sim.host,
      String(sim.port),
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
  const deviceCount = opts.devices ?? 4;
  const durationMs = opts.durationMs ?? 5000;
  const sims = await startFleet(deviceCount);
  const server = await spawnServer(sims);
  try {
    const idle = await rssMb(server.pid);
    const opens: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const s = await openSession(server.url);
      opens.push(performance.now() - t0);
      await s.end();
    }
    opens.sort((a, b) => a - b);
    const results: HttpThroughput[] = [];
    let after32 = NaN;
    for (const clients of concurrency) {
      results.push(await throughput(server.pid, server.url, clients, sims, durationMs));
      if (clients === 32) after32 = await rssMb(server.pid);
    }
    const memory = await sessionMemory(sims[0], opts.memorySessions ?? 200);
    return {
      sessionOpenMedianMs: round(quantile(opens, 0.5)),
      throughput: results,
      serverRssMb: { idle, after32Sessions: after32 },
      memory,
    };
  } finally {
    await server.stop();
    await Promise.all(sims.map((s) => s.close()));
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await benchHttp(), null, 2));
}
