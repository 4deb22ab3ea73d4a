/**
 * The benchmark's outputs: the Markdown tables (printed to stdout and put in
 * `docs/benchmarks.md` with the chart), the headline sentence for the
 * README, `bench/results.json` and `docs/benchmarks.svg`.
 *
 * @module
 */
import type { Results } from "./results.ts";
import { ratio, round, type Summary } from "./stats.ts";
import { SETTLE_MS } from "./memory.ts";
import { FINDINGS, ISSUE35, METHOD } from "./report_text.ts";
import { type ChartSeries, latencyChart } from "./svg.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Where the outputs go. */
export const OUTPUTS = {
  json: `${ROOT}bench/results.json`,
  markdown: `${ROOT}docs/benchmarks.md`,
  svg: `${ROOT}docs/benchmarks.svg`,
};

function n(v: number | undefined, digits = 2): string {
  return v === undefined || !Number.isFinite(v) ? "–" : String(round(v, digits));
}

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

function pct(s: Summary | undefined): string[] {
  return [n(s?.median), n(s?.p95), n(s?.p99), s ? String(s.n) : "–"];
}

function goalsTable(r: Results): string {
  const mark = (m: boolean | null) => m === null ? "not measured" : m ? "**met**" : "**not met**";
  return table(
    ["figure", "goal", "measured", "result"],
    r.goals.map((g) => [g.figure, g.goal, g.measured, mark(g.met)]),
  );
}

function latencyTable(r: Results): string {
  const l = r.figures.latency;
  const h = r.figures.http?.throughput.find((t) => t.mode === "session" && t.clients === 1);
  const httpSummary: Summary | undefined = h
    ? { n: h.calls, median: h.medianMs, p95: h.p95Ms, p99: h.p99Ms, min: NaN, max: NaN }
    : undefined;
  return table(["figure", "median", "p95", "p99", "runs", "note"], [
    ["1. floor: raw ssh2 exec on a warm connection", ...pct(l?.floor), "the physical limit"],
    [
      "pooled exec through our SSH layer (pre-opened channel)",
      ...pct(l?.pooledExec),
      l ? `${n(l.pooledExec.median - l.floor.median)} ms from the floor` : "",
    ],
    [
      "2. tool call over stdio (`router_list_ip_addresses`)",
      ...pct(l?.stdioCall),
      l
        ? `**${n(l.ratioToFloor)}× the floor, ${n(l.overheadMs)} ms above it** (medians); ` +
          `server CPU ${n(l.serverCpuMsPerCall.ours, 3)} ms per call`
        : "",
    ],
    [
      "hello-world MCP server: `hello` tool over stdio",
      ...pct(l?.helloCall),
      l
        ? `an MCP round trip with no work; server CPU ${
          n(l.serverCpuMsPerCall.hello, 3)
        } ms per call`
        : "",
    ],
    [
      "tool call over streamable-http (1 client, 4 devices)",
      ...pct(httpSummary),
      h ? "from figure 4 (session)" : "",
    ],
    [
      "3. connect-per-call (connect, login, exec; our SSH stack)",
      ...pct(l?.connectPerCall),
      l ? `the pooled stdio tool call is **${n(l.pooledVsConnectPerCall, 1)}×** faster` : "",
    ],
  ]);
}

function throughputTable(r: Results): string {
  const h = r.figures.http;
  if (!h) return "not measured";
  const rows: (string | number)[][] = [];
  for (const f of h.floor) {
    for (const t of h.throughput.filter((x) => x.clients === f.clients)) {
      rows.push([
        t.clients,
        t.mode === "session" ? "ours, sessions" : "ours, stateless",
        n(t.callsPerSecond, 1),
        `**${n(t.callsPerSecond / f.callsPerSecond)}×**`,
        n(t.medianMs),
        n(t.p95Ms),
        n(t.p99Ms),
        t.errors,
        `${n(t.cpuMsPerCall.server, 3)} / ${n(t.cpuMsPerCall.simulators, 3)} / ${
          n(t.cpuMsPerCall.load, 3)
        }`,
      ]);
    }
    rows.push([
      f.clients,
      "floor: raw ssh2 execs",
      n(f.callsPerSecond, 1),
      "1×",
      "–",
      "–",
      "–",
      0,
      `${n(f.cpuMsPerCall.client, 3)} / ${n(f.cpuMsPerCall.simulators, 3)} / –`,
    ]);
  }
  return table(
    [
      "clients",
      "who",
      "calls/s",
      "÷ floor",
      "median ms",
      "p95 ms",
      "p99 ms",
      "errors",
      "CPU ms per call: server (or floor client) / simulators / load generator",
    ],
    rows,
  );
}

