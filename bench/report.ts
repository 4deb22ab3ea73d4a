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
  const h = r.figures.http?.throughput.find((t) => t.clients === 1);
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
      h ? "from figure 4" : "",
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
  return table(
    ["clients", "calls/s", "median ms", "p95 ms", "p99 ms", "calls", "errors", "server CPU"],
    h.throughput.map((t) => [
      t.clients,
      n(t.callsPerSecond, 1),
      n(t.medianMs),
      n(t.p95Ms),
      n(t.p99Ms),
      t.calls,
      t.errors,
      `${t.serverCpuPercent} %`,
    ]),
  );
}

function fanOutTable(r: Results): string {
  const f = r.figures.fanOut;
  if (!f) return "not measured";
  return table(
    ["routers", "connections", "median ms", "p95 ms", "p99 ms", "runs", "failed devices"],
    f.flatMap((x) => [
      [x.routers, "cold (a fresh server)", ...pct(x.cold), x.failures],
      [x.routers, "warm", ...pct(x.warm), ""],
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
    rows.push(
      ["server (stdio, 500-router inventory), 0 device connections", n(m.rssMb.connections0, 1)],
      ["… 100 device connections", n(m.rssMb.connections100, 1)],
      ["… 500 device connections", n(m.rssMb.connections500, 1)],
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
  const f500 = r.figures.fanOut?.find((x) => x.routers === 500);
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
  if (f500) {
    parts.push(
      `One \`router_fleet_query\` reaches 500 routers in ${n(f500.warm.median / 1000, 1)} s warm ` +
        `and ${n(f500.cold.median / 1000, 1)} s cold.`,
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
    `${r.loadAtEnd.join(" / ")} at end; ${r.durationS} s.`,
    "",
    "### Goals",
    "",
    goalsTable(r),
    "",
    ...goalNotes(r),
    "### Latency on loopback, ms (figures 1–3)",
    "",
    latencyTable(r),
    "",
    "### 4. Throughput over streamable-http, 4 devices",
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
  const h = r.figures.http?.throughput.find((t) => t.clients === 1);
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

const METHOD = `## How it is measured

- Everything runs on this one machine over loopback, against the simulator (\`lib/sim\`), in
  one run: the ratios compare figures taken minutes apart at most. For figures 1–3, 6, 7a and 10
  the simulated router runs in its own process (\`main.ts sim\`), as a router is its own
  machine; the fleet and HTTP figures run their many simulators inside the benchmark process.
  The MCP server runs as its own process (\`deno run main.ts\`, every toolset, the default log
  level), spoken to by the SDK's client, as an agent runs it.
- Percentiles are nearest-rank over all runs of a figure. Figures 1–3 are sampled in interleaved
  rounds (three floor execs, three pooled execs, three stdio calls, three hello-world calls, one
  connect-per-call), so that load from other processes falls on all of them alike. Each server's
  CPU time (user + system, all threads, from /proc) is summed over its samples: it varies less
  with the machine's load than wall time.
- The **hello-world server** (\`bench/hello_server.ts\`) is the SDK's \`McpServer\` with its
  stdio transport and one tool that answers without I/O, on the same Deno: what any MCP server
  on this SDK and runtime pays. Cold start alternates our server and it, run by run.
- **Floor**: ssh2's \`Client.exec\` of the very command the tool sends
  (\`:serialize to=json\` of \`/ip address print detail as-value\`), on a warm connection with
  TCP_NODELAY. **Connect-per-call**: our \`lib/ssh\` opening a new connection (TCP, handshake,
  host key, login), one exec, then close, per command; the time ends when the output is in (a
  server answers before it closes). On loopback a handshake with the simulator costs only a few
  milliseconds of CPU; on a real link it costs round trips, which figure 9 counts.
- **Throughput** is \`bench/http.ts\`: each client holds one streamable-http session and calls
  \`router_list_ip_addresses\` on the 4 devices in turn, for a fixed time per level.
- **Fan-out**: an inventory of 100 or 500 simulated routers; cold = the first call of a freshly
  started server (every connection opened during the call, at most 32 dialing), warm = the same
  server again. **Memory**: VmRSS of the server process after start, after a query on 100
  devices, and after a query on all 500.
- **Cold start**: from spawning the process to the \`initialize\` answer, and to the result of a
  first \`router_list_ip_addresses\` (which opens the SSH connection and detects the version).
- **Idle memory**: VmRSS read a few seconds after the last request, after \`initialize\` +
  \`tools/list\`, and after a run of warm calls on the same server.
- **WAN**: a loopback TCP relay (\`bench/relay.ts\`) forwards each direction after half the
  round-trip time and charges the TCP handshake (it connects upstream 1.5 round trips after
  accepting). Round trips = median ÷ nominal RTT; the goal "1 round trip + 5 ms" is judged
  against the relay's own measured round trip. Our write tools run the write and its read-back in
  one exec; connect-per-call needs one connection for the write and one for the read-back.
- Nearest rank means that with fewer than 100 runs the p99 is the slowest run, and with fewer than
  20 the p95 is too.
- Figures vary with the machine's load; the load averages are printed with each run.
`;

const FINDINGS = `## Findings (issue 24)

What the CPU profile of warm calls and the import costs showed, and what became of each. The
figures above are this run's; the counts below are facts of the code, held by the tests named.

- **Socket writes.** ssh2 hands every AES-GCM packet to the socket in three writes (length,
  body, tag), so an exec on a pre-opened channel cost nine \`write(2)\` calls (exec request,
  channel close, the next channel's open), each a wake-up of the router's side. Our SSH sockets
  now gather what is written in one tick into one write (\`lib/ssh/write_batching.ts\`): two
  writes per exec (\`tests/ssh_write_batching.test.ts\`), and the exec request goes before the
  next spare channel's open. A write still shows large in the profile: it is the kernel waking
  the other process.
- **\`Channel.destroy\` building \`ERR_STREAM_ALREADY_FINISHED\`.** Already gone before this
  issue: exec channels get a \`destroy\` that ends the stream only if it has not ended
  (\`lib/ssh/ssh2_internals.ts\`, \`tests/ssh_channel_teardown.test.ts\`); no error is built
  per exec.
- **zod.** The stdio transport no longer runs the JSON-RPC schema over plain requests, which the
  SDK checks again anyway (a property test holds that whatever takes the shortcut the schema
  accepts). A tool's own argument check is one compiled zod object, built on first use. What is
  left per call is inside the SDK: it parses a \`tools/call\` request three times and validates
  the result once; changing that means bypassing the SDK's request handling, which we do not.
- **Log notifications.** A session sends nothing below its level, and the default is
  \`warning\`: at the default level a successful call sends no notification at all
  (\`lib/server/tool_log.ts\`).
- **GC and allocations.** The stdio transport reads stdin into one reused 64 KiB buffer (Node's
  \`process.stdin\` allocated and zero-filled a fresh buffer for every read) and writes answers
  with \`Deno.stdout.writeSync\`. V8 keeps the heap it grew to in a burst and the runtime never
  tells it the process went idle, so the server runs one full collection when a stretch of work
  ends with a heap grown by 4 MiB (\`lib/server/idle_gc.ts\`): about 30 MiB less RSS after
  start-up.
- **Start-up.** ssh2 (~35 ms and ~8 MiB to import) is loaded in the background 100 ms after the
  server starts answering, or by the first SSH connection if that comes sooner, so neither
  \`initialize\` nor the first call waits for it; the HTTP transports load only when serving HTTP; the REST proxy, OpenAPI, Swagger UI and the simulator
  were already loaded only by their subcommands. \`tests/startup_imports.test.ts\` holds
  \`main.ts\`'s static imports free of all of them. The menu tools build their zod objects when
  first listed or called: building the catalogue fell from ~160 ms to ~11 ms of CPU.
- **Work nobody reads.** A list or get result renders its text table only when read: the calls a
  fleet query nests return their structured result alone.
- **TCP_NODELAY.** \`lib/ssh\` has one way to reach a router, a direct TCP connection from
  \`openSocket\` (no jump host or proxy command exists); \`tests/ssh_nodelay.test.ts\` reads
  the option from the kernel for pooled connections and login probes, and for the simulator.

What limits the figures on this machine:

- The simulator is far costlier per command than a router's SSH server looks from here: it
  interprets RouterOS script and writes each packet in pieces. With 500 simulated routers in one
  process, a fan-out is bounded by the simulator's CPU, on the same 2 cores as the server.
- On a 2-core virtual machine shared with other work, every hop between processes (client →
  server → router and back) costs a wake-up that dominates a sub-millisecond call; the floor
  makes two such hops, a stdio tool call four.

## Compiled binary

The release workflow measures the compiled amd64 binary as it builds it: \`bench/binary.ts\`
starts it, \`deno run main.ts\` and the hello-world server in turn and writes spawn to
\`initialize\` and idle RSS after \`initialize\` + \`tools/list\` for each to the job
summary of the release. No binary can be built here (the Deno runtime for \`deno compile\` is
downloaded from the internet), so figure 6 lists it as not built.
`;

/** The whole docs/benchmarks.md. */
export function markdown(r: Results): string {
  return `# Benchmarks

\`deno task bench\` measures every figure below in one run against the built-in simulator on
loopback, prints these tables, and writes \`bench/results.json\` (raw samples and machine facts)
and this page. \`deno task bench --quick\` runs a reduced version (under a minute) that CI uses to
keep the benchmark working; goals are reported, never enforced.

${headline(r)}

![Latency percentiles: floor, stdio tool call, HTTP tool call, connect-per-call](benchmarks.svg)

## Latest results

${tables(r)}
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
