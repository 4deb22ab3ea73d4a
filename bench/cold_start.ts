/**
 * Figure 6: cold start. From spawning the server to the `initialize`
 * answer, and to the first tool result (`router_list_ip_addresses`, which
 * includes the first SSH connection), for `deno run` and, where one is
 * built for this machine, the compiled binary.
 *
 * @module
 */
import { startSimulator } from "../lib/sim/mod.ts";
import {
  compiledBinary,
  denoRun,
  type ServerCommand,
  singleRouterArgs,
  startStdioServer,
} from "./stdio_server.ts";
import { round, summarize, type Summary } from "./stats.ts";

/** Cold start of one way of running the server. */
export interface ColdStart {
  /** "deno run" or "binary". */
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

async function measureOne(
  command: ServerCommand,
  host: string,
  port: number,
  opts: ColdStartOptions,
): Promise<ColdStart> {
  const init: number[] = [];
  const first: number[] = [];
  const deadline = performance.now() + opts.budgetMs;
  for (let i = 0; i < opts.runs && (i === 0 || performance.now() < deadline); i++) {
    const server = await startStdioServer(singleRouterArgs(host, port), command);
    try {
      const t0 = performance.now();
      await server.call("router_list_ip_addresses");
      init.push(server.initializeMs);
      first.push(server.initializeMs + performance.now() - t0);
    } finally {
      await server.close();
    }
  }
  return {
    label: command.label,
    initialize: summarize(init),
    firstToolResult: summarize(first),
    samples: {
      initialize: init.map((v) => round(v, 1)),
      firstToolResult: first.map((v) => round(v, 1)),
    },
  };
}

/** Measure cold start for `deno run` and the compiled binary (or say it is not built). */
export async function measureColdStart(opts: ColdStartOptions): Promise<ColdStart[]> {
  const sim = await startSimulator();
  try {
    const out = [await measureOne(denoRun(), sim.host, sim.port, opts)];
    const binary = compiledBinary();
    if (binary) out.push(await measureOne(binary, sim.host, sim.port, opts));
    else out.push({ label: "binary", note: "not built (no dist/ binary for this architecture)" });
    return out;
  } finally {
    await sim.close();
  }
}
