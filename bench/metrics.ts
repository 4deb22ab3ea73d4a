/**
 * `deno run -A bench/metrics.ts [rounds] [--same]`: what the server's own metrics
 * cost a warm call. Two stdio servers in front of one simulated router (its
 * own process), every guard on and an audit log each, the same as the
 * latency benchmark's: one without metrics, one with `--metrics-port 0`
 * (so every hook is set: the guard chain's, the pool's, the audit log's).
 * Warm `router_list_ip_addresses` calls alternate between them in rounds
 * (which goes first alternates too), so load from other processes falls
 * on both alike; the figures are medians, and each server's CPU time per
 * call read from /proc. A scrape at the end checks the calls were counted.
 * `--same` runs both servers without metrics: the difference two identical
 * servers show.
 *
 * Then what a scrape costs: the text rendered for fleets of 100 to 2,000
 * connected devices and 100 to 300 tools called (in this process: the
 * time is the scraped server's event loop's).
 *
 * @module
 */
import { ServerMetrics } from "../lib/server/metrics.ts";
import { startSimProcess } from "./sim_process.ts";
import { singleRouterArgs, startStdioServer, type StdioServer } from "./stdio_server.ts";
import { timed } from "./loop.ts";
import { cpuMs } from "./proc.ts";
import { round, summarize } from "./stats.ts";

const TOOL = "router_list_ip_addresses";
const PER_ROUND = 5;

/** The metrics port a server logged (`metrics on http://127.0.0.1:PORT/metrics`). */
async function metricsPort(server: StdioServer): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const m = /metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(server.stderr());
    if (m) return Number(m[1]);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no metrics port in the log:\n${server.stderr()}`);
}

/** The median of `xs`, unrounded. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * Warm-call medians and CPU per call without and with metrics, over
 * `rounds` rounds. `same`: metrics off on both sides (how large the
 * difference between two identical servers is).
 */
export async function measureMetricsCost(rounds: number, same = false) {
  const sim = await startSimProcess();
  const servers: StdioServer[] = [];
  try {
    const plain = await startStdioServer(singleRouterArgs(sim.host, sim.port));
    servers.push(plain);
    const measured = await startStdioServer([
      ...singleRouterArgs(sim.host, sim.port),
      ...(same ? [] : ["--metrics-port", "0"]),
    ]);
    servers.push(measured);
    const port = same ? undefined : await metricsPort(measured);
    const kinds = { without: plain, with: measured };
    // Warm-up: JIT, dialect detection, schema compilation, the label children.
    for (let i = 0; i < 100; i++) {
      await plain.call(TOOL);
      await measured.call(TOOL);
    }
    const samples = { without: [] as number[], with: [] as number[] };
    const cpu = { without: 0, with: 0 };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ["without", "with"] as const : ["with", "without"] as const;
      for (const kind of order) {
        const server = kinds[kind];
        const cpu0 = await cpuMs(server.pid);
        for (let i = 0; i < PER_ROUND; i++) {
          samples[kind].push(await timed(() => server.call(TOOL)));
        }
        cpu[kind] += (await cpuMs(server.pid)) - cpu0;
      }
    }
    const text = port ? await (await fetch(`http://127.0.0.1:${port}/metrics`)).text() : "";
    const counted = Number(
      new RegExp(`^mcp_router_tool_calls_total\\{tool="${TOOL}",result="ok"\\} (\\d+)$`, "m")
        .exec(text)?.[1],
    );
    const without = summarize(samples.without);
    const withMetrics = summarize(samples.with);
    return {
      tool: TOOL,
      calls: samples.without.length,
      without,
      with: withMetrics,
      medianDifferenceMs: round(median(samples.with) - median(samples.without), 3),
      mediansMs: {
        without: round(median(samples.without), 3),
        with: round(median(samples.with), 3),
      },
      cpuMsPerCall: {
        without: round(cpu.without / samples.without.length, 3),
        with: round(cpu.with / samples.with.length, 3),
      },
      countedByMetrics: counted,
    };
  } finally {
    for (const s of servers) await s.close();
    await sim.close();
  }
}

/** Milliseconds and bytes of one scrape, for fleets of `devices` and `tools` called. */
export async function measureScrape(devices: number, tools: number) {
  const m = new ServerMetrics({ version: "bench", perDevice: true });
  for (let d = 0; d < devices; d++) {
    m.ssh.connecting(`router-${d}`);
    m.ssh.opened(`router-${d}`);
    if (d % 10 === 0) m.ssh.commandTimedOut(`router-${d}`);
  }
  for (let t = 0; t < tools; t++) {
    for (let i = 0; i < 10; i++) {
      m.calls.ended(`router_tool_${t}`, i % 5 ? "ok" : "routeros-error", i * 10);
    }
  }
  await m.text();
  const times: number[] = [];
  let text = "";
  for (let i = 0; i < 10; i++) times.push(await timed(async () => text = await m.text()));
  return {
    devices,
    tools,
    scrapeMs: summarize(times).median,
    bytes: text.length,
    samples: text.split("\n").filter((l) => l && !l.startsWith("#")).length,
  };
}

if (import.meta.main) {
  const rounds = Number(Deno.args[0] ?? 200);
  const same = Deno.args.includes("--same");
  console.log(JSON.stringify(await measureMetricsCost(rounds, same), null, 2));
  for (const [devices, tools] of [[100, 100], [500, 200], [2000, 300]]) {
    console.log(JSON.stringify(await measureScrape(devices, tools)));
  }
}
