/**
 * `router_monitor`: sample interface traffic (`monitor-traffic`, through
 * `router_interface_traffic`) and system resources (through
 * `router_get_system_resource`) for a bounded time, with MCP progress after
 * each sample, and summarize each counter (min, mean, max, last). Bounded
 * by time (at most 600 s) and size (at most 300 samples, 8 interfaces).
 *
 * @module
 */
import * as z from "zod";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext } from "../tool.ts";

/** Most samples one call takes. */
export const MAX_SAMPLES = 300;

const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
};

/** A number as RouterOS prints it: `5`, `5%`, `30.5MiB` (bytes), or undefined. */
export function quantity(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(%|B|KiB|MiB|GiB|TiB)?\s*$/.exec(value);
  if (!m) return undefined;
  const unit = m[2] === "%" ? 1 : UNITS[m[2] ?? ""];
  return Number(m[1]) * unit;
}

/** Resource counters sampled, by the get tool's output names. */
const RESOURCE_COUNTERS = ["cpu_load", "free_memory", "free_hdd_space"];

/** A running min/mean/max of one counter. */
interface Stats {
  min: number;
  max: number;
  sum: number;
  n: number;
  last: number;
}

function add(all: Map<string, Stats>, counter: string, v: number | undefined) {
  if (v === undefined) return;
  const s = all.get(counter);
  if (!s) all.set(counter, { min: v, max: v, sum: v, n: 1, last: v });
  else {
    s.min = Math.min(s.min, v);
    s.max = Math.max(s.max, v);
    s.sum += v;
    s.n++;
    s.last = v;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function sample(
  ctx: ToolContext,
  interfaces: readonly string[],
  resources: boolean,
  stats: Map<string, Stats>,
) {
  const [traffic, resource] = await Promise.all([
    interfaces.length
      ? ctx.call({ name: "router_interface_traffic", args: { interfaces } })
      : undefined,
    resources ? ctx.call({ name: "router_get_system_resource", args: {} }) : undefined,
  ]);
  for (const item of (traffic?.structured.items ?? []) as Record<string, unknown>[]) {
    for (const [k, v] of Object.entries(item)) {
      if (k !== "name") add(stats, `${item.name} ${k}`, quantity(v));
    }
  }
  const res = (resource?.structured.item ?? {}) as Record<string, unknown>;
  for (const k of RESOURCE_COUNTERS) add(stats, k, quantity(res[k] ?? res[k.replaceAll("_", "-")]));
}

const COUNTER = z.object({
  counter: z.string().describe(
    '"ether1 rx_bits_per_second", "cpu_load" (%), "free_memory" (bytes)',
  ),
  min: z.number(),
  mean: z.number(),
  max: z.number(),
  last: z.number(),
});

/** `router_monitor`. */
export const monitor = defineTool({
  name: "router_monitor",
  title: "Sample traffic and resources",
  description:
    "Sample interface traffic rates and/or system resources (CPU load, free memory and disk) " +
    "every `interval` seconds for `seconds`, with progress notifications; returns min, mean, " +
    `max and last per counter. At most ${MAX_SAMPLES} samples; cancel to stop early.`,
  toolset: "operations",
  input: {
    interfaces: z.array(z.string().min(1).max(255)).max(8).optional().describe(
      'Interfaces, e.g. ["ether1"]',
    ),
    resources: z.boolean().optional().describe("Sample resources (default: without interfaces)"),
    seconds: z.number().int().min(1).max(600).optional().describe("How long (default 10)"),
    interval: z.number().min(1).max(60).optional().describe("Seconds between samples (default 1)"),
  },
  output: {
    samples: z.number(),
    seconds: z.number().describe("Time from the first sample to the last"),
    stopped_early: z.boolean().describe("Cancelled before the last sample"),
    counters: z.array(COUNTER),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interfaces: ["ether1"], resources: true, seconds: 2 },
  async handler(args, ctx) {
    const interfaces = args.interfaces ?? [];
    const resources = args.resources ?? interfaces.length === 0;
    const interval = (args.interval ?? 1) * 1000;
    const total = Math.min(
      MAX_SAMPLES,
      Math.max(1, Math.floor(((args.seconds ?? 10) * 1000) / interval)),
    );
    const stats = new Map<string, Stats>();
    const start = performance.now();
    let taken = 0;
    for (let i = 0; i < total && !ctx.signal?.aborted; i++) {
      await sleep(start + i * interval - performance.now(), ctx.signal);
      if (ctx.signal?.aborted) break;
      await sample(ctx, interfaces, resources, stats);
      taken++;
      await ctx.progress?.(taken, total, `sample ${taken} of ${total}`);
    }
    const counters = [...stats].map(([counter, s]) => ({
      counter,
      min: s.min,
      mean: Math.round((s.sum / s.n) * 100) / 100,
      max: s.max,
      last: s.last,
    }));
    const seconds = Math.round(performance.now() - start) / 1000;
    return {
      structured: { samples: taken, seconds, stopped_early: taken < total, counters },
      text: `${taken} samples over ${seconds} s\n` +
        renderTable(counters, ["counter", "min", "mean", "max", "last"]),
    };
  },
});