function fanOutTable(r: Results): string {
  const f = r.figures.fanOut;
  if (!f) return "not measured";
  return table(
    [
      "routers",
      "connections",
      "ours median ms",
      "p95 ms",
      "runs",
      "floor: raw ssh2 median ms",
      "÷ floor",
      "CPU ms per fan-out: server / floor client",
      "failed devices",
    ],
    f.flatMap((x) => [
      [
        x.routers,
        "cold (a fresh process)",
        n(x.cold.median),
        n(x.cold.p95),
        x.cold.n,
        n(x.floor.cold.median),
        `**${n(x.ratio.cold)}×**`,
        `${n(x.cpuMs.server.cold, 0)} / ${n(x.cpuMs.floor.cold, 0)}`,
        x.failures,
      ],
      [
        x.routers,
        "warm",
        n(x.warm.median),
        n(x.warm.p95),
        x.warm.n,
        n(x.floor.warm.median),
        `**${n(x.ratio.warm)}×**`,
        `${n(x.cpuMs.server.warm, 0)} / ${n(x.cpuMs.floor.warm, 0)}`,
        "",
      ],
    ]),
  );
}

function coldStartTable(r: Results): string {
  const c = r.figures.coldStart;
  if (!c) return "not measured";
  return table(
    ["server", "until", "median ms", "p95 ms", "p99 ms", "runs"],
    c.flatMap((x) =>
      x.note ? [[x.label, x.note, "–", "–", "–", "–"]] : [
        [x.label, "`initialize` answer", ...pct(x.initialize)],
        ...(x.firstToolResult
          ? [[x.label, "first tool result (incl. SSH connect)", ...pct(x.firstToolResult)]]
          : []),
      ]
    ),
  );
}

function memoryTable(r: Results): string {
  const m = r.figures.fleetMemory;
  const h = r.figures.http;
  const s = r.figures.simStart;
  const rows: (string | number)[][] = [];
  const idle = r.figures.memory;
  if (idle) {
    rows.push(
      [
        "server (stdio), idle after `initialize` + `tools/list`, every toolset",
        n(idle.idle.ours, 1),
      ],
      ["… the same with the default toolsets", n(idle.idle.oursDefaultToolsets, 1)],
      ["hello-world server (same SDK and runtime), idle after the same", n(idle.idle.hello, 1)],
      [
        `server (stdio), idle before ${idle.afterCalls.calls} warm calls`,
        n(idle.afterCalls.before, 1),
      ],
      [
        `… idle after them (${idle.afterCalls.seconds} s of calls)`,
        n(idle.afterCalls.after, 1),
      ],
    );
  }
  if (m) {
    m.connections.forEach((c, i) =>
      rows.push([
        i === 0
          ? `server (stdio, ${m.routers}-router inventory), ${c} router connections`
          : `… ${c} router connections` +
            (i === m.connections.length - 1 ? ` (${m.perConnectionKb} KiB per connection)` : ""),
        n(m.rssMb[i], 1),
      ])
    );
    m.floor.connections.forEach((c, i) =>
      rows.push([
        `bare ssh2 client (the floor), ${c} connections` +
        (i === m.floor.connections.length - 1
          ? ` (${m.floor.perConnectionKb} KiB per connection)`
          : ""),
        n(m.floor.rssMb[i], 1),
      ])
    );
  }
  if (h) {
    rows.push(
      ["server (streamable-http, 4 devices), idle", n(h.serverRssMb.idle, 1)],
      ["… after 32 concurrent sessions", n(h.serverRssMb.after32Sessions, 1)],
    );
  }
  if (s) rows.push([`simulator process with ${s.routers} routers (median)`, n(s.rssMb.median, 1)]);
  return rows.length ? table(["process", "RSS MiB"], rows) : "not measured";
}

