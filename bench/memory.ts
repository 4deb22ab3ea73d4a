/**
 * Figure 7a: the server's resident memory when idle, against the
 * hello-world server (`bench/hello_server.ts`, same SDK and runtime):
 *
 * - after `initialize` and `tools/list`, with every toolset listed (the
 *   benchmark's setting) and with the default selection;
 * - after `calls` warm calls of `router_list_ip_addresses`, against the
 *   same server's idle figure before them.
 *
 * "Idle" is read {@linkcode SETTLE_MS} after the last request: a server
 * that has just answered is still holding that work's garbage, and ours
 * gives the heap back once it is idle (`lib/server/idle_gc.ts`). The
 * router is a simulator in its own process.
 *
 * @module
 */
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { startSimProcess } from "./sim_process.ts";
import { helloServer, singleRouterArgs, startStdioServer } from "./stdio_server.ts";
import { round } from "./stats.ts";

/** How long after the last request the idle RSS is read (ms). */
export const SETTLE_MS = 3000;

/** Idle RSS figures, MiB. */
export interface MemoryFigures {
  /** After initialize + tools/list, idle. */
  idle: { ours: number; oursDefaultToolsets: number; hello: number };
  /** Ours after `calls` warm tool calls, idle, and the same server before them. */
  afterCalls: { calls: number; before: number; after: number; seconds: number };
}

let settleMs = SETTLE_MS;
const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));

/** Idle RSS after initialize + tools/list of one server start. */
async function idleAfterList(args: string[], hello = false): Promise<number> {
  const server = await startStdioServer(args, hello ? helloServer() : undefined);
  try {
    await listAllTools(server.client);
    await settle();
    return await server.rssMb();
  } finally {
    await server.close();
  }
}

/** Measure idle memory (median of `runs` starts each) and memory after `calls` calls. */
export async function measureMemory(
  opts: { runs: number; calls: number; settleMs?: number },
): Promise<MemoryFigures> {
  settleMs = opts.settleMs ?? SETTLE_MS;
  const sim = await startSimProcess();
  try {
    const all = singleRouterArgs(sim.host, sim.port);
    const defaults = all.filter((a, i) => a !== "--toolsets" && all[i - 1] !== "--toolsets");
    const samples = { ours: [] as number[], oursDefault: [] as number[], hello: [] as number[] };
    for (let i = 0; i < opts.runs; i++) {
      samples.ours.push(await idleAfterList(all));
      samples.oursDefault.push(await idleAfterList(defaults));
      samples.hello.push(await idleAfterList([], true));
    }
    const server = await startStdioServer(all);
    try {
      await listAllTools(server.client);
      await settle();
      const before = await server.rssMb();
      const t0 = performance.now();
      for (let i = 0; i < opts.calls; i++) await server.call("router_list_ip_addresses");
      const seconds = (performance.now() - t0) / 1000;
      await settle();
      return {
        idle: {
          ours: median(samples.ours),
          oursDefaultToolsets: median(samples.oursDefault),
          hello: median(samples.hello),
        },
        afterCalls: {
          calls: opts.calls,
          before,
          after: await server.rssMb(),
          seconds: round(seconds, 1),
        },
      };
    } finally {
      await server.close();
    }
  } finally {
    await sim.close();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (import.meta.main) {
  console.log(
    JSON.stringify(
      await measureMemory({
        runs: Number(Deno.args[0] ?? 3),
        calls: Number(Deno.args[1] ?? 10_000),
      }),
      null,
      2,
    ),
  );
}
