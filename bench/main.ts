/**
 * `deno task bench`: every figure of the benchmark in one run against the
 * simulator on loopback. Prints the tables (Markdown) to stdout, writes
 * `bench/results.json`, `docs/benchmarks.md` and `docs/benchmarks.svg`, and
 * reports each goal as met or not met without failing on it.
 *
 * `--quick` runs a reduced version (under a minute) and writes nothing: it
 * keeps the benchmark from rotting in CI without replacing the published
 * figures. `--only=http,fleet` measures those figures again (a row a busy
 * machine disturbed) and merges them into the published run, which then
 * names them with the re-run's date and load; `--render` writes the page
 * and chart again from `bench/results.json` without measuring. The exit code is non-zero only when a figure could not be
 * measured at all.
 *
 * @module
 */
import { measureColdStart } from "./cold_start.ts";
import { measureFanOut, measureFleetMemory } from "./fleet.ts";
import { evaluateGoals } from "./goals.ts";
import { benchHttp } from "./http.ts";
import { measureLatency } from "./latency.ts";
import { measureMemory } from "./memory.ts";
import { profileCalls } from "./profile.ts";
import { loadAverage, machineFacts } from "./machine.ts";
import {
  formatMarkdown,
  headline,
  OUTPUTS,
  renderOutputs,
  tables,
  writeOutputs,
} from "./report.ts";
import type { Figures, Results } from "./results.ts";
import { measureSimStartup } from "./sim_start.ts";
import { measureConnect, measureParallelConnect } from "./ssh.ts";
import { startSimFleet } from "./sim_process.ts";
import { round } from "./stats.ts";
import { measureToolList } from "./tool_list.ts";
import { measureWan } from "./wan.ts";

/** Sizes of one run. */
const PLANS = {
  full: {
    watchdogMs: 25 * 60_000,
    latency: { rounds: 500, budgetMs: 60_000 },
    wan: { rttMs: 50, samples: 50, cpcSamples: 20, budgetMs: 30_000, fallback: true },
    coldStart: { runs: 20, budgetMs: 60_000 },
    simStartRuns: 3,
    sshConnectSamples: 20,
    parallelDevices: 200,
    fleet: {
      routers: 2000,
      processes: 4,
      sizes: [500, 2000],
      coldRuns: 6,
      warmRuns: 24,
      budgetMs: 150_000,
      memoryCounts: [500, 2000],
      settleMs: 3500,
    },
    // 100 sessions: each SDK client holds two connections, and one address may hold 256.
    http: { concurrency: [1, 8, 32], durationMs: 5000, memorySessions: 100 },
    memory: { runs: 3, calls: 10_000, settleMs: 3000 },
    profileCalls: 3000,
  },
  quick: {
    watchdogMs: 170_000,
    latency: { rounds: 40, budgetMs: 5_000 },
    wan: { rttMs: 50, samples: 4, cpcSamples: 1, budgetMs: 3_000, fallback: true },
    coldStart: { runs: 2, budgetMs: 5_000 },
    simStartRuns: 1,
    sshConnectSamples: 5,
    parallelDevices: 200,
    fleet: {
      routers: 500,
      processes: 2,
      sizes: [100, 500],
      coldRuns: 1,
      warmRuns: 2,
      budgetMs: 20_000,
      memoryCounts: [100, 500],
      settleMs: 1500,
    },
    http: { concurrency: [1, 32], durationMs: 800, memorySessions: 20 },
    memory: { runs: 1, calls: 300, settleMs: 1500 },
    profileCalls: 300,
  },
};

function progress(message: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`bench: ${message}\n`));
}

/** The figures a run measures, by the name `--only` takes, in the order they run. */
const FIGURE_NAMES = [
  "simStart",
  "latency",
  "wan",
  "coldStart",
  "memory",
  "profile",
  "ssh",
  "fleet",
  "http",
  "toolList",
] as const;
type FigureName = typeof FIGURE_NAMES[number];

/** A mistake in the command line: one sentence and exit code 2. */
class UsageError extends Error {}

/** `--only=http,fleet`: the figures to measure again (every one when absent). */
function onlyFigures(args: string[]): Set<FigureName> | undefined {
  const arg = args.find((a) => a.startsWith("--only="));
  if (!arg) return undefined;
  const names = arg.slice("--only=".length).split(",").filter(Boolean);
  const unknown = names.filter((name) => !(FIGURE_NAMES as readonly string[]).includes(name));
  if (unknown.length || names.length === 0) {
    throw new UsageError(
      `--only: unknown figure ${unknown.join(", ") || "(none given)"}; ` +
        `one or more of ${FIGURE_NAMES.join(", ")}`,
    );
  }
  return new Set(names as FigureName[]);
}

/** The published run (`bench/results.json`), for `--only` and `--render`. */
async function publishedRun(): Promise<Results> {
  return JSON.parse(await Deno.readTextFile(OUTPUTS.json)) as Results;
}

