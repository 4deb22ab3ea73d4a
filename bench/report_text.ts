/**
 * The prose of `docs/benchmarks.md`: what the profile of issue 24 found and
 * what became of each finding, the compiled binary, and how every figure
 * is measured. The figures themselves come from the run (`report.ts`).
 *
 * @module
 */

/** Findings of issue 24 and the compiled binary's note. */
export const FINDINGS = `## Findings (issue 24)

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
  accepts). A tool's own argument check is one compiled zod object, built on first use. The SDK
  itself told a request's kind by running the response and error schemas over it first (two
  \`ZodError\`s per call) and parsed a \`tools/call\` twice and its result once more: plain
  requests now go straight to its request dispatch and the result is sent as the handler made
  it, one parse of the request left (\`lib/mcp_sdk/dispatch.ts\`, the one module that touches the
  SDK's internals, held by \`tests/unit/sdk_dispatch.test.ts\`).
- **Log notifications.** A session sends nothing below its level, and the default is
  \`warning\`: at the default level a successful call sends no notification at all
  (\`lib/server/tool_log.ts\`).
- **Reading stdin.** Deno reads its \`stdin\` on a helper thread, which then wakes the main
  one: two thread hand-offs per request where one does. The stdio transport reads a pipe or a
  socket on stdin (what MCP clients give) through the event loop's own poller, as a Node socket
  on fd 0, and writes answers with \`Deno.stdout.writeSync\`: 0.09 ms less per warm call in an
  interleaved A/B. A terminal, a file, or one socket that is both stdin and stdout is read as
  before (\`tests/stdio_kinds.test.ts\`).
- **GC and allocations.** A line that arrives whole is decoded where it is, without a copy. V8 keeps the heap it grew to in a burst and the runtime never
  tells it the process went idle, so the server runs one full collection when a stretch of work
  ends with a heap grown by 4 MiB (\`lib/server/idle_gc.ts\`): about 30 MiB less RSS after
  start-up.
- **Start-up.** \`initialize\` is answered before the catalogue is loaded: the server's instructions
  come from the settings alone (\`lib/server/toolset_choice.ts\`), and the core (catalogue, guard
  chain, tool list: about 150 modules) is imported and built once the client has its answer, or
  at the first request that needs it. The stdio path no longer loads the SDK's \`McpServer\`,
  stdio and HTTP transport modules either. ssh2 (~35 ms and ~8 MiB to import) is loaded by the
  first SSH connection (or key), so a server that has only listed its tools idles without it; the HTTP
  transports load only when serving HTTP; the REST proxy, OpenAPI, Swagger UI and the simulator
  only with their subcommands. \`tests/startup_imports.test.ts\` holds the start-up graph free of
  all of them. The menu tools build their zod objects when first listed or called. The SDK's
  \`Server\` built an Ajv instance for every server, at start and for each HTTP session, to check
  elicitation answers: Ajv is now built at the first such check (7 ms less CPU to \`initialize\`,
  averaged over 20 interleaved starts), and the heap an open HTTP session holds went from 28.5 to
  11.5 KiB between the runs before and after.
- **Timers and per-call rebuilding.** A command's timeout and a connection's idle close each set
  and cleared a Node \`Timeout\` per exec (about 50 µs of a cold call in the profile): one timer
  per connection now carries every command's deadline (\`lib/ssh/deadlines.ts\`) and the idle
  close moves on lazily (\`lib/ssh/idle_close.ts\`). ssh2 restarted its keepalive interval
  (two more Node timers) on every exec reply; only its pings' answers reset it now, and a test
  holds that a busy connection stays up and a silent router is dropped after three pings
  (\`tests/ssh_keepalive.test.ts\`). A menu's fields and read spec on a release
  were recomputed for every item of every read; they are made once per menu and release. The
  section marker's random bytes came from one \`getRandomValues\` per script; they are drawn
  4 KiB at a time (\`lib/routeros/random_hex.ts\`).
- **Work nobody reads.** A list or get result renders its text table only when read: the calls a
  fleet query nests return their structured result alone.
- **TCP_NODELAY.** Every TCP connection \`lib/ssh\` opens comes from \`openSocket\`: a
  router's, or a bastion's, over which a device behind it is reached through a forwarded
  channel (the bastion makes that last hop; \`bench/jump.ts\` shows no Nagle delay on it, see
  [jump-hosts.md](jump-hosts.md)); \`tests/ssh_nodelay.test.ts\` reads the option from the
  kernel for pooled connections and login probes, and for the simulator.

What limits the figures on this machine:

- The simulator sets the floor of every figure. It interprets RouterOS script in TypeScript;
  it was made 30 % cheaper per command (a block that starts with a command is not probed as
  an array literal; \`findByKey\` views one item, not every interface; its sockets write
  whole packets), which made the floor itself 0.2 to 0.4 ms faster and every ratio to it
  harder.
- **Fleet fan-out** (figure 5) is measured against its floor in the same run: a bare ssh2 client
  in a process of its own, on the same simulated routers, does the same reads. Warm, ours was from
  4 % under to 7 % over the floor in the full runs of 2026-11-26; neither comes near 80 ms for 500
  routers, because the 500 simulators run in one process on the same 2 cores. The server's own CPU
  per warm fan-out (130 ms for 500 routers, about 0.26 ms per router, most of it ssh2's packet
  handling with its Node-compatible crypto and buffers) is itself above 80 ms on this machine.
  Cold, ours also asks each router its release first, an exec the floor does not make.
- **Throughput** (figure 4) is bound by the CPU each call costs the server, simulators and load
  generator together, on two cores: see [What bounds issue 35's goals](#what-bounds-issue-35s-goals).
  The floor rows are raw ssh2 on the same simulators with no MCP on either side.
- **Warm call overhead** (figures 1–3): a stdio tool call is the pooled exec, plus an MCP round
  trip, plus the rest: the guard chain, building the command and parsing and rendering its answer,
  and the SSH work running in a third process. In the four full runs of 2026-11-26 the pooled exec
  was 0.23 to 0.29 ms under the floor, the hello-world round trip 0.29 to 0.38 ms, and the rest
  0.28 to 0.33 ms. 0.15 ms above the floor leaves the rest about 0.1 ms: less than ssh2 alone
  spends decrypting and dispatching the answer's six packets in the server (about 0.1 ms, timed
  there), before any of our own work.
- On this 2-core virtual machine a write that wakes an idle process spends 40-70 µs in the
  kernel, so every hop between processes weighs on a sub-millisecond call.
- Every server of the benchmark keeps an audit log (\`--audit-log\`): a read never touches it,
  and a write waits for two lines to reach the disk, its intent before the command is sent and
  its outcome after (the anchor is rewritten between them, mostly while the command runs). The
  published run timed the earlier order (the line and the anchor after the command), two
  \`fsync\`s of 0.6 to 2.3 ms on this machine's disk, timed inside the server. That is what the
  WAN write figure has above the read (figure 9).
- A write tool with its lock-out check (the guard that keeps a change from cutting the server's
  own access) reads the item before writing it: over the 50 ms link that is one more round trip
  than the write and its read-back alone (figure 9).

## Compiled binary

The release workflow measures the compiled amd64 binary as it builds it: \`bench/binary.ts\`
starts it, \`deno run main.ts\` and the hello-world server in turn and writes spawn to
\`initialize\` and idle RSS after \`initialize\` + \`tools/list\` for each to the job
summary of the release. No binary can be built here (the Deno runtime for \`deno compile\` is
downloaded from the internet), so figure 6 lists it as not built.
`;

