/**
 * Figures 5 and 7: `router_fleet_query` fan-out over inventories of
 * simulated routers (500 and 2,000 in the full run), cold (a fresh server:
 * every connection opened during the call) and warm (the same server
 * again), each beside its floor, and the server's resident memory by open
 * router connections beside a bare ssh2 client's.
 *
 * The routers run in simulator processes of their own (several: one
 * process serving 2,000 would be the bound). Cold runs alternate with the
 * floor's (a bare ssh2 client in a fresh process, `raw_floor.ts`), so that
 * load from elsewhere falls on both alike; the CPU time of the server, the
 * floor client and the simulators is read for each fan-out.
 *
 * @module
 */
import { timed } from "./loop.ts";
import { cpuMs } from "./proc.ts";
import { fanOutFloor, type FanOutFloorRun, memoryFloor } from "./raw_floor.ts";
import type { SimFleet } from "./sim_process.ts";
import { SETTLE_MS } from "./memory.ts";
import { startStdioServer, type StdioServer } from "./stdio_server.ts";
import { round, summarize, type Summary } from "./stats.ts";

/** Fan-out over one inventory size. */
export interface FanOut {
  routers: number;
  cold: Summary;
  warm: Summary;
  /** Devices that answered with an error, summed over all calls. */
  failures: number;
  /** The first error text seen, if any. */
  firstError?: string;
  /** Raw ssh2 from a process of its own on the same routers, alternating with ours. */
  floor: { cold: Summary; warm: Summary };
  /** Ours ÷ the floor, medians (two decimals). */
  ratio: { cold: number; warm: number };
  /** CPU time (ms, medians) per fan-out: the server's and the floor client's, cold and warm. */
  cpuMs: {
    server: { cold: number; warm: number };
    floor: { cold: number; warm: number };
    /** The simulators' (all their processes), per cold fan-out: ours, and the floor's. */
    simulatorsCold: { ours: number; floor: number };
  };
  samples: { cold: number[]; warm: number[]; floorCold: number[]; floorWarm: number[] };
}

/** Resident memory by open router connections: the server's and a bare ssh2 client's. */
export interface FleetMemory {
  routers: number;
  /** Connections open when each reading was taken (the first is 0 for the server). */
  connections: number[];
  /** The server's RSS (MiB) at each. */
  rssMb: number[];
  /** RSS slope between the last two readings, KiB per connection. */
  perConnectionKb: number;
  /** The floor: a bare ssh2 client process holding the same connections (from the second reading on). */
  floor: { connections: number[]; rssMb: number[]; perConnectionKb: number };
}

/** Options: sizes and runs. */
export interface FleetOptions {
  sizes: number[];
  coldRuns: number;
  warmRuns: number;
  budgetMs: number;
}

async function writeInventory(ports: number[]): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "bench-inventory-", suffix: ".json" });
  const devices = ports.map((port, i) => ({
    title: `r${i + 1}`,
    host: "127.0.0.1",
    port,
    username: "admin",
  }));
  await Deno.writeTextFile(path, JSON.stringify(devices));
  return path;
}

function fleetServer(inventory: string): Promise<StdioServer> {
  return startStdioServer([
    "--inventory-file",
    inventory,
    "--host-key-policy",
    "off",
    "--toolsets",
    "all",
    "--log-level",
    "error",
  ]);
}

interface FleetAnswer {
  succeeded: number;
  failed: number;
  results: { ok: boolean; error?: string }[];
}

/** One fleet query (over `devices`, or the whole inventory); how many devices failed. */
async function query(
  server: StdioServer,
  devices?: string[],
): Promise<{ failed: number; error?: string }> {
  const args: Record<string, unknown> = { tool: "router_list_ip_addresses" };
  if (devices) args.devices = devices;
  const r = await server.call("router_fleet_query", args, 300_000);
  const a = r.structuredContent as unknown as FleetAnswer;
  return { failed: a.failed, error: a.results.find((x) => !x.ok)?.error };
}

const sumCpu = async (pids: number[]) =>
  (await Promise.all(pids.map((p) => cpuMs(p)))).reduce((a, b) => a + b, 0);

const median = (v: number[]) => summarize(v).median;