async function main(): Promise<number> {
  if (Deno.args.includes("--render")) {
    // The page and chart again from the published figures (after a change of the report's text).
    const published = await publishedRun();
    await writeOutputs({ ...published, goals: evaluateGoals(published.figures) });
    progress("wrote docs/benchmarks.md and docs/benchmarks.svg from bench/results.json");
    return 0;
  }
  const mode = Deno.args.includes("--quick") ? "quick" : "full";
  const only = onlyFigures(Deno.args);
  if (only && mode === "quick") {
    throw new Error("--only re-runs figures of a full run, not --quick");
  }
  const plan = PLANS[mode];
  const watchdog = setTimeout(() => {
    progress(`gave up after ${plan.watchdogMs / 1000} s (watchdog)`);
    Deno.exit(3);
  }, plan.watchdogMs);
  Deno.unrefTimer(watchdog);
  const started = performance.now();
  const machine = machineFacts();
  progress(`${mode} run on ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAtStart}`);
  const figures: Figures = {};
  const errors: Results["errors"] = [];
  /** The steps this run measured (a re-run's replace the published run's errors). */
  const measured: string[] = [];
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    measured.push(name);
    const t0 = performance.now();
    progress(`${name}…`);
    try {
      // One retry when a port was taken: other processes share this machine.
      const r = await fn().catch((err) => {
        if (!String(err?.message).includes("EADDRINUSE")) throw err;
        progress(`${name}: a port was in use (${err.message}); trying once more`);
        return fn();
      });
      progress(`${name} done in ${round((performance.now() - t0) / 1000, 1)} s`);
      return r;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      progress(`${name} FAILED: ${message}`);
      errors.push({ figure: name, message });
      return undefined;
    }
  };
  const fleet = plan.fleet;
  const runs: Record<FigureName, () => Promise<void>> = {
    simStart: async () => {
      figures.simStart = await step(
        "8. simulator start (500 routers)",
        () => measureSimStartup(500, plan.simStartRuns),
      );
    },
    latency: async () => {
      figures.latency = await step(
        "1-3. floor, stdio tool call, connect-per-call",
        () => measureLatency(plan.latency),
      );
    },
    wan: async () => {
      figures.wan = await step("9. WAN (50 ms round trip)", () => measureWan(plan.wan));
    },
    coldStart: async () => {
      figures.coldStart = await step("6. cold start", () => measureColdStart(plan.coldStart));
    },
    memory: async () => {
      figures.memory = await step(
        `7a. idle memory, and after ${plan.memory.calls} calls`,
        () => measureMemory(plan.memory),
      );
    },
    profile: async () => {
      figures.profile = await step(
        `10. CPU profile of ${plan.profileCalls} warm calls`,
        async () => {
          const p = await profileCalls(plan.profileCalls, "router_list_ip_addresses");
          return { calls: plan.profileCalls, summary: p.summary };
        },
      );
    },
    ssh: async () => {
      figures.ssh = await step("SSH layer (bench/ssh.ts)", async () => ({
        connect: await measureConnect(plan.sshConnectSamples),
        parallelConnect: await measureParallelConnect(plan.parallelDevices, 32),
      }));
    },
    fleet: async () => {
      await step(`5 and 7. fleet fan-out and memory (${fleet.routers} routers)`, async () => {
        const sims = await startSimFleet(fleet.routers, fleet.processes);
        try {
          figures.fleetMemory = await step(
            `7. memory with 0, ${fleet.memoryCounts.join(", ")} connections`,
            () => measureFleetMemory(sims, fleet.memoryCounts, fleet.settleMs),
          );
          figures.fanOut = await step(
            `5. fan-out over ${fleet.sizes.join(" and ")} routers`,
            () => measureFanOut(sims, fleet),
          );
        } finally {
          await sims.close();
        }
      });
    },
    http: async () => {
      figures.http = await step("4. throughput over streamable-http", () => benchHttp(plan.http));
    },
    toolList: async () => {
      figures.toolList = await step("10. tools/list size", () => measureToolList());
    },
  };
  for (const name of FIGURE_NAMES) {
    if (!only || only.has(name)) await runs[name]();
  }

  let results: Results = {
    mode,
    machine,
    loadAtEnd: loadAverage(),
    durationS: round((performance.now() - started) / 1000, 1),
    figures,
    goals: evaluateGoals(figures),
    errors,
  };
  if (only) {
    // The other figures stay those of the published run; the page names what was measured again.
    const published = await publishedRun();
    const merged = { ...published.figures, ...figures };
    results = {
      ...published,
      figures: merged,
      goals: evaluateGoals(merged),
      errors: [
        ...published.errors.filter((e) => !measured.includes(e.figure)),
        ...errors,
      ],
      reruns: [...(published.reruns ?? []), {
        figures: [...only],
        date: machine.date,
        loadAtStart: machine.loadAtStart,
        loadAtEnd: results.loadAtEnd,
        durationS: results.durationS,
      }],
    };
  }
  console.log(await formatMarkdown(tables(results)));
  console.log(`Headline: ${headline(results)}`);
  if (mode === "full") {
    await writeOutputs(results);
    progress("wrote bench/results.json, docs/benchmarks.md, docs/benchmarks.svg");
  } else {
    // Render everything anyway, so a quick run catches a broken report.
    renderOutputs(results);
    progress("quick run: nothing written (the published figures come from a full run)");
  }
  clearTimeout(watchdog);
  return errors.length ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(
    await main().catch((err) => {
      if (!(err instanceof UsageError)) throw err;
      console.error(`bench: ${err.message}`);
      return 2;
    }),
  );
}
