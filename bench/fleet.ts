/**
 * Figures 5 and 7: `router_fleet_query` fan-out over inventories of 100 and
 * 500 simulated routers, cold (a fresh server: every connection opened
 * during the call) and warm (the same server again), and the server's RSS
 * with 0, 100 and 500 open device connections.
 *
 * @module
 */
import type { SimRouter } from "../lib/sim/mod.ts";
import { timed } from "./loop.ts";
import { cpuMs } from "./proc.ts";
import { type FanOutFloor, fanOutFloor } from "./raw_floor.ts";
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
  /** Raw ssh2 from a process of its own on the same routers, in the same run (`raw_floor.ts`). */
  floor: FanOutFloor;
  /**
   * The server's own CPU time (ms, all its threads) per warm fan-out, median:
   * what the fan-out costs the server with the routers' work taken out (here
   * the simulated routers share the machine's 2 cores with it).
   */
  serverCpuMsWarm: number;
  samples: { cold: number[]; warm: number[] };
}

/** Server RSS (MiB) by open device connections. */
export interface FleetMemory {
  routers: number;
  rssMb: { connections0: number; connections100: number; connections500: number };
}

/** Options: runs per size. */
export interface FleetOptions {
  sizes: number[];
  coldRuns: number;
  warmRuns: number;
  budgetMs: number;
}

async function writeInventory(sims: SimRouter[]): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "bench-inventory-", suffix: ".json" });
  const devices = sims.map((s, i) => ({
    title: `r${i + 1}`,
    host: s.host,
    port: s.port,
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

/** One fleet query; returns how many devices failed and the first error. */
async function query(
  server: StdioServer,
  devices?: string[],
): Promise<{ failed: number; error?: string }> {
  const args: Record<string, unknown> = { tool: "router_list_ip_addresses" };
  if (devices) args.devices = devices;
  const r = await server.call("router_fleet_query", args, 120_000);
  const a = r.structuredContent as unknown as FleetAnswer;
  return { failed: a.failed, error: a.results.find((x) => !x.ok)?.error };
}

/** Fan-out cold and warm over the first `n` of `sims`. */
async function fanOut(sims: SimRouter[], n: number, opts: FleetOptions): Promise<FanOut> {
  const inventory = await writeInventory(sims.slice(0, n));
  const cold: number[] = [];
  const warm: number[] = [];
  const warmCpu: number[] = [];
  let failures = 0;
  let firstError: string | undefined;
  const note = (r: { failed: number; error?: string }) => {
    failures += r.failed;
    firstError ??= r.error;
  };
  const deadline = performance.now() + opts.budgetMs;
  try {
    for (let run = 0; run < opts.coldRuns; run++) {
      if (run > 0 && performance.now() > deadline) break;
      const server = await fleetServer(inventory);
      try {
        let answer = { failed: 0 } as { failed: number; error?: string };
        cold.push(await timed(async () => answer = await query(server)));
        note(answer);
        const warmRuns = Math.ceil(opts.warmRuns / opts.coldRuns);
        for (let i = 0; i < warmRuns && (i === 0 || performance.now() < deadline); i++) {
          const cpu0 = await cpuMs(server.pid);
          warm.push(await timed(async () => answer = await query(server)));
          warmCpu.push((await cpuMs(server.pid)) - cpu0);
          note(answer);
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await Deno.remove(inventory).catch(() => {});
  }
  const floor = await fanOutFloor(sims.slice(0, n), Math.max(opts.warmRuns, 3));
  return {
    routers: n,
    floor,
    serverCpuMsWarm: summarize(warmCpu).median,
    cold: summarize(cold),
    warm: summarize(warm),
    failures,
    firstError,
    samples: { cold: cold.map((v) => round(v, 1)), warm: warm.map((v) => round(v, 1)) },
  };
}

/** Fan-out for every size in `opts.sizes` (each at most `sims.length`). */
export async function measureFanOut(sims: SimRouter[], opts: FleetOptions): Promise<FanOut[]> {
  const out: FanOut[] = [];
  for (const n of opts.sizes) out.push(await fanOut(sims, Math.min(n, sims.length), opts));
  return out;
}

/**
 * RSS of one server over all `sims`: after start (no connection), after a
 * query on the first 100 devices, and after a query on all of them.
 */
export async function measureFleetMemory(sims: SimRouter[]): Promise<FleetMemory> {
  const inventory = await writeInventory(sims);
  try {
    const server = await fleetServer(inventory);
    try {
      await server.call("router_list_devices");
      const connections0 = await server.rssMb();
      const first = sims.slice(0, Math.min(100, sims.length)).map((_, i) => `r${i + 1}`);
      const a = await query(server, first);
      const connections100 = await server.rssMb();
      const b = await query(server);
      const connections500 = await server.rssMb();
      if (a.failed || b.failed) {
        throw new Error(
          `fleet memory: ${a.failed + b.failed} devices failed: ${a.error ?? b.error}`,
        );
      }
      return { routers: sims.length, rssMb: { connections0, connections100, connections500 } };
    } finally {
      await server.close();
    }
  } finally {
    await Deno.remove(inventory).catch(() => {});
  }
}
