/**
 * Figure 9: latency over a WAN link. A loopback relay delays each direction
 * by half of `rttMs` between the SSH client and the simulator; latencies are
 * given in milliseconds and as a count of round trips.
 *
 * - ours: tool calls over stdio on a warm pooled connection (a read tool,
 *   and a write tool whose read-back runs in the same exec);
 * - ours when the router closes idle session channels (no pre-opened
 *   channel: the fallback);
 * - raw ssh2 exec on a warm connection (a new channel per exec);
 * - connect-per-call: read = one connection; write with read-back = two
 *   (one per command, as the reference server does).
 *
 * @module
 */
import net from "node:net";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { READ_COMMAND, readBackCommand, setCommentCommand } from "./commands.ts";
import { benchTarget, connectPerCall } from "./connect_per_call.ts";
import { repeat, timed } from "./loop.ts";
import { openRawSsh } from "./raw_ssh.ts";
import { type DelayRelay, startDelayRelay } from "./relay.ts";
import { singleRouterArgs, startStdioServer, type StdioServer } from "./stdio_server.ts";
import { round, summarize, type Summary } from "./stats.ts";

/** One WAN figure. */
export interface WanFigure {
  summary: Summary;
  /** Median divided by the round-trip time. */
  roundTrips: number;
  samples: number[];
}

/** All WAN figures. */
export interface WanFigures {
  /** Nominal round-trip time of the relay. */
  rttMs: number;
  /** Round trip through the relay alone (one byte to an echo server and back). */
  relay: WanFigure;
  readTool: WanFigure;
  writeTool: WanFigure;
  /** Read tool when the router closes idle session channels (null when skipped). */
  readToolWithoutPreopen: WanFigure | null;
  rawSsh2Exec: WanFigure;
  connectPerCallRead: WanFigure;
  connectPerCallWrite: WanFigure;
  /** Whether the pooled read took one round trip (a pre-opened channel was used). */
  preopenedChannel: boolean;
  note: string;
}

/** Options: samples per figure, within a time budget each. */
export interface WanOptions {
  rttMs: number;
  samples: number;
  cpcSamples: number;
  budgetMs: number;
  /** Also measure the fallback without pre-opened channels. */
  fallback: boolean;
}

function figure(values: number[], rttMs: number): WanFigure {
  const summary = summarize(values);
  return {
    summary,
    roundTrips: round(summary.median / rttMs, 1),
    samples: values.map((v) => round(v, 2)),
  };
}

/** Longer than the 140 ms after which the simulator closes an idle session channel here. */
const FALLBACK_GAP_MS = 150;

interface Behind {
  sim: SimRouter;
  relay: DelayRelay;
  close(): Promise<void>;
}

