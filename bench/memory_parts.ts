/**
 * `deno run -A bench/memory_parts.ts`: what the idle RSS of figure 7 is made
 * of, ours beside the hello-world server's. Each is started, answers
 * `initialize` and `tools/list` (every toolset for ours) and idles
 * {@linkcode SETTLE_MS}; then:
 *
 * - its `/proc/PID/smaps`, by kind of mapping: the `deno` executable's own
 *   pages (code paged in), malloc's `[heap]` (native allocations), other
 *   anonymous memory (mostly V8's heap), the rest;
 * - in a second start with `--inspect`, the scripts V8 compiled (from the
 *   inspector's `Debugger.scriptParsed`): how many, their text in bytes and,
 *   of that, the inline source maps that `deno run` appends to every
 *   TypeScript module it transpiles; and a heap snapshot: V8's heap by kind
 *   of object, and the bytes of `data:` URL strings in it (V8 keeps each
 *   script's source map URL beside its text: a second copy of the map).
 *
 * @module
 */
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { SETTLE_MS } from "./memory.ts";
import { startSimProcess } from "./sim_process.ts";
import {
  denoRun,
  helloServer,
  type ServerCommand,
  singleRouterArgs,
  startStdioServer,
} from "./stdio_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (kb: number) => Math.round(kb / 102.4) / 10;

/** Resident MiB by kind of mapping. */
export interface MappingParts {
  total: number;
  executable: number;
  mallocHeap: number;
  anonymous: number;
  other: number;
}

/** Resident memory of `pid` by kind of mapping, from `/proc/PID/smaps`. */
export function mappingParts(pid: number): MappingParts {
  const kb = { executable: 0, mallocHeap: 0, anonymous: 0, other: 0 };
  let kind: keyof typeof kb = "other";
  for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = name === ""
        ? "anonymous"
        : name === "[heap]"
        ? "mallocHeap"
        : /\/deno$/.test(name)
        ? "executable"
        : "other";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  const total = kb.executable + kb.mallocHeap + kb.anonymous + kb.other;
  return {
    total: mib(total),
    executable: mib(kb.executable),
    mallocHeap: mib(kb.mallocHeap),
    anonymous: mib(kb.anonymous),
    other: mib(kb.other),
  };
}

/** The scripts one V8 isolate compiled, as its inspector reports them. */
export interface ScriptText {
  scripts: number;
  bytes: number;
  /** Bytes of inline source maps (`sourceMappingURL` data URLs). */
  inlineMapBytes: number;
}

/** A connection to the inspector behind `inspectPort`. */
async function inspector(inspectPort: number): Promise<WebSocket> {
  const targets = await (await fetch(`http://127.0.0.1:${inspectPort}/json`)).json();
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return ws;
}

/** V8's heap by kind of object (MiB), and its `data:` URL strings. */
export interface HeapParts {
  byKind: Record<string, number>;
  dataUrlMb: number;
}

/** A heap snapshot of the isolate behind `inspectPort`, summed by kind. */
async function heapParts(inspectPort: number): Promise<HeapParts> {
  const ws = await inspector(inspectPort);
  const chunks: string[] = [];
  const done = Promise.withResolvers<void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(m.params.chunk);
    if (m.id === 2) done.resolve();
  };
  ws.send(JSON.stringify({ id: 1, method: "HeapProfiler.enable", params: {} }));
  ws.send(JSON.stringify({ id: 2, method: "HeapProfiler.takeHeapSnapshot", params: {} }));
  await done.promise;
  ws.close();
  const snap = JSON.parse(chunks.join(""));
  const fields: string[] = snap.snapshot.meta.node_fields;
  const kinds: string[] = snap.snapshot.meta.node_types[0];
  const [type, name, size] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const bytes: Record<string, number> = {};
  let dataUrl = 0;
  const nodes: number[] = snap.nodes;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const kind = kinds[nodes[i + type]];
    bytes[kind] = (bytes[kind] ?? 0) + nodes[i + size];
    if (kind === "string" && String(snap.strings[nodes[i + name]]).startsWith("data:")) {
      dataUrl += nodes[i + size];
    }
  }
  const byKind: Record<string, number> = {};
  for (const [k, v] of Object.entries(bytes)) if (v >= 1024 * 1024 / 10) byKind[k] = mib(v / 1024);
  return { byKind, dataUrlMb: mib(dataUrl / 1024) };
}

