/**
 * Floors of the fleet fan-out and the HTTP throughput figures: what a bare
 * ssh2 client in its own process (`raw_floor_child.ts`) gets from the very
 * simulated routers the figure used, measured in the same run. A figure's
 * goal below its floor cannot be met by any server on this machine: the
 * simulators and the SSH work under every tool call set it.
 *
 * @module
 */
import type { SimRouter } from "../lib/sim/mod.ts";
import { round, summarize, type Summary } from "./stats.ts";

const CHILD = new URL("./raw_floor_child.ts", import.meta.url).pathname;

async function runChild(job: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", CHILD, JSON.stringify(job)],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || !text) {
    throw new Error(
      `raw ssh2 floor failed: ${new TextDecoder().decode(out.stderr).slice(0, 2000)}`,
    );
  }
  return JSON.parse(text.split("\n").pop()!);
}

/** The fan-out floor over `sims`: cold (connect all, then exec) and warm. */
export interface FanOutFloor {
  routers: number;
  cold: number;
  warm: Summary;
}

/** Raw ssh2 fan-out over `sims`, `runs` warm rounds, at most 32 dialing (as the server). */
export async function fanOutFloor(sims: SimRouter[], runs: number): Promise<FanOutFloor> {
  const r = await runChild({ mode: "fan-out", ports: sims.map((s) => s.port), runs, dialing: 32 });
  return {
    routers: sims.length,
    cold: round(r.cold as number, 1),
    warm: summarize(r.warm as number[]),
  };
}

/** Raw ssh2 execs per second: `clients` at once over one connection per sim. */
export async function throughputFloor(
  sims: SimRouter[],
  clients: number,
  ms: number,
): Promise<{ clients: number; callsPerSecond: number }> {
  const r = await runChild({ mode: "throughput", ports: sims.map((s) => s.port), clients, ms });
  return { clients, callsPerSecond: round(r.callsPerSecond as number, 1) };
}