async function routerBehindRelay(rttMs: number, closeIdle = false): Promise<Behind> {
  // Idle channels close after 140 ms: a fresh channel's request comes one round trip
  // (50 ms) after its open, with room for a busy machine; a spare always waits longer
  // (the calls are FALLBACK_GAP_MS apart).
  const sim = await startSimulator({
    faults: { closeIdleSessionChannels: closeIdle, idleSessionCloseMs: 140 },
  });
  const relay = await startDelayRelay(sim, { rttMs }).catch(async (e) => {
    await sim.close();
    throw e;
  });
  return {
    sim,
    relay,
    close: async () => {
      await relay.close();
      await sim.close();
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read tool calls, back to back, or `gapMs` apart (think time: long enough
 * for a router that closes idle channels to close the pre-opened one).
 */
async function toolReads(server: StdioServer, opts: WanOptions, gapMs = 0): Promise<number[]> {
  // Warm-up: the connection, the version detection, and (for the fallback)
  // the three closed channels after which pre-opening stops.
  for (let i = 0; i < 4; i++) {
    await server.call("router_list_ip_addresses");
    if (gapMs) await pause(gapMs);
  }
  return await repeat(opts.samples, opts.budgetMs + opts.samples * gapMs, async () => {
    if (gapMs) await pause(gapMs);
    return await timed(() => server.call("router_list_ip_addresses"));
  });
}

/** Round trips through the relay itself: one byte to an echo server and back. */
async function relayRoundTrips(rttMs: number, samples: number): Promise<number[]> {
  const echo = net.createServer((s) => {
    s.setNoDelay(true);
    s.on("error", () => {});
    s.on("data", (d) => s.write(d));
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  const port = (echo.address() as net.AddressInfo).port;
  const relay = await startDelayRelay({ host: "127.0.0.1", port }, { rttMs });
  const socket = net.connect({ host: relay.host, port: relay.port });
  socket.setNoDelay(true);
  socket.on("error", () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const ping = () =>
      new Promise<void>((resolve) => {
        socket.once("data", () => resolve());
        socket.write("x");
      });
    await ping();
    return await repeat(samples, 10_000, () => timed(ping));
  } finally {
    socket.destroy();
    await relay.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  }
}

/** Measure the WAN figures. */
export async function measureWan(opts: WanOptions): Promise<WanFigures> {
  const { rttMs } = opts;
  const relayRtt = figure(await relayRoundTrips(rttMs, opts.samples), rttMs);
  const main = await routerBehindRelay(rttMs);
  try {
    const id = main.sim.items("/ip/address")[0][".id"];
    const relayed = benchTarget(main.relay.host, main.relay.port);
    let reads: number[];
    let writes: number[];
    const server = await startStdioServer(singleRouterArgs(main.relay.host, main.relay.port));
    try {
      reads = await toolReads(server, opts);
      await server.call("router_update_ip_address", { id, comment: "bench-warm" });
      writes = await repeat(opts.samples, opts.budgetMs, (i) =>
        timed(async () => {
          const r = await server.call("router_update_ip_address", { id, comment: `bench-${i}` });
          const after = (r.structuredContent as { after?: { comment?: string } }).after;
          if (after?.comment !== `bench-${i}`) throw new Error("the write did not read back");
        }));
    } finally {
      await server.close();
    }
    const raw = await openRawSsh(main.relay.host, main.relay.port);
    let rawExec: number[];
    try {
      await raw.exec(READ_COMMAND);
      rawExec = await repeat(
        opts.samples,
        opts.budgetMs,
        () => timed(() => raw.exec(READ_COMMAND)),
      );
    } finally {
      await raw.close();
    }
    const cpcRead = await repeat(
      opts.cpcSamples,
      opts.budgetMs,
      async () => (await connectPerCall(relayed, READ_COMMAND)).ms,
    );
    const cpcWrite = await repeat(opts.cpcSamples, opts.budgetMs, async (i) => {
      const set = await connectPerCall(relayed, setCommentCommand(id, `cpc-${i}`));
      const back = await connectPerCall(relayed, readBackCommand(id));
      if (!back.output.includes(`cpc-${i}`)) {
        throw new Error("connect-per-call write did not read back");
      }
      return set.ms + back.ms;
    });
    let fallback: WanFigure | null = null;
    if (opts.fallback) {
      const closing = await routerBehindRelay(rttMs, true);
      try {
        const s = await startStdioServer(
          singleRouterArgs(closing.relay.host, closing.relay.port),
        );
        try {
          fallback = figure(await toolReads(s, opts, FALLBACK_GAP_MS), rttMs);
        } finally {
          await s.close();
        }
      } finally {
        await closing.close();
      }
    }
    const readTool = figure(reads, rttMs);
    const preopenedChannel = readTool.roundTrips < 1.5;
    return {
      rttMs,
      relay: relayRtt,
      readTool,
      writeTool: figure(writes, rttMs),
      readToolWithoutPreopen: fallback,
      rawSsh2Exec: figure(rawExec, rttMs),
      connectPerCallRead: figure(cpcRead, rttMs),
      connectPerCallWrite: figure(cpcWrite, rttMs),
      preopenedChannel,
      note: preopenedChannel
        ? "pooled calls ran on a pre-opened session channel: one round trip (the exec request)"
        : "pooled calls needed two round trips: no pre-opened channel could be used",
    };
  } finally {
    await main.close();
  }
}

if (import.meta.main) {
  const w = await measureWan({
    rttMs: 50,
    samples: 10,
    cpcSamples: 3,
    budgetMs: 10_000,
    fallback: true,
  });
  const strip = (f: WanFigure | null) => f && { ...f.summary, roundTrips: f.roundTrips };
  console.log(JSON.stringify(
    {
      readTool: strip(w.readTool),
      writeTool: strip(w.writeTool),
      fallback: strip(w.readToolWithoutPreopen),
      raw: strip(w.rawSsh2Exec),
      cpcRead: strip(w.connectPerCallRead),
      cpcWrite: strip(w.connectPerCallWrite),
      relay: strip(w.relay),
      note: w.note,
    },
    null,
    1,
  ));
}