/** Every script the isolate behind `inspectPort` has compiled so far. */
async function scriptText(inspectPort: number): Promise<ScriptText> {
  const ws = await inspector(inspectPort);
  const out: ScriptText = { scripts: 0, bytes: 0, inlineMapBytes: 0 };
  let last = performance.now();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.method !== "Debugger.scriptParsed") return;
    out.scripts++;
    out.bytes += m.params.length ?? 0;
    const map = String(m.params.sourceMapURL ?? "");
    if (map.startsWith("data:")) out.inlineMapBytes += map.length;
    last = performance.now();
  };
  // Enabling the debugger reports every script already compiled.
  ws.send(JSON.stringify({ id: 1, method: "Debugger.enable", params: {} }));
  while (performance.now() - last < 500) await sleep(100);
  ws.close();
  return out;
}

/** A free loopback port. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Idle memory by mapping and the compiled script text of one server. */
async function partsOf(args: string[], command: (flags: string[]) => ServerCommand) {
  const server = await startStdioServer(args, command([]));
  let mappings: MappingParts;
  try {
    await listAllTools(server.client);
    await sleep(SETTLE_MS);
    mappings = mappingParts(server.pid);
  } finally {
    await server.close();
  }
  const port = freePort();
  const inspected = await startStdioServer(args, command([`--inspect=127.0.0.1:${port}`]));
  try {
    await listAllTools(inspected.client);
    await sleep(SETTLE_MS);
    const scripts = await scriptText(port);
    return { mappings, scripts, heap: await heapParts(port) };
  } finally {
    await inspected.close();
  }
}

/** Ours (every toolset) and hello-world. */
export async function memoryParts() {
  const sim = await startSimProcess();
  try {
    return {
      ours: await partsOf(singleRouterArgs(sim.host, sim.port), denoRun),
      hello: await partsOf([], helloServer),
    };
  } finally {
    await sim.close();
  }
}

if (import.meta.main) {
  const r = await memoryParts();
  const kb = (n: number) => `${Math.round(n / 1024)} KiB`;
  console.log("| | ours | hello-world |\n| --- | --- | --- |");
  for (const k of ["total", "executable", "mallocHeap", "anonymous", "other"] as const) {
    console.log(`| RSS ${k} (MiB) | ${r.ours.mappings[k]} | ${r.hello.mappings[k]} |`);
  }
  console.log(`| scripts compiled | ${r.ours.scripts.scripts} | ${r.hello.scripts.scripts} |`);
  console.log(`| script text | ${kb(r.ours.scripts.bytes)} | ${kb(r.hello.scripts.bytes)} |`);
  console.log(
    `| … of it inline source maps | ${kb(r.ours.scripts.inlineMapBytes)} | ` +
      `${kb(r.hello.scripts.inlineMapBytes)} |`,
  );
  const kinds = new Set([...Object.keys(r.ours.heap.byKind), ...Object.keys(r.hello.heap.byKind)]);
  for (const k of kinds) {
    console.log(
      `| V8 heap: ${k} (MiB) | ${r.ours.heap.byKind[k] ?? 0} | ${r.hello.heap.byKind[k] ?? 0} |`,
    );
  }
  console.log(
    `| … \`data:\` URL strings (MiB) | ${r.ours.heap.dataUrlMb} | ${r.hello.heap.dataUrlMb} |`,
  );
}
