/**
 * Figure 8: time and RSS to start 500 simulated routers, measured in a
 * fresh process each run (so the RSS is that of a process holding only the
 * simulators) by `lib/sim/bench_start.ts`. When that cannot find 500
 * consecutive free ports (EADDRINUSE: on a busy machine many ports sit in
 * TIME_WAIT), `bench/sim_start_child.ts` measures the same with ephemeral
 * ports, and the result says so.
 *
 * @module
 */
import { summarize, type Summary } from "./stats.ts";

const SIM_SCRIPT = new URL("../lib/sim/bench_start.ts", import.meta.url).pathname;
const OWN_SCRIPT = new URL("./sim_start_child.ts", import.meta.url).pathname;

/** Simulator start figures. */
export interface SimStart {
  routers: number;
  ms: Summary;
  rssMb: Summary;
  /** Which script measured each run. */
  scripts: string[];
}

async function runScript(
  script: string,
  routers: number,
): Promise<{ ok: true; ms: number; rssMb: number } | { ok: false; error: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", script, String(routers)],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
    signal: AbortSignal.timeout(60_000),
  }).output();
  if (!out.success) return { ok: false, error: new TextDecoder().decode(out.stderr) };
  const r = JSON.parse(new TextDecoder().decode(out.stdout)) as { ms: number; rssMb: number };
  return { ok: true, ...r };
}

/** Start `routers` simulators `runs` times, each run in its own process (60 s cap each). */
export async function measureSimStartup(routers: number, runs: number): Promise<SimStart> {
  const ms: number[] = [];
  const rss: number[] = [];
  const scripts: string[] = [];
  for (let i = 0; i < runs; i++) {
    let r = await runScript(SIM_SCRIPT, routers);
    let script = "lib/sim/bench_start.ts";
    if (!r.ok && r.error.includes("EADDRINUSE")) {
      r = await runScript(OWN_SCRIPT, routers);
      script = "bench/sim_start_child.ts (no 500 consecutive free ports)";
    }
    if (!r.ok) throw new Error(`${script} failed: ${r.error.split("\n")[0]}`);
    ms.push(r.ms);
    rss.push(r.rssMb);
    scripts.push(script);
  }
  return { routers, ms: summarize(ms), rssMb: summarize(rss), scripts: [...new Set(scripts)] };
}
