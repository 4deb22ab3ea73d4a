/**
 * Figures 1 to 3 on loopback, sampled in interleaved rounds so that load
 * from other processes falls on all of them alike:
 *
 * - floor: a raw ssh2 exec of the tool's command on a warm connection;
 * - pooled exec: the same command through our pool (pre-opened channel);
 * - stdio tool call: `router_list_ip_addresses` through the SDK client and
 *   the server process over stdio;
 * - connect-per-call: connect, login, exec, close for every command (the
 *   close not counted).
 *
 * @module
 */
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import { READ_COMMAND } from "./commands.ts";
import { benchTarget, connectPerCall } from "./connect_per_call.ts";
import { timed } from "./loop.ts";
import { openRawSsh } from "./raw_ssh.ts";
import { singleRouterArgs, startStdioServer } from "./stdio_server.ts";
import { ratio, round, summarize, type Summary } from "./stats.ts";

/** Raw samples and summaries of the loopback latency figures. */
export interface LatencyFigures {
  command: string;
  rounds: number;
  floor: Summary;
  pooledExec: Summary;
  stdioCall: Summary;
  connectPerCall: Summary;
  /** Median stdio tool call minus median floor. */
  overheadMs: number;
  /** Median connect-per-call divided by median stdio tool call. */
  pooledVsConnectPerCall: number;
  samples: Record<"floor" | "pooledExec" | "stdioCall" | "connectPerCall", number[]>;
}

/** Options: rounds of (3 floor, 3 pooled, 3 stdio, 1 connect-per-call), within a time budget. */
export interface LatencyOptions {
  rounds: number;
  budgetMs: number;
}

/** Measure figures 1 to 3. */
export async function measureLatency(opts: LatencyOptions): Promise<LatencyFigures> {
  const sim = await startSimulator();
  const target = benchTarget(sim.host, sim.port);
  const pool = new SshPool({ hostKeyPolicy: "off" });
  let raw: Awaited<ReturnType<typeof openRawSsh>> | undefined;
  let server: Awaited<ReturnType<typeof startStdioServer>> | undefined;
  try {
    raw = await openRawSsh(sim.host, sim.port);
    server = await startStdioServer(singleRouterArgs(sim.host, sim.port));
    const r = raw;
    const s = server;
    const kinds = {
      floor: () => r.exec(READ_COMMAND),
      pooledExec: () => pool.exec(target, READ_COMMAND, { idempotent: true, menu: "/ip/address" }),
      stdioCall: () => s.call("router_list_ip_addresses"),
    };
    // Same answer on every path, so they do the same work.
    // (The raw channel shows the router's CRLF line ends; the pool gives LF.)
    const lf = (text: string) => text.replace(/\r\n/g, "\n").trim();
    const expected = lf(await r.exec(READ_COMMAND));
    const pooled = await pool.exec(target, READ_COMMAND, { idempotent: true, menu: "bench" });
    if (lf(pooled.output) !== expected) throw new Error("pooled exec output differs from floor");
    if (lf((await connectPerCall(target, READ_COMMAND)).output) !== expected) {
      throw new Error("connect-per-call output differs from floor");
    }
    // Warm-up: JIT, the server's dialect detection, ajv schema compilation.
    for (let i = 0; i < 20; i++) {
      await kinds.floor();
      await kinds.pooledExec();
      await kinds.stdioCall();
    }
    await connectPerCall(target, READ_COMMAND);
    const samples: LatencyFigures["samples"] = {
      floor: [],
      pooledExec: [],
      stdioCall: [],
      connectPerCall: [],
    };
    const order = ["floor", "pooledExec", "stdioCall"] as const;
    const deadline = performance.now() + opts.budgetMs;
    let rounds = 0;
    while (rounds < opts.rounds && (rounds === 0 || performance.now() < deadline)) {
      for (let k = 0; k < order.length; k++) {
        const kind = order[(k + rounds) % order.length];
        for (let i = 0; i < 3; i++) samples[kind].push(await timed(kinds[kind]));
      }
      samples.connectPerCall.push((await connectPerCall(target, READ_COMMAND)).ms);
      rounds++;
    }
    const floor = summarize(samples.floor);
    const stdioCall = summarize(samples.stdioCall);
    const cpc = summarize(samples.connectPerCall);
    return {
      command: READ_COMMAND,
      rounds,
      floor,
      pooledExec: summarize(samples.pooledExec),
      stdioCall,
      connectPerCall: cpc,
      overheadMs: round(stdioCall.median - floor.median),
      pooledVsConnectPerCall: ratio(cpc.median, stdioCall.median),
      samples: {
        floor: samples.floor.map((v) => round(v, 3)),
        pooledExec: samples.pooledExec.map((v) => round(v, 3)),
        stdioCall: samples.stdioCall.map((v) => round(v, 3)),
        connectPerCall: samples.connectPerCall.map((v) => round(v, 3)),
      },
    };
  } finally {
    await server?.close();
    await raw?.close();
    await pool.close();
    await sim.close();
  }
}

if (import.meta.main) {
  const f = await measureLatency({ rounds: 50, budgetMs: 20_000 });
  console.log(JSON.stringify({ ...f, samples: undefined }, null, 2));
}