/** What bounds each of issue 35's goals not met, and what was tried. */
export const ISSUE35 = `## What bounds issue 35's goals

Read from the full run of 2026-11-27 and its re-runs (named above the goals table; each row keeps
the floor of its own stretch), on a machine whose load average stayed between 1 and 7 from other
work: CPU times read higher than on a quiet machine, and every ratio compares figures of one
stretch. Profiles are \`deno run --cpu-prof\` of the server, which samples wall-clock time: a system
call's row includes the time spent in the kernel waking the process at the other end.

**Met.** Fan-out to 2,000 routers cold is 1.1× its floor (3,918 vs 3,564 ms, medians of six
alternating runs; single runs spread from 2.3 to 5.7 s for ours and 2.1 to 4.7 s for the floor,
with the load), since \`router_fleet_query\` runs up to 1,024 devices at once and the dialer alone
paces the connects. An open router connection costs the server 35 KiB of RSS (slope from 500 to
2,000 connections), against 21 KiB for a bare ssh2 client.

- **Server CPU per warm stdio call** (goal 0.45 ms; 0.56 ms, the hello-world server's no-op call
  0.24 ms). Four stretches of this run read 0.49 to 0.62 ms, hello-world 0.21 to 0.27 ms: ours
  is 2.3 to 2.4 times hello-world's every time, the absolute figure moves with the machine. The
  figure samples three calls at a time between the other kinds of figures 1–3, so the server has
  been idle a few milliseconds before each group, and resuming costs: with the same two servers
  called in groups of three (3,000 calls, CPU of every thread from \`schedstat\`), ours spends
  0.31 to 0.37 ms per call back to back or in groups of three with no pause (the main thread
  0.26 to 0.32, V8's worker threads 0.05) and 0.56 ms with 5 ms of idle between groups;
  hello-world 0.09 to 0.14 and 0.23 ms. So the goal holds for a server kept busy and not for one
  woken every third call, where about 0.6 ms per wake-up (hello-world: 0.3 ms) is the cost of a process whose code and data left the
  caches. Where the busy time goes (figure 10, 0.22 ms per call on the main thread):
  \`op_write_sync\` (the answer on stdout) 18 % and \`writev\` (the exec request to the router)
  12 %, Node compatibility (ssh2's buffers and ciphers) 19 %, our layers 25 % (tools 7, server 7,
  RouterOS commands and parsing 7, SSH 4), GC 4 %. Tried this round: the answer to a router's
  channel close rides with the next request (one write per exec instead of two: 0.403 vs
  0.406 ms, within the noise), timers and body clocks on one sweep. Not tried: ssh2's AES-GCM
  builds a Node cipher object per packet (\`op_node_create_cipheriv\`, about 2 %); changing that
  means patching ssh2's crypto.
- **Warm stdio call ÷ floor** (goal 1.10×; 1.38×, 0.87 vs 0.63 ms, and 1.32× to 1.47× in the
  other stretches). The pooled exec on a pre-opened channel takes 0.42 ms (0.21 ms under the
  floor, which opens a channel per exec) and an MCP round trip with no work 0.20 ms. 1.10× of
  0.63 ms is 0.69 ms: after the pooled exec and the bare MCP round trip, 0.07 ms would be left for
  the guard chain, building the command, decoding the answer's SSH packets, parsing and
  rendering. This machine's floor is about half the previous runs' (1.1 ms, another CPU), so the
  fixed costs weigh twice as much in the ratio.
- **Streamable-http calls/s ÷ the raw ssh2 floor** (goal 0.70×; 0.46×, 1,260 vs 2,760/s, and
  0.45× in an earlier stretch). The figure is bound by CPU: at 32 clients a call costs 0.46 ms in
  the server, 0.21 ms in the simulators and 0.04 ms in the load generator, 0.72 ms in all, against
  0.32 ms for a floor exec (client 0.15, simulators 0.16), on two cores shared with other work.
  Each got about the same CPU in its stretch (ours 0.90 s a second, the floor 0.87 s), so the
  ratio is that of the CPU per call: 0.32 ÷ 0.72 = 0.44. 0.70× needs about 0.45 ms in all, a
  server spending no more per call than a bare ssh2 client plus 0.04 ms. A profile of the session
  server under the same load (9,475 calls in 5 s, 0.40 ms of CPU per call there): \`writev\` (SSH
  requests) 15 % and \`op_write\` (HTTP answers) 10 % of busy time, GC 8 %, Node compatibility
  (ssh2's buffers and ciphers) 14 %, ssh2 5 %, the MCP SDK 7 % (its streamable transport's
  request handling and SSE framing), the HTTP middleware 5 %, tools and RouterOS parsing 8 %,
  zod 3 %. Tried: a POST's answer in one write (its head waits for the first event: 1,532 vs
  1,453 calls/s and 0.401 vs 0.424 ms, within the noise, and a quarter less CPU in the client),
  request bodies timed by one sweep instead of a timer each (0.387 vs 0.416 ms), the close
  answers above. Left: the SDK's streamable transport (a \`ReadableStream\` and SSE framing per
  POST, its own JSON-RPC checks) is the largest piece that a shortcut like
  \`lib/mcp_sdk/dispatch.ts\` could still reach.
- **Idle RSS over hello-world after listing every tool** (goal +25 MiB; +29.2 MiB, and +28.9 to
  +29.4 MiB in the other stretches). One start of each, read from \`smaps_rollup\` and V8's heap
  statistics: anonymous memory 60.9 vs 31.3 MiB, file-backed 44.4 vs 37.8 MiB (more of the
  runtime's own code paged in: Node compatibility, npm modules); V8 heap in use 25.5 vs 14.4 MiB,
  its old space 22.4 vs 9.3 MiB: the code and objects of the core's modules (the catalogue of 793
  tools and its menus, the guard chain), the SDK and zod. Tried this round: every field's zod type
  held weakly (−5.9 MiB) and ssh2 loaded by the first connection instead of in the background
  (−5.1 MiB). Left: the menus' declarations live as long as the process, since every call reads
  them.
- **Spawn to \`initialize\` ÷ hello-world** (an earlier goal, 1.5×): 1.52× (141 vs 92 ms), 1.7×
  in the full run at load 4.8, 1.35× in the quieter runs of 2026-11-26; the start-up path did not
  change this round except that ssh2 no longer loads in the background.
`;