function simTable(r: Results): string {
  const s = r.figures.simStart;
  if (!s) return "not measured";
  return table(
    ["routers", "start median ms", "p95 ms", "p99 ms", "runs", "RSS MiB (median)", "measured by"],
    [[
      s.routers,
      ...pct(s.ms),
      n(s.rssMb.median, 1),
      s.scripts.map((x) => x.replace(/^(\S+)/, "`$1`")).join(", "),
    ]],
  );
}

function wanTable(r: Results): string {
  const w = r.figures.wan;
  if (!w) return "not measured";
  const row = (label: string, f: typeof w.readTool | null, note = "") =>
    f
      ? [label, ...pct(f.summary), `**${n(f.roundTrips, 1)}**`, note]
      : [label, "–", "–", "–", "–", "–", "skipped"];
  return table(["path", "median ms", "p95 ms", "p99 ms", "runs", "round trips", "note"], [
    row("the relay alone (1 byte to an echo server and back)", w.relay, "the link's real RTT"),
    row("ours: read tool (`router_list_ip_addresses`)", w.readTool, "warm, back to back"),
    row("ours: write tool with read-back (`router_update_ip_address`)", w.writeTool, "one exec"),
    row(
      "ours: read tool, router closes idle channels",
      w.readToolWithoutPreopen,
      "fallback, calls 150 ms apart",
    ),
    row("raw ssh2 exec on a warm connection", w.rawSsh2Exec, "new channel per exec"),
    row("connect-per-call: read", w.connectPerCallRead, "TCP, handshake, login, exec"),
    row(
      "connect-per-call: write, then read-back",
      w.connectPerCallWrite,
      "two connections",
    ),
  ]);
}

function sshTable(r: Results): string {
  const s = r.figures.ssh;
  if (!s) return "not measured";
  return table(["figure", "median ms", "p95 ms", "runs", "note"], [
    [
      "connect: TCP, handshake, host key, login",
      n(s.connect.medianMs),
      n(s.connect.p95Ms),
      s.connect.samples,
      "loopback",
    ],
    [
      `${s.parallelConnect.devices} devices connected at once`,
      n(s.parallelConnect.totalMs),
      "–",
      1,
      `at most ${s.parallelConnect.maxDialing} dialing (peak ${s.parallelConnect.peakInFlight}), ` +
      `${s.parallelConnect.failures} failures`,
    ],
  ]);
}

function toolListTable(r: Results): string {
  const t = r.figures.toolList;
  if (!t) return "not measured";
  const row = (label: string, s: typeof t.all) => [
    label,
    s.tools,
    s.bytes,
    s.average,
    `\`${s.largest.name}\` (${s.largest.bytes})`,
  ];
  return table(["list", "tools", "bytes", "bytes per tool", "largest tool (bytes)"], [
    row("default (core and discovery)", t.default),
    row("`--toolsets all`", t.all),
  ]);
}

function profileSection(r: Results): string {
  const p = r.figures.profile;
  if (!p) return "not measured";
  const s = p.summary;
  const rows = (x: { name: string; ms: number; percent: number }[]) =>
    x.slice(0, 12).map((row) => [row.name.replace(/\|/g, "\\|"), n(row.ms, 1), n(row.percent, 1)]);
  return [
    `\`bench/profile.ts\`: the server under \`deno run --cpu-prof\`, ${p.calls} warm calls of ` +
    `\`router_list_ip_addresses\` back to back (every guard on, default log level). The server ` +
    `was busy ${s.busyMs} ms of ${s.windowMs} ms (${n(s.busyMs / p.calls, 3)} ms per call). The ` +
    "profiler samples wall-clock time: a system call's row (`writev`, `op_write_sync`, " +
    "`op_read`) includes the time the thread waited in the kernel, such as waking the process " +
    "at the other end, which on this 2-core virtual machine is most of it.",
    "",
    table(["part of the program", "self ms", "% of busy"], rows(s.parts)),
    "",
    table(["function", "self ms", "% of busy"], rows(s.selfTop)),
  ].join("\n");
}

