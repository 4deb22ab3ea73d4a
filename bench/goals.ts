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

/** Evaluate every goal (issue 24's first, then the earlier ones still held). */
export function evaluateGoals(f: Figures): GoalResult[] {
  const fan500 = f.fanOut?.find((x) => x.routers === 500);
  const deno = f.coldStart?.find((c) => c.label === "deno run");
  const hello = f.coldStart?.find((c) => c.label === "hello-world");
  const l = f.latency;
  const m = f.memory;
  const http32 = f.http?.throughput.find((t) => t.clients === 32);
  const wan = f.wan;
  // One round trip of the emulated link is what the relay alone measures.
  const link = wan ? wan.relay.summary.median : NaN;
  const wanShown = (ms: number | undefined) =>
    ms === undefined ? undefined : `${ms} ms (${round(ms / (wan?.rttMs ?? 1), 1)} RTT; ` +
      `link RTT ${link} ms, so ${round(ms - link, 1)} ms above one round trip)`;
  const startRatio = deno?.initialize && hello?.initialize
    ? round(deno.initialize.median / hello.initialize.median)
    : undefined;
  const idleDelta = m ? round(m.idle.ours - m.idle.hello, 1) : undefined;
  const callsDelta = m ? round(m.afterCalls.after - m.afterCalls.before, 1) : undefined;
  return [
    check(
      "warm stdio tool call ÷ floor (medians, interleaved)",
      "≤ 1.35×",
      l?.ratioToFloor,
      "×",
      (v) => v <= 1.35,
      l ? `${l.ratioToFloor}× (${l.stdioCall.median} vs ${l.floor.median} ms)` : undefined,
    ),
    check(
      "warm stdio tool call overhead above the floor (medians)",
      "≤ 0.15 ms",
      l?.overheadMs,
      "ms",
      (v) => v <= 0.15,
    ),
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
      "idle RSS after `initialize` + `tools/list` (all toolsets) − hello-world",
      "≤ +40 MiB",
      idleDelta,
      "MiB",
      (v) => v <= 40,
      m ? `+${idleDelta} MiB (${m.idle.ours} vs ${m.idle.hello} MiB)` : undefined,
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
      "streamable-http calls/s at 32 clients",
      "≥ 3,000",
      http32?.callsPerSecond,
      "calls/s",
      (v) => v >= 3000,
      http32
        ? `${http32.callsPerSecond} calls/s (p50 ${http32.medianMs} ms, p99 ${http32.p99Ms} ms; ` +
          `floor: raw ssh2 ${http32.floorCallsPerSecond} execs/s on the same simulators)`
        : undefined,
    ),
    check(
      "fan-out over 500 routers, warm (median)",
      "≤ 80 ms",
      fan500?.warm.median,
      "ms",
      (v) => v <= 80,
      fan500
        ? `${fan500.warm.median} ms (floor: raw ssh2 ${fan500.floor.warm.median} ms on the same ` +
          `simulators${
            fan500.serverCpuMsWarm !== undefined
              ? `; the server's own CPU ${fan500.serverCpuMsWarm} ms per fan-out`
              : ""
          })`
        : undefined,
    ),
    check(
      "fan-out over 500 routers, cold (median)",
      "≤ 400 ms",
      fan500?.cold.median,
      "ms",
      (v) => v <= 400,
      fan500
        ? `${fan500.cold.median} ms (floor: raw ssh2 connect and exec ${fan500.floor.cold} ms)`
        : undefined,
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
      "server RSS with 500 device connections",
      "≤ 250 MB",
      f.fleetMemory?.rssMb.connections500,
      "MiB",
      // The goal is in MB (10^6 bytes); RSS is read in MiB.
      (v) => v * 1.048576 <= 250,
      f.fleetMemory
        ? `${f.fleetMemory.rssMb.connections500} MiB (${
          round(f.fleetMemory.rssMb.connections500 * 1.048576, 0)
        } MB)`
        : undefined,
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