/** How the figures are measured. */
export const METHOD = `## How it is measured

- Everything runs on this one machine over loopback, against the simulator (\`lib/sim\`), in
  one run: the ratios compare figures taken minutes apart at most. Every simulated router runs in
  a process of its own, as a router is its own machine: one router (\`main.ts sim\`) for
  figures 1–3, 6, 7a and 10; four routers in one process for figure 4 and 2,000 in four
  processes for figures 5 and 7 (\`bench/sim_child.ts\`). The MCP server runs as its own
  process (\`deno run main.ts\`, every guard on, the default log level), spoken to over stdio by
  the SDK's client, as an agent runs it, or over HTTP by a load generator of its own.
- CPU time is read from /proc for each process (user + system, every thread: each thread's
  \`schedstat\`, in nanoseconds) over the very stretch a figure measures, so every process of a
  figure (server, simulators, load generator, floor client) reports its CPU per call beside the
  throughput. CPU time varies less with the machine's load than wall time.
- Percentiles are nearest-rank over all runs of a figure. Figures 1–3 are sampled in interleaved
  rounds (three floor execs, three pooled execs, three stdio calls, three hello-world calls, one
  connect-per-call), so that load from other processes falls on all of them alike; the server's
  CPU time is summed over its samples.
- The **hello-world server** (\`bench/hello_server.ts\`) is the SDK's \`McpServer\` with its
  stdio transport and one tool that answers without I/O, on the same Deno: what any MCP server
  on this SDK and runtime pays. Cold start alternates our server and it, run by run.
- **Floor**: ssh2's \`Client.exec\` of the very command the tool sends
  (\`:serialize to=json\` of \`/ip address print detail as-value\`), on a warm connection with
  TCP_NODELAY. **Connect-per-call**: our \`lib/ssh\` opening a new connection (TCP, handshake,
  host key, login), one exec, then close, per command; the time ends when the output is in (a
  server answers before it closes). On loopback a handshake with the simulator costs only a few
  milliseconds of CPU; on a real link it costs round trips, which figure 9 counts.
- **Throughput** is \`bench/http.ts\`: the load comes from a process of its own
  (\`bench/http_load_child.ts\`: plain keep-alive HTTP/1.1, one connection per client, JSON-RPC
  bytes made once, answers read with a minimal parser; no MCP SDK, no \`fetch\`), so that the
  figure measures the server and not its clients. Each client calls
  \`router_list_ip_addresses\` on the 4 devices in turn for a fixed time per level: with
  sessions (each client its own, opened with \`initialize\` and \`notifications/initialized\`)
  and against a second server started with \`--mcp.stateless\`. At each level the session
  server, the stateless server and the floor run one after the other. Both servers keep an audit
  log and every HTTP guard (the connection guard, Host and Origin checks, authentication of this
  machine, body limits).
- **Floors of figures 4, 5 and 7** (\`bench/raw_floor.ts\`): the latency floor's bare ssh2
  client, in a process of its own as the server is, on the very simulators of the figure. For
  throughput, as many execs at once as the figure has clients, over one connection per router,
  for the same time. For fan-out, a fresh process each cold run: every router connected (at most
  32 handshakes at once, as the server's dialer) and its command run as soon as its connection is
  up, then warm rounds of one exec on every router at once; its cold runs alternate with ours.
  For memory, the same client holding as many idle connections as the server, after a full
  collection.
- **Fan-out**: inventories of 500 and 2,000 simulated routers; cold = the first call of a
  freshly started server (every connection opened during the call), warm = the same server
  again. The server's CPU time is read per fan-out.
- **Memory by connections** (figure 7): RSS of one server, idle (3.5 s after its last request,
  once it has given its heap back: \`lib/server/idle_gc.ts\`), with no router connection, then
  after a query on 500 routers and on all 2,000; the slope between the last two readings is the
  memory one open router connection costs.
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
- **\`tools/list\` size**: bytes of the JSON \`{"tools": [...]}\` an SDK client receives from a
  server in front of one router, with the default toolsets and with \`--toolsets all\`.
- Figures vary with the machine's load; the load averages are printed with each run.
`;
