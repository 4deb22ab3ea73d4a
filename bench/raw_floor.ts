/**
 * Floors of the fleet, throughput and connection memory figures: what a
 * bare ssh2 client in its own process (`raw_floor_child.ts`) gets from the
 * very simulated routers the figure used, measured in the same run. A
 * figure's goal below its floor cannot be met by any server on this
 * machine: the simulators and the SSH work under every tool call set it.
 *
 * @module
 */
import { runMeasured } from "./measured_child.ts";
import { round, summarize, type Summary } from "./stats.ts";

const CHILD = new URL("./raw_floor_child.ts", import.meta.url).pathname;

/** One cold fan-out of the floor and its warm rounds. */
export interface FanOutFloorRun {
  /** Every router connected and its command answered (ms). */
  cold: number;
  /** The floor client's CPU time for it (ms). */
  coldCpuMs: number;
  warm: number[];
  warmCpuMs: number[];
  /** The simulators' CPU time for the cold fan-out (ms, all their processes). */
  simulatorsCpuMs: number;
}

/** Raw ssh2 fan-out over `ports` (a fresh process: every connection cold), then `runs` warm rounds. */
export async function fanOutFloor(
  ports: number[],
  runs: number,
  simulators: number[],
): Promise<FanOutFloorRun> {
  const { result: r, cpuMs } = await runMeasured(
    CHILD,
    { mode: "fan-out", ports, runs, dialing: 32 },
    simulators,
  );
  return {
    cold: round(r.cold as number, 1),
    coldCpuMs: round(r.coldCpu as number, 1),
    warm: (r.warm as number[]).map((v) => round(v, 1)),
    warmCpuMs: (r.warmCpu as number[]).map((v) => round(v, 1)),
    simulatorsCpuMs: round(cpuMs.reduce((a, b) => a + b, 0), 1),
  };
}

/** The throughput floor at one concurrency. */
export interface ThroughputFloor {
  clients: number;
  callsPerSecond: number;
  /** CPU time per exec (ms): the floor client's, and the simulators'. */
  cpuMsPerCall: { client: number; simulators: number };
}

/** Raw ssh2 execs per second: `clients` at once over one connection per router. */
export async function throughputFloor(
  ports: number[],
  clients: number,
  ms: number,
  simulators: number[],
): Promise<ThroughputFloor> {
  const { result: r, cpuMs } = await runMeasured(
    CHILD,
    { mode: "throughput", ports, clients, ms },
    simulators,
  );
  const calls = r.calls as number;
  return {
    clients,
    callsPerSecond: round(r.callsPerSecond as number, 1),
    cpuMsPerCall: {
      client: round((r.cpuMs as number) / calls, 3),
      simulators: round(cpuMs.reduce((a, b) => a + b, 0) / calls, 3),
    },
  };
}

/** Resident memory of a bare ssh2 client holding `counts` connections, MiB. */
export async function memoryFloor(
  ports: number[],
  counts: number[],
  settleMs: number,
): Promise<{ counts: number[]; rssMb: number[] }> {
  const { result: r } = await runMeasured(
    CHILD,
    { mode: "memory", ports, counts, settleMs },
    [],
  );
  return { counts: r.counts as number[], rssMb: r.rssMb as number[] };
}

/** Summaries of the floor's cold and warm fan-outs over several runs. */
export function summarizeFloor(runs: FanOutFloorRun[]): { cold: Summary; warm: Summary } {
  return {
    cold: summarize(runs.map((r) => r.cold)),
    warm: summarize(runs.flatMap((r) => r.warm)),
  };
}