/** The sentence(s) the README quotes, with this run's figures. */
export function headline(r: Results): string {
  const l = r.figures.latency;
  const w = r.figures.wan;
  const fan = r.figures.fanOut?.[r.figures.fanOut.length - 1];
  const parts: string[] = [];
  const where = `on a ${r.machine.cores}-core ${r.machine.cpu} (Deno ${r.machine.deno})`;
  if (l) {
    parts.push(
      `Measured ${where}, a warm tool call over stdio takes ${n(l.stdioCall.median)} ms ` +
        `(median; ${n(l.overheadMs)} ms above a raw ssh2 exec) against ` +
        `${n(l.connectPerCall.median)} ms for connect-per-call on loopback ` +
        `(${n(l.pooledVsConnectPerCall, 1)}× faster).`,
    );
  }
  if (w) {
    const read = ratio(w.connectPerCallRead.summary.median, w.readTool.summary.median);
    const write = ratio(w.connectPerCallWrite.summary.median, w.writeTool.summary.median);
    parts.push(
      `Over a ${w.rttMs} ms round-trip link, a read tool call takes ${
        n(w.readTool.roundTrips, 1)
      } round trips and a write with its read-back ${n(w.writeTool.roundTrips, 1)}, ` +
        `against ${n(w.connectPerCallRead.roundTrips, 1)} and ${
          n(w.connectPerCallWrite.roundTrips, 1)
        } for connect-per-call (${read}× and ${write}× faster).`,
    );
  }
  if (fan) {
    parts.push(
      `One \`router_fleet_query\` reaches ${fan.routers} routers in ${
        n(fan.warm.median / 1000, 1)
      } s warm and ${n(fan.cold.median / 1000, 1)} s cold.`,
    );
  }
  return parts.join(" ");
}

/** What the goals table cannot say by itself. */
function goalNotes(r: Results): string[] {
  const l = r.figures.latency;
  const w = r.figures.wan;
  if (!l || !w) return [];
  const read = ratio(w.connectPerCallRead.summary.median, w.readTool.summary.median);
  const write = ratio(w.connectPerCallWrite.summary.median, w.writeTool.summary.median);
  return [
    `Connect-per-call on loopback: a handshake with the simulator is ${
      n(l.connectPerCall.median)
    } ms of CPU and no network, so it costs only ${n(l.pooledVsConnectPerCall, 1)}× a pooled ` +
    `tool call here. Over the ${w.rttMs} ms link (figure 9) the same pattern is ${read}× slower ` +
    `than a pooled read tool call and ${write}× slower than a pooled write with read-back; a real ` +
    `router's slower CPU widens the gap further (its key exchange is not simulated).`,
    "",
  ];
}

/** All tables, in Markdown. */
export function tables(r: Results): string {
  const m = r.machine;
  const lines = [
    `Run: ${r.mode}, ${m.date}, ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, ` +
    `Deno ${m.deno}; load average ${m.loadAtStart.join(" / ")} at start, ` +
    `${r.loadAtEnd.join(" / ")} at end; ${r.durationS} s.` +
    (r.reruns ?? []).map((x) =>
      ` Measured again after it (\`--only=${x.figures.join(",")}\`, each with its own floor): ` +
      `${x.date}, load average ${x.loadAtStart.join(" / ")} at start, ` +
      `${x.loadAtEnd.join(" / ")} at end; ${x.durationS} s.`
    ).join(""),
    "",
    "### Goals",
    "",
    "The first six rows are issue 35's goals, each beside its floor from the same run; the others " +
    "are earlier goals still held.",
    "",
    goalsTable(r),
    "",
    ...goalNotes(r),
    "### Latency on loopback, ms (figures 1–3)",
    "",
    latencyTable(r),
    "",
    `### 4. Throughput over streamable-http, ${r.figures.http?.devices ?? 4} devices`,
    "",
    throughputTable(r),
    "",
    "### 5. Fleet fan-out: `router_fleet_query` running `router_list_ip_addresses`",
    "",
    fanOutTable(r),
    "",
    "### 6. Cold start: spawn to answer, over stdio",
    "",
    coldStartTable(r),
    "",
    "### 7. Memory",
    "",
    memoryTable(r),
    "",
    `Idle RSS is read ${SETTLE_MS / 1000} s after the last request (median of the starts for the ` +
    "idle rows). The compiled binary's figures are measured by the release workflow (see " +
    "[Compiled binary](#compiled-binary)).",
    "",
    "### 8. Simulator start",
    "",
    simTable(r),
    "",
    `### 9. WAN: ${
      r.figures.wan?.rttMs ?? 50
    } ms round trip (relay delaying each direction by half)`,
    "",
    wanTable(r),
    "",
    r.figures.wan ? `${r.figures.wan.note}.` : "",
    "",
    "### 10. `tools/list` size (what an agent pays per turn), one device",
    "",
    toolListTable(r),
    "",
    "### SSH layer (`bench/ssh.ts`)",
    "",
    sshTable(r),
    "",
    "### 10. Where a warm call's time goes (CPU profile of the server)",
    "",
    profileSection(r),
  ];
  if (r.errors.length) {
    lines.push("", "### Figures that failed to run", "");
    for (const e of r.errors) lines.push(`- ${e.figure}: ${e.message.split("\n")[0]}`);
  }
  return lines.join("\n") + "\n";
}

