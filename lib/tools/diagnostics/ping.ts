/**
 * `router_ping`: ICMP echo from the router, bounded in count and time.
 *
 * Which command and arguments, by release (the per-release command trees):
 * RouterOS 7 pings with `/tool ping` (7.24 has no root `/ping`), takes
 * `vrf` and has `as-value`; RouterOS 6 has `/ping` with `routing-table` and
 * no as-value form, so only the reply count is read there.
 *
 * @module
 */
import * as z from "zod";
import { bracket, cmd } from "../../routeros/command.ts";
import { unparsable } from "../../routeros/errors.ts";
import { rawText } from "../../routeros/schema/convert.ts";
import { asNumber, durationMs } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { PROBE } from "../tool.ts";
import { checkBudget, defined, ms } from "./probe_budget.ts";

/** An address or host name (checked; quoted when sent). */
export const HOST = z.string().min(1).max(255).regex(
  /^[A-Za-z0-9][A-Za-z0-9.:%_-]*$/,
  "an IPv4/IPv6 address or a host name",
);

const REPLY = z.object({
  seq: z.number().optional(),
  host: z.string().optional(),
  size: z.number().optional(),
  ttl: z.number().optional(),
  time_ms: z.number().optional(),
  status: z.string().optional(),
});

/** `router_ping`. */
export const ping = defineTool({
  name: "router_ping",
  title: "Ping from the router",
  description:
    "Send ICMP echo requests from the router to an address or host name and report each reply " +
    "(RTT, TTL) plus sent/received/loss and min/avg/max RTT. Bounded: at most 20 packets and 25 s. " +
    "RouterOS 6 reports only how many replies arrived.",
  toolset: "diagnostics",
  core: true,
  input: {
    address: HOST.describe("Address or host name to ping, e.g. 192.168.88.1 or example.com"),
    count: z.number().int().min(1).max(20).optional().describe("Echo requests (1-20, default 4)"),
    interval_ms: z.number().int().min(10).max(5000).optional().describe(
      "Milliseconds between requests (10-5000, default 1000); count x interval stays under 25 s",
    ),
    size: z.number().int().min(28).max(1500).optional().describe("Packet size in bytes"),
    src_address: z.string().max(64).optional().describe("Source address to send from"),
    interface: z.string().max(255).optional().describe("Interface to send from"),
    vrf: z.string().max(255).optional().describe(
      "VRF to ping in (RouterOS 7); the routing table on RouterOS 6",
    ),
  },
  output: {
    address: z.string(),
    sent: z.number(),
    received: z.number(),
    packet_loss_percent: z.number(),
    min_rtt_ms: z.number().optional(),
    avg_rtt_ms: z.number().optional(),
    max_rtt_ms: z.number().optional(),
    replies: z.array(REPLY).describe("One entry per request (RouterOS 7)"),
  },
  annotations: PROBE,
  perDevice: true,
  example: { address: "127.0.0.1", count: 2, interval_ms: 100 },
  async handler(args, ctx) {
    const count = args.count ?? 4;
    const interval = args.interval_ms ?? 1000;
    checkBudget(ctx, count * interval + 2000, "this ping");
    const dialect = await ctx.client.dialect();
    const v6 = dialect.major < 7;
    const script = await ctx.client.script();
    const pingArgs = {
      address: args.address,
      count,
      interval: ms(interval),
      size: args.size,
      "src-address": args.src_address,
      interface: args.interface,
      [v6 ? "routing-table" : "vrf"]: args.vrf,
    };
    if (v6) {
      // RouterOS 6 prints the ping table inside :put, then the reply count.
      const table = script.lines(`:put ${bracket(cmd("/", "ping", { args: pingArgs }))}`);
      const lines = (await ctx.client.run(script, { idempotent: true, what: "/ping" })).get(table)
        .filter((l) => l.trim() !== "");
      const received = asNumber(lines.at(-1) ?? "");
      if (received === undefined) {
        throw unparsable(lines.join("\n"), "the ping result was not understood");
      }
      return result(args.address, count, received, []);
    }
    const records = script.records(
      bracket(cmd("/tool", "ping", { args: pingArgs, switches: ["as-value"] })),
      true,
      ["seq", "host", "size", "ttl", "time", "status"],
    );
    const replies = (await ctx.client.run(script, { idempotent: true, what: "/tool/ping" }))
      .get(records).map((r) =>
        defined({
          seq: asNumber(r.seq),
          host: r.host === undefined ? undefined : rawText(r.host),
          size: asNumber(r.size),
          ttl: asNumber(r.ttl),
          time_ms: durationMs(r.time),
          status: r.status === undefined ? undefined : rawText(r.status),
        })
      );
    return result(
      args.address,
      replies.length,
      replies.filter((r) => r.time_ms !== undefined).length,
      replies,
    );
  },
});

function result(address: string, sent: number, received: number, replies: z.infer<typeof REPLY>[]) {
  const times = replies.map((r) => r.time_ms).filter((t): t is number => t !== undefined);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const structured = defined({
    address,
    sent,
    received,
    packet_loss_percent: sent === 0 ? 100 : round(((sent - received) / sent) * 100),
    min_rtt_ms: times.length ? Math.min(...times) : undefined,
    avg_rtt_ms: times.length ? round(times.reduce((a, b) => a + b, 0) / times.length) : undefined,
    max_rtt_ms: times.length ? Math.max(...times) : undefined,
    replies,
  });
  const text =
    `${address}: sent=${sent} received=${received} loss=${structured.packet_loss_percent}%` +
    (times.length
      ? ` rtt min/avg/max=${structured.min_rtt_ms}/${structured.avg_rtt_ms}/${structured.max_rtt_ms} ms`
      : "");
  return { structured, text };
}
