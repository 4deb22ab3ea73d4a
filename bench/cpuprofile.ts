/**
 * Reading a V8 `.cpuprofile` (what `deno run --cpu-prof` writes): self and
 * inclusive time per function and per part of the program (ssh2, zod, the
 * MCP SDK, Deno's Node compatibility, each lib/ folder, GC), within a time
 * window, as Markdown tables.
 *
 * @module
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The JSON of a `.cpuprofile`. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Time (ms) and share (% of the non-idle time in the window) of one row. */
export interface Row {
  name: string;
  ms: number;
  percent: number;
}

/** What one profile says. */
export interface ProfileSummary {
  /** Milliseconds of the window, and of it not idle. */
  windowMs: number;
  busyMs: number;
  /** Self time by part of the program. */
  parts: Row[];
  /** Self time by function. */
  selfTop: Row[];
  /** Inclusive time (the function and what it calls) by function. */
  inclusiveTop: Row[];
}

const IDLE = new Set(["(idle)", "(program)", "(root)"]);

/** The part of the program a frame belongs to. */
export function partOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === "(garbage collector)") return "GC";
  if (IDLE.has(functionName)) return "idle";
  if (!url) return "V8 builtins / native";
  const npm = /\/npm\/registry\.npmjs\.org\/(@[^/]+\/[^/]+|[^/]+)\//.exec(url);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith("node:") || url.includes("ext:deno_node")) return "Node compatibility";
  if (url.startsWith("ext:")) return `Deno runtime (${url.slice(4).split("/")[0]})`;
  const lib = /\/(lib\/[^/]+|main\.ts)/.exec(url);
  if (lib) return lib[1].replace(/\.ts$/, "");
  return url;
}

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/(npm\/registry\.npmjs\.org|lib|ext:)\/?/, "$1/");
  const where = frame.url ? ` ${file.split("/").slice(-3).join("/")}:${frame.lineNumber + 1}` : "";
  return `${frame.functionName || "(anonymous)"}${where}`;
}

function rows(totals: Map<string, number>, busyUs: number, top: number): Row[] {
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => ({
    name,
    ms: Math.round(us / 100) / 10,
    percent: Math.round((us / busyUs) * 1000) / 10,
  }));
}

/**
 * Summarise `profile` between `fromUs` and `toUs` (microseconds on the
 * profile's clock; default: all of it).
 */
export function summarizeProfile(
  profile: CpuProfile,
  opts: { fromUs?: number; toUs?: number; top?: number } = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const parts = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let t = profile.startTime;
  let windowUs = 0;
  let busyUs = 0;
  const from = opts.fromUs ?? -Infinity;
  const to = opts.toUs ?? Infinity;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    // A sample stands for the time until the next one.
    const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    if (t < from || t > to) continue;
    windowUs += dt;
    const node = byId.get(profile.samples[i])!;
    const part = partOf(node.callFrame);
    if (part === "idle") continue;
    busyUs += dt;
    parts.set(part, (parts.get(part) ?? 0) + dt);
    const name = label(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (IDLE.has(n.callFrame.functionName)) continue;
      const key = label(n.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const top = opts.top ?? 25;
  return {
    windowMs: Math.round(windowUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    parts: rows(parts, busyUs, 40),
    selfTop: rows(self, busyUs, top),
    inclusiveTop: rows(inclusive, busyUs, top),
  };
}

/**
 * The stretch between the last two quiet spells of at least `quietMs` (no
 * busy sample): a harness sleeps before and after what it measures, so this
 * is the measured work, without start-up or shutdown. Null when there are
 * fewer than two such spells.
 */
export function measuredWindow(
  profile: CpuProfile,
  quietMs = 300,
): { fromUs: number; toUs: number } | null {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const gaps: { start: number; end: number }[] = [];
  let t = profile.startTime;
  let lastBusy = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const busy = partOf(byId.get(profile.samples[i])!.callFrame) !== "idle";
    if (!busy) continue;
    if (t - lastBusy >= quietMs * 1000) gaps.push({ start: lastBusy, end: t });
    lastBusy = t;
  }
  if (gaps.length < 2) return null;
  const [a, b] = gaps.slice(-2);
  return { fromUs: a.end, toUs: b.start };
}

/**
 * The longest stretch of work between two quiet spells of at least
 * `quietMs` (no busy sample), by busy time: one fan-out among a server's
 * start-up, its idle collections and its shutdown. Null when the profile
 * has no two such spells.
 */
export function longestStretch(
  profile: CpuProfile,
  quietMs = 300,
): { fromUs: number; toUs: number } | null {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let best: { fromUs: number; toUs: number; busy: number } | null = null;
  let t = profile.startTime;
  let lastBusy = profile.startTime;
  let from: number | undefined;
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (partOf(byId.get(profile.samples[i])!.callFrame) === "idle") continue;
    if (t - lastBusy >= quietMs * 1000) {
      if (from !== undefined && (!best || busy > best.busy)) {
        best = { fromUs: from, toUs: lastBusy, busy };
      }
      from = t;
      busy = 0;
    }
    busy += profile.timeDeltas[i + 1] ?? 0;
    lastBusy = t;
  }
  return best && { fromUs: best.fromUs, toUs: best.toUs };
}

/**
 * The `.cpuprofile` a server wrote into `dir` as it exited (`deno run
 * --cpu-prof --cpu-prof-dir=DIR`), once it is there and parses whole.
 */
export async function profileIn(dir: string): Promise<{ path: string; profile: CpuProfile }> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let file: string | undefined;
  for (let i = 0; i < 100 && !file; i++) {
    await sleep(100);
    file = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".cpuprofile"))?.name;
  }
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const path = `${dir}/${file}`;
  // The server writes the profile as it exits: wait until it parses.
  for (let i = 0; i < 50; i++) {
    try {
      return { path, profile: JSON.parse(await Deno.readTextFile(path)) };
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${path} is not a complete profile`);
}

/** The summary as Markdown tables. */
export function profileMarkdown(s: ProfileSummary): string {
  const table = (title: string, r: Row[]) =>
    [
      `| ${title} | ms | % of busy |`,
      "| --- | --- | --- |",
      ...r.map((x) => `| ${x.name.replace(/\|/g, "\\|")} | ${x.ms} | ${x.percent} |`),
    ].join("\n");
  return [
    `window ${s.windowMs} ms, busy ${s.busyMs} ms`,
    "",
    table("part (self time)", s.parts),
    "",
    table("function (self time)", s.selfTop),
    "",
    table("function (inclusive time)", s.inclusiveTop),
  ].join("\n");
}