/** The chart's series: floor, stdio call, HTTP call, connect-per-call. */
export function chartSeries(r: Results): ChartSeries[] {
  const l = r.figures.latency;
  const h = r.figures.http?.throughput.find((t) => t.mode === "session" && t.clients === 1);
  const s = (label: string, x: Summary | undefined): ChartSeries => ({
    label,
    median: x?.median ?? NaN,
    p95: x?.p95 ?? NaN,
    p99: x?.p99 ?? NaN,
  });
  return [
    s("floor (raw ssh2 exec)", l?.floor),
    s("tool call over stdio", l?.stdioCall),
    {
      label: "HTTP tool call, 1 client",
      median: h?.medianMs ?? NaN,
      p95: h?.p95Ms ?? NaN,
      p99: h?.p99Ms ?? NaN,
    },
    s("connect-per-call", l?.connectPerCall),
  ];
}

/** The whole docs/benchmarks.md. */
export function markdown(r: Results): string {
  return `# Benchmarks

\`deno task bench\` measures every figure below in one run against the built-in simulator on
loopback, prints these tables, and writes \`bench/results.json\` (raw samples and machine facts)
and this page. \`deno task bench --quick\` runs a reduced version (under a minute) that CI uses to
keep the benchmark working; goals are reported, never enforced. \`--only=latency,http\` measures
those figures again (rows a busy machine disturbed) and merges them into the published run, which
then names each re-run with its date and load; \`--render\` writes this page again from
\`bench/results.json\`.

${headline(r)}

![Latency percentiles: floor, stdio tool call, HTTP tool call, connect-per-call](benchmarks.svg)

## Latest results

${tables(r)}
${ISSUE35}
${FINDINGS}
${METHOD}`;
}

/** The three outputs as text: results.json, docs/benchmarks.md (unformatted) and the SVG. */
export function renderOutputs(r: Results): { json: string; markdown: string; svg: string } {
  const l = r.figures.latency;
  const subtitle = l
    ? `loopback, ${r.machine.cores} cores, ${r.mode} run of ${r.machine.date.slice(0, 10)}; ` +
      `${l.floor.n} floor and stdio samples, ${l.connectPerCall.n} connect-per-call`
    : `loopback, ${r.machine.cores} cores, ${r.mode} run`;
  return {
    json: JSON.stringify(r, null, 2) + "\n",
    markdown: markdown(r),
    svg: latencyChart("Tool call latency percentiles (ms)", subtitle, chartSeries(r)),
  };
}

/** Write results.json, docs/benchmarks.md (formatted) and docs/benchmarks.svg. */
export async function writeOutputs(r: Results): Promise<void> {
  const out = renderOutputs(r);
  await Deno.writeTextFile(OUTPUTS.json, out.json);
  await Deno.writeTextFile(OUTPUTS.svg, out.svg);
  await Deno.writeTextFile(OUTPUTS.markdown, await formatMarkdown(out.markdown));
}

/** Format Markdown with `deno fmt` (aligned tables, as the repository's fmt check wants). */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  return out.success ? new TextDecoder().decode(out.stdout) : text;
}
