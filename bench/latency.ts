/**
 * Figures 1 to 3 on loopback, sampled in interleaved rounds so that load
 * from other processes falls on all of them alike:
 *
 * - floor: a raw ssh2 exec of the tool's command on a warm connection;
 * - pooled exec: the same command through our pool (pre-opened channel);
 * - stdio tool call: `router_list_ip_addresses` through the SDK client and
 *   the server process over stdio (every guard on, default log level);
 * - hello-world call: the `hello` tool of `bench/hello_server.ts`, what an
 *   MCP round trip over stdio costs on this SDK and runtime with no work;
 * - connect-per-call: connect, login, exec, close for every command (the
 *   close not counted).
 *
 * The router is a simulator in its own process (`bench/sim_process.ts`).
 * The server's CPU time per call (user + system, all its threads) is read
 * from /proc around the stdio samples: it varies less with the machine's
 * load than the wall time does.
 *
 * @module
 */
import { SshPool } from "../lib/ssh/pool.ts";
import { READ_COMMAND } from "./commands.ts";
import { benchTarget, connectPerCall } from "./connect_per_call.ts";
import { timed } from "./loop.ts";
import { cpuMs } from "./proc.ts";
import { openRawSsh } from "./raw_ssh.ts";
import { startSimProcess } from "./sim_process.ts";
import { helloServer, singleRouterArgs, startStdioServer } from "./stdio_server.ts";
import { ratio, round, summarize, type Summary } from "./stats.ts";

/** Raw samples and summaries of the loopback latency figures. */
export interface LatencyFigures {
  command: string;
  rounds: number;
  floor: Summary;
  pooledExec: Summary;
  stdioCall: Summary;
  helloCall: Summary;
  connectPerCall: Summary;
  /** Median stdio tool call minus median floor. */
  overheadMs: number;
  /** Median stdio tool call divided by median floor (two decimals). */
  ratioToFloor: number;
  /** Median connect-per-call divided by median stdio tool call. */
  pooledVsConnectPerCall: number;
  /** CPU time (ms) per call of our server and of the hello-world server. */
  serverCpuMsPerCall: { ours: number; hello: number };
  samples: Record<"floor" | "pooledExec" | "stdioCall" | "helloCall" | "connectPerCall", number[]>;
}

/** Options: rounds of (3 each of floor, pooled, stdio, hello; 1 connect-per-call), within a time budget. */
export interface LatencyOptions {
  rounds: number;
  budgetMs: number;
}

/** Measure figures 1 to 3. */
export async function measureLatency(opts: LatencyOptions): Promise<LatencyFigures> {
  const sim = await startSimProcess();
  const target = benchTarget(sim.host, sim.port);
  const pool = new SshPool({ hostKeyPolicy: "off" });
  let raw: Awaited<ReturnType<typeof openRawSsh>> | undefined;
  let server: Awaited<ReturnType<typeof startStdioServer>> | undefined;
  let hello: Awaited<ReturnType<typeof startStdioServer>> | undefined;
  try {
    raw = await openRawSsh(sim.host, sim.port);
    server = await startStdioServer(singleRouterArgs(sim.host, sim.port));
    hello = await startStdioServer([], helloServer());
    const r = raw;
    const s = server;
    const h = hello;
    const kinds = {
      floor: () => r.exec(READ_COMMAND),
      pooledExec: () => pool.exec(target, READ_COMMAND, { idempotent: true, what: "/ip/address" }),
      stdioCall: () => s.call("router_list_ip_addresses"),
      helloCall: () => h.call("hello"),
    };
    // Same answer on every path, so they do the same work.
    // (The raw channel shows the router's CRLF line ends; the pool gives LF.)
    const lf = (text: string) => text.replace(/\r\n/g, "\n").trim();
    const expected = lf(await r.exec(READ_COMMAND));
    const pooled = await pool.exec(target, READ_COMMAND, { idempotent: true, what: "bench" });
    if (lf(pooled.output) !== expected) throw new Error("pooled exec output differs from floor");
    if (lf((await connectPerCall(target, READ_COMMAND)).output) !== expected) {
      throw new Error("connect-per-call output differs from floor");
    }
    // Warm-up: JIT, the server's dialect detection, ajv schema compilation.
    for (let i = 0; i < 50; i++) {
      for (const kind of Object.values(kinds)) await kind();
    }
    await connectPerCall(target, READ_COMMAND);
    const samples: LatencyFigures["samples"] = {
      floor: [],
      pooledExec: [],
      stdioCall: [],
      helloCall: [],
      connectPerCall: [],
    };
    const cpu = { stdioCall: 0, helloCall: 0 };
    const pids = { stdioCall: s.pid, helloCall: h.pid };
    const order = ["floor", "pooledExec", "stdioCall", "helloCall"] as const;
    const deadline = performance.now() + opts.budgetMs;
    let rounds = 0;
    while (rounds < opts.rounds && (rounds === 0 || performance.now() < deadline)) {
      for (let k = 0; k < order.length; k++) {
        const kind = order[(k + rounds) % order.length];
        const pid = kind === "stdioCall" || kind === "helloCall" ? pids[kind] : undefined;
        const cpu0 = pid ? await cpuMs(pid) : 0;
        for (let i = 0; i < 3; i++) samples[kind].push(await timed(kinds[kind]));
        if (pid) cpu[kind as "stdioCall" | "helloCall"] += (await cpuMs(pid)) - cpu0;
      }
      samples.connectPerCall.push((await connectPerCall(target, READ_COMMAND)).ms);
      rounds++;
    }
    const floor = summarize(samples.floor);
    const stdioCall = summarize(samples.stdioCall);
    const cpc = summarize(samples.connectPerCall);
    const r3 = (v: number) => round(v, 3);
    return {
      command: READ_COMMAND,
      rounds,
      floor,
      pooledExec: summarize(samples.pooledExec),
      stdioCall,
      helloCall: summarize(samples.helloCall),
      connectPerCall: cpc,
      overheadMs: round(stdioCall.median - floor.median),
      ratioToFloor: round(stdioCall.median / floor.median),
      pooledVsConnectPerCall: ratio(cpc.median, stdioCall.median),
      serverCpuMsPerCall: {
        ours: r3(cpu.stdioCall / samples.stdioCall.length),
        hello: r3(cpu.helloCall / samples.helloCall.length),
      },
      samples: {
        floor: samples.floor.map(r3),
        pooledExec: samples.pooledExec.map(r3),
        stdioCall: samples.stdioCall.map(r3),
        helloCall: samples.helloCall.map(r3),
        connectPerCall: samples.connectPerCall.map(r3),
      },
    };
  } finally {
    await server?.close();
    await hello?.close();
    await raw?.close();
    await pool.close();
    await sim.close();
  }
}

if (import.meta.main) {
  const f = await measureLatency({ rounds: 50, budgetMs: 20_000 });
  console.log(JSON.stringify({ ...f, samples: undefined }, null, 2));
}
