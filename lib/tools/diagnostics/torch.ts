/**
 * `router_torch`: the top talkers of one interface, from `/tool torch`
 * run for a few seconds (`lib/routeros/torch.ts` says which command and
 * how its table is read, by release).
 *
 * Role `read` with read annotations that are not idempotent: torch
 * changes no configuration and sends nothing, and what it shows (flows by
 * address, port and rate) is what the connection table already shows a
 * reader; RouterOS turns fast path off while it runs, so it is bounded.
 *
 * @module
 */
import * as z from "zod";
import { parseTorch, TORCH_BREAKDOWNS, torchCommand } from "../../routeros/torch.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import type { Annotations } from "../tool.ts";
import { READ } from "../tool.ts";
import { runTimed } from "./timed_run.ts";
import { IFACE, IPV4_PREFIX, PROTOCOL } from "./diagnostic_args.ts";

/** Reads that change nothing but give another answer each time. */
const OBSERVE: Annotations = { ...READ, idempotentHint: false };

const FLOW = z.object({
  src_address: z.string().optional(),
  src_port: z.number().optional(),
  dst_address: z.string().optional(),
  dst_port: z.number().optional(),
  service: z.string().optional(),
  ip_protocol: z.string().optional(),
  mac_protocol: z.string().optional(),
  vlan_id: z.number().optional(),
  dscp: z.number().optional(),
  tx_bps: z.number().describe("Bits/s the interface sends towards src_address"),
  rx_bps: z.number().describe("Bits/s the interface receives from src_address"),
  tx_packets_per_s: z.number(),
  rx_packets_per_s: z.number(),
});

/** `router_torch`. */
export const torch = defineTool({
  name: "router_torch",
  title: "Top talkers of an interface (torch)",
  description:
    "Watch one interface with RouterOS torch for a few seconds and list its flows, busiest " +
    "first (tx+rx): addresses, ports, protocol and rates in bits/s and packets/s. group_by " +
    "chooses how flows are told apart (default src-address). Bounded: 2-20 s, at most 100 rows. " +
    "RouterOS turns fast path off while torch runs.",
  toolset: "diagnostics",
  input: {
    interface: IFACE.describe("Interface to watch, e.g. bridge or ether1"),
    duration_s: z.number().int().min(2).max(20).optional().describe(
      "Seconds to watch (2-20, default 3)",
    ),
    group_by: z.array(z.enum(TORCH_BREAKDOWNS)).min(1).max(TORCH_BREAKDOWNS.length).optional()
      .describe('Break flows down by these fields (default ["src-address"])'),
    src_address: IPV4_PREFIX.optional().describe(
      "Only flows whose far-side address is in this IPv4 prefix",
    ),
    dst_address: IPV4_PREFIX.optional().describe(
      "Only flows whose other end is in this IPv4 prefix",
    ),
    port: z.number().int().min(1).max(65535).optional().describe("Only flows with this port"),
    protocol: PROTOCOL.optional().describe("Only flows of this IP protocol, e.g. tcp"),
    limit: z.number().int().min(1).max(100).optional().describe("Rows to return (default 20)"),
  },
  output: {
    interface: z.string(),
    duration_s: z.number(),
    flows: z.array(FLOW).describe("Busiest first"),
    more: z.number().describe("Flows left out by limit"),
    totals: FLOW.optional().describe("The totals row, where the release prints one (6.x)"),
  },
  annotations: OBSERVE,
  perDevice: true,
  example: { interface: "bridge", duration_s: 2 },
  async handler(args, ctx) {
    const seconds = args.duration_s ?? 3;
    const dialect = await ctx.client.dialect();
    const statement = torchCommand(dialect, {
      interface: args.interface,
      durationS: seconds,
      breakdown: args.group_by ?? ["src-address"],
      srcAddress: args.src_address,
      dstAddress: args.dst_address,
      port: args.port,
      protocol: args.protocol,
    });
    const text = await runTimed(ctx, {
      statement,
      seconds,
      what: `torch on ${args.interface}`,
      path: "/tool/torch",
      idempotent: true,
    });
    const { flows, totals } = parseTorch(text);
    flows.sort((a, b) => b.tx_bps + b.rx_bps - (a.tx_bps + a.rx_bps));
    const limit = args.limit ?? 20;
    const shown = flows.slice(0, limit);
    const structured = {
      interface: args.interface,
      duration_s: seconds,
      flows: shown,
      more: flows.length - shown.length,
      ...(totals ? { totals } : {}),
    };
    const columns = ["src_address", "src_port", "dst_address", "dst_port", "ip_protocol"]
      .filter((c) => shown.some((f) => (f as unknown as Record<string, unknown>)[c] !== undefined));
    const summary = `torch on ${args.interface}, ${seconds} s, ${flows.length} flow(s)` +
      (structured.more ? ` (${structured.more} more)` : "") + "\n" +
      renderTable(shown, [...columns, "tx_bps", "rx_bps", "tx_packets_per_s", "rx_packets_per_s"]);
    return { structured, text: summary };
  },
});
