/**
 * The issue's goals, checked against the figures. A goal is met, not met,
 * or not measured; the benchmark reports all three and never fails on them.
 *
 * @module
 */
import type { Figures } from "./results.ts";
import { round } from "./stats.ts";

/** One goal's outcome. */
export interface GoalResult {
  figure: string;
  goal: string;
  measured: string;
  /** null when the figure was not measured. */
  met: boolean | null;
}

function check(
  figure: string,
  goal: string,
  value: number | undefined,
  unit: string,
  ok: (v: number) => boolean,
  shown?: string,
): GoalResult {
  if (value === undefined || !Number.isFinite(value)) {
    return { figure, goal, measured: "not measured", met: null };
  }
  return { figure, goal, measured: shown ?? `${value} ${unit}`, met: ok(value) };
}

/** The goals of issue 35, each measured beside its floor in the same run. */
function issue35(f: Figures): GoalResult[] {
  const l = f.latency;
  const m = f.memory;
  const http = f.http;
  const h32 = http?.throughput.find((t) => t.mode === "session" && t.clients === 32);
  const s32 = http?.throughput.find((t) => t.mode === "stateless" && t.clients === 32);
  const floor32 = http?.floor.find((t) => t.clients === 32);
  const httpRatio = h32 && floor32 ? round(h32.callsPerSecond / floor32.callsPerSecond) : undefined;
  const fan = f.fanOut?.[f.fanOut.length - 1];
  const fm = f.fleetMemory;
  const idleDelta = m ? round(m.idle.ours - m.idle.hello, 1) : undefined;
  const span = fm
    ? `${fm.connections[fm.connections.length - 2]} to ${fm.connections[fm.connections.length - 1]}`
    : "500 to 2,000";
  return [
    check(
      "server CPU per warm stdio tool call",
      "≤ 0.45 ms",
      l?.serverCpuMsPerCall.ours,
      "ms",
      (v) => v <= 0.45,
      l
        ? `${l.serverCpuMsPerCall.ours} ms (floor: the hello-world server's no-op call, ` +
          `${l.serverCpuMsPerCall.hello} ms)`
        : undefined,
    ),
    check(
      "warm stdio tool call ÷ raw exec floor (medians, interleaved)",
      "≤ 1.10×",
      l?.ratioToFloor,
      "×",
      (v) => v <= 1.1,
      l ? `${l.ratioToFloor}× (${l.stdioCall.median} vs ${l.floor.median} ms)` : undefined,
    ),
    check(
      "streamable-http calls/s at 32 clients ÷ raw ssh2 execs/s on the same simulators",
      "≥ 0.70×",
      httpRatio,
      "×",
      (v) => v >= 0.7,
      h32 && floor32
        ? `${httpRatio}× (${h32.callsPerSecond} vs ${floor32.callsPerSecond}/s with sessions; ` +
          `stateless ${s32?.callsPerSecond ?? "–"}/s; server CPU ${h32.cpuMsPerCall.server} ms ` +
          `per call)`
        : undefined,
    ),
    check(
      `fan-out to ${fan?.routers ?? 2000} simulated routers, cold ÷ raw ssh2 connect+exec floor`,
      "≤ 1.15×",
      fan?.ratio.cold,
      "×",
      (v) => v <= 1.15,
      fan
        ? `${fan.ratio.cold}× (${fan.cold.median} vs ${fan.floor.cold.median} ms, medians of ` +
          `${fan.cold.n} alternating runs; server CPU ${fan.cpuMs.server.cold} ms)`
        : undefined,
    ),
    check(
      `server memory per open router connection (RSS slope, ${span} connections)`,
      "≤ 64 KiB",
      fm?.perConnectionKb,
      "KiB",
      (v) => v <= 64,
      fm
        ? `${fm.perConnectionKb} KiB (floor: a bare ssh2 client, ${fm.floor.perConnectionKb} KiB)`
        : undefined,
    ),
    check(
      "idle RSS over hello-world after `initialize` + `tools/list` of every tool",
      "≤ +25 MiB",
      idleDelta,
      "MiB",
      (v) => v <= 25,
      m ? `+${idleDelta} MiB (${m.idle.ours} vs ${m.idle.hello} MiB)` : undefined,
    ),
  ];
}