/** Fan-out cold and warm over the first `n` routers, alternating with the floor. */
async function fanOut(fleet: SimFleet, n: number, opts: FleetOptions): Promise<FanOut> {
  const ports = fleet.ports.slice(0, n);
  const sims = fleet.processes.map((p) => p.pid);
  const inventory = await writeInventory(ports);
  const cold: number[] = [];
  const warm: number[] = [];
  const cpu = { cold: [] as number[], warm: [] as number[], simsCold: [] as number[] };
  const floors: FanOutFloorRun[] = [];
  let failures = 0;
  let firstError: string | undefined;
  const note = (r: { failed: number; error?: string }) => {
    failures += r.failed;
    firstError ??= r.error;
  };
  const warmRuns = Math.max(1, Math.ceil(opts.warmRuns / opts.coldRuns));
  const ours = async () => {
    const server = await fleetServer(inventory);
    try {
      let answer = { failed: 0 } as { failed: number; error?: string };
      const c0 = await cpuMs(server.pid);
      const s0 = await sumCpu(sims);
      cold.push(await timed(async () => answer = await query(server)));
      cpu.simsCold.push((await sumCpu(sims)) - s0);
      cpu.cold.push((await cpuMs(server.pid)) - c0);
      note(answer);
      for (let i = 0; i < warmRuns; i++) {
        const w0 = await cpuMs(server.pid);
        warm.push(await timed(async () => answer = await query(server)));
        cpu.warm.push((await cpuMs(server.pid)) - w0);
        note(answer);
      }
    } finally {
      await server.close();
    }
  };
  const floor = async () => floors.push(await fanOutFloor(ports, warmRuns, sims));
  const deadline = performance.now() + opts.budgetMs;
  try {
    for (let run = 0; run < opts.coldRuns; run++) {
      if (run > 0 && performance.now() > deadline) break;
      // Alternate which goes first.
      for (const step of run % 2 ? [floor, ours] : [ours, floor]) await step();
    }
  } finally {
    await Deno.remove(inventory).catch(() => {});
  }
  const floorCold = floors.map((f) => f.cold);
  const floorWarm = floors.flatMap((f) => f.warm);
  const r1 = (v: number) => round(v, 1);
  return {
    routers: n,
    cold: summarize(cold),
    warm: summarize(warm),
    failures,
    firstError,
    floor: { cold: summarize(floorCold), warm: summarize(floorWarm) },
    ratio: {
      cold: round(median(cold) / median(floorCold)),
      warm: round(median(warm) / median(floorWarm)),
    },
    cpuMs: {
      server: { cold: r1(median(cpu.cold)), warm: r1(median(cpu.warm)) },
      floor: {
        cold: r1(median(floors.map((f) => f.coldCpuMs))),
        warm: r1(median(floors.flatMap((f) => f.warmCpuMs))),
      },
      simulatorsCold: {
        ours: r1(median(cpu.simsCold)),
        floor: r1(median(floors.map((f) => f.simulatorsCpuMs))),
      },
    },
    samples: {
      cold: cold.map(r1),
      warm: warm.map(r1),
      floorCold: floorCold.map(r1),
      floorWarm: floorWarm.map(r1),
    },
  };
}

/** Fan-out for every size in `opts.sizes` (each at most the fleet's). */
export async function measureFanOut(fleet: SimFleet, opts: FleetOptions): Promise<FanOut[]> {
  const out: FanOut[] = [];
  for (const n of opts.sizes) out.push(await fanOut(fleet, Math.min(n, fleet.ports.length), opts));
  return out;
}

/** KiB per connection between two readings (MiB at `a` and `b` connections). */
function slope(connections: number[], rss: number[]): number {
  const k = connections.length - 1;
  return round(((rss[k] - rss[k - 1]) * 1024) / (connections[k] - connections[k - 1]), 1);
}

/**
 * RSS of one server over the fleet: idle after start (no connection), then
 * idle after a query on the first `counts[0]` routers, and so on; the last
 * count is the whole fleet. Beside it, a bare ssh2 client holding as many.
 * "Idle" is `settleMs` after the last request (the server gives its heap
 * back once idle: `lib/server/idle_gc.ts`).
 */
export async function measureFleetMemory(
  fleet: SimFleet,
  counts: number[],
  settleMs = SETTLE_MS + 500,
): Promise<FleetMemory> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));
  const inventory = await writeInventory(fleet.ports);
  try {
    const server = await fleetServer(inventory);
    const rssMb: number[] = [];
    try {
      await server.call("router_list_devices");
      await settle();
      rssMb.push(await server.rssMb());
      for (const count of counts) {
        const names = count >= fleet.ports.length
          ? undefined
          : fleet.ports.slice(0, count).map((_, i) => `r${i + 1}`);
        const r = await query(server, names);
        if (r.failed) throw new Error(`fleet memory: ${r.failed} devices failed: ${r.error}`);
        await settle();
        rssMb.push(await server.rssMb());
      }
    } finally {
      await server.close();
    }
    const connections = [0, ...counts];
    const floor = await memoryFloor(fleet.ports, counts, settleMs);
    return {
      routers: fleet.ports.length,
      connections,
      rssMb,
      perConnectionKb: slope(connections, rssMb),
      floor: {
        connections: floor.counts,
        rssMb: floor.rssMb,
        perConnectionKb: slope(floor.counts, floor.rssMb),
      },
    };
  } finally {
    await Deno.remove(inventory).catch(() => {});
  }
}
