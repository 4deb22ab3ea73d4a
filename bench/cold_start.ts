/**
 * Figure 6: cold start. From spawning the server to the `initialize`
 * answer, and to the first tool result (`router_list_ip_addresses`, which
 * includes the first SSH connection), for `deno run` and, where one is
 * built for this machine, the compiled binary; and, in the same
 * interleaved runs, from spawning the hello-world server
 * (`bench/hello_server.ts`, same SDK and runtime) to its `initialize`
 * answer. The router is a simulator in its own process.
 *
 * @module
 */
import { startSimProcess } from "./sim_process.ts";
import {
  compiledBinary,
  denoRun,
  helloServer,
  type ServerCommand,
  singleRouterArgs,
  startStdioServer,
} from "./stdio_server.ts";
import { round, summarize, type Summary } from "./stats.ts";

/** Cold start of one way of running the server. */
export interface ColdStart {
  /** "deno run", "hello-world" or "binary". */
  label: string;
  /** Set when there is nothing to measure (e.g. no binary in dist/). */
  note?: string;
  initialize?: Summary;
  firstToolResult?: Summary;
  samples?: { initialize: number[]; firstToolResult: number[] };
}

/** Options: runs per command, within a time budget. */
export interface ColdStartOptions {
  runs: number;
  budgetMs: number;
}

/** Spawn to `initialize`, and to the first tool result when `tool` is given. */
async function startOnce(
  command: ServerCommand,
  args: string[],
  tool?: string,
): Promise<{ init: number; first?: number }> {
  const server = await startStdioServer(args, command);
  try {
    if (!tool) return { init: server.initializeMs };
    const t0 = performance.now();
    await server.call(tool);
    return { init: server.initializeMs, first: server.initializeMs + performance.now() - t0 };
  } finally {
    await server.close();
  }
}

function summary(label: string, init: number[], first: number[]): ColdStart {
  return {
    label,
    initialize: summarize(init),
    ...(first.length ? { firstToolResult: summarize(first) } : {}),
    samples: {
      initialize: init.map((v) => round(v, 1)),
      firstToolResult: first.map((v) => round(v, 1)),
    },
  };
}

/**
 * Measure cold start for `deno run`, the hello-world server (interleaved
 * with it) and the compiled binary (or say it is not built).
 */
export async function measureColdStart(opts: ColdStartOptions): Promise<ColdStart[]> {
  const sim = await startSimProcess();
  try {
    const args = singleRouterArgs(sim.host, sim.port);
    const ours = { init: [] as number[], first: [] as number[] };
    const hello: number[] = [];
    const deadline = performance.now() + opts.budgetMs;
    for (let i = 0; i < opts.runs && (i === 0 || performance.now() < deadline); i++) {
      // Alternate which starts first, so neither always meets a warmer machine.
      const runOurs = async () => {
        const r = await startOnce(denoRun(), args, "router_list_ip_addresses");
        ours.init.push(r.init);
        ours.first.push(r.first!);
      };
      const runHello = async () => hello.push((await startOnce(helloServer(), [])).init);
      if (i % 2) {
        await runHello();
        await runOurs();
      } else {
        await runOurs();
        await runHello();
      }
    }
    const out = [summary("deno run", ours.init, ours.first), summary("hello-world", hello, [])];
    const binary = compiledBinary();
    if (binary) {
      const init: number[] = [];
      const first: number[] = [];
      for (let i = 0; i < Math.min(opts.runs, 5); i++) {
        const r = await startOnce(binary, args, "router_list_ip_addresses");
        init.push(r.init);
        first.push(r.first!);
      }
      out.push(summary("binary", init, first));
    } else {
      out.push({ label: "binary", note: "not built (no dist/ binary for this architecture)" });
    }
    return out;
  } finally {
    await sim.close();
  }
}