/** Evaluate every goal: issue 35's, then the earlier ones still held. */
export function evaluateGoals(f: Figures): GoalResult[] {
  const deno = f.coldStart?.find((c) => c.label === "deno run");
  const hello = f.coldStart?.find((c) => c.label === "hello-world");
  const l = f.latency;
  const m = f.memory;
  const wan = f.wan;
  // One round trip of the emulated link is what the relay alone measures.
  const link = wan ? wan.relay.summary.median : NaN;
  const wanShown = (ms: number | undefined) =>
    ms === undefined ? undefined : `${ms} ms (${round(ms / (wan?.rttMs ?? 1), 1)} RTT; ` +
      `link RTT ${link} ms, so ${round(ms - link, 1)} ms above one round trip)`;
  const startRatio = deno?.initialize && hello?.initialize
    ? round(deno.initialize.median / hello.initialize.median)
    : undefined;
  const callsDelta = m ? round(m.afterCalls.after - m.afterCalls.before, 1) : undefined;
  return [
    ...issue35(f),
    check(
      "spawn to `initialize` ÷ hello-world server (medians, interleaved)",
      "≤ 1.5×",
      startRatio,
      "×",
      (v) => v <= 1.5,
      startRatio === undefined
        ? undefined
        : `${startRatio}× (${deno!.initialize!.median} vs ${hello!.initialize!.median} ms)`,
    ),
    check(
      `idle RSS after ${m?.afterCalls.calls ?? 10_000} calls − idle RSS before them`,
      "≤ +20 MiB",
      callsDelta,
      "MiB",
      (v) => v <= 20,
      m ? `+${callsDelta} MiB (${m.afterCalls.after} vs ${m.afterCalls.before} MiB)` : undefined,
    ),
    check(
      "heap an open streamable-http session holds (issue 16)",
      "≤ 512 KiB",
      f.http?.memory.perOpenSessionKb,
      "KiB",
      (v) => v <= 512,
    ),
    check(
      "pooled tool call vs connect-per-call (loopback, medians)",
      "≥ 20× faster",
      l?.pooledVsConnectPerCall,
      "×",
      (v) => v >= 20,
      l ? `${l.pooledVsConnectPerCall}×` : undefined,
    ),
    check(
      "cold start to first tool result, deno run (median)",
      "≤ 400 ms",
      deno?.firstToolResult?.median,
      "ms",
      (v) => v <= 400,
    ),
    check(
      "`tools/list` by default (bytes of JSON)",
      "≤ 100 KB",
      f.toolList?.default.bytes,
      "bytes",
      (v) => v <= f.toolList!.budget.defaultBytes,
      f.toolList
        ? `${f.toolList.default.bytes} bytes (${f.toolList.default.tools} tools)`
        : undefined,
    ),
    check(
      "`tools/list` with `--toolsets all`, per tool",
      "≤ 1.6 KB",
      f.toolList?.all.average,
      "bytes",
      (v) => v <= f.toolList!.budget.allAverage,
      f.toolList
        ? `${f.toolList.all.average} bytes (${f.toolList.all.bytes} for ${f.toolList.all.tools} tools)`
        : undefined,
    ),
    check(
      `WAN read tool call (${wan?.rttMs ?? 50} ms round trip, median)`,
      "≤ 1 round trip + 5 ms",
      wan?.readTool.summary.median,
      "ms",
      (v) => v <= link + 5,
      wanShown(wan?.readTool.summary.median),
    ),
    check(
      `WAN write tool call with read-back (${wan?.rttMs ?? 50} ms round trip, median)`,
      "≤ 1 round trip + 5 ms",
      wan?.writeTool.summary.median,
      "ms",
      (v) => v <= link + 5,
      wanShown(wan?.writeTool.summary.median),
    ),
  ];
}
