/**
 * `router_traceroute`: the path to an address, one entry per hop, bounded
 * in hops, probes and time. RouterOS 7 only: 6.49 has no as-value form of
 * traceroute, and its table output is never parsed.
 *
 * @module
 */
import * as z from "zod";
import { bracket, cmd } from "../../routeros/command.ts";
import { UnsupportedError } from "../../routeros/errors.ts";
import { rawText } from "../../routeros/schema/convert.ts";
import { asNumber, durationMs } from "../../routeros/values.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { PROBE } from "../tool.ts";
import { HOST } from "./ping.ts";
import { checkBudget, defined, ms } from "./probe_budget.ts";

const KEYS = [".section", "address", "loss", "sent", "last", "avg", "best", "worst", "status"];

/** `router_traceroute`. */
export const traceroute = defineTool({
  name: "router_traceroute",
  title: "Traceroute from the router",
  description:
    "Trace the path from the router to an address: one entry per hop with its address, loss and " +
    "RTTs. Bounded: max_hops x count x timeout stays under 25 s (defaults: 15 hops, 1 probe, 1 s). " +
    "Needs RouterOS 7.",
  toolset: "diagnostics",
  input: {
    address: HOST.describe("Destination address or host name"),
    max_hops: z.number().int().min(1).max(30).optional().describe(
      "Maximum hops (1-30, default 15)",
    ),
    count: z.number().int().min(1).max(5).optional().describe("Probes per hop (1-5, default 1)"),
    timeout_ms: z.number().int().min(100).max(3000).optional().describe(
      "Milliseconds to wait for each probe (100-3000, default 1000)",
    ),
    src_address: z.string().max(64).optional().describe("Source address to send from"),
  },
  output: {
    address: z.string(),
    hops: z.array(z.object({
      hop: z.number(),
      address: z.string().optional(),
      loss_percent: z.number().optional(),
      sent: z.number().optional(),
      last_ms: z.number().optional(),
      avg_ms: z.number().optional(),
      best_ms: z.number().optional(),
      worst_ms: z.number().optional(),
      status: z.string().optional(),
    })),
  },
  annotations: PROBE,
  perDevice: true,
  example: { address: "127.0.0.1", max_hops: 3, timeout_ms: 200 },
  async handler(args, ctx) {
    const hops = args.max_hops ?? 15;
    const count = args.count ?? 1;
    const timeout = args.timeout_ms ?? 1000;
    checkBudget(ctx, hops * count * timeout + 2000, "this traceroute");
    const dialect = await ctx.client.dialect();
    if (dialect.major < 7) {
      throw new UnsupportedError(
        `router_traceroute needs RouterOS 7: RouterOS ${dialect.release.text} has no as-value form of traceroute`,
      );
    }
    const script = await ctx.client.script();
    const section = script.records(
      bracket(cmd("/tool", "traceroute", {
        args: {
          address: args.address,
          "max-hops": hops,
          count,
          timeout: ms(timeout),
          "src-address": args.src_address,
        },
        switches: ["as-value"],
      })),
      true,
      KEYS,
    );
    let records = (await ctx.client.run(script, { idempotent: true, what: "/tool/traceroute" }))
      .get(section);
    // Each round of probes is a section; the last one holds the final figures.
    const rounds = records.map((r) => asNumber(r[".section"])).filter((n): n is number =>
      n !== undefined
    );
    if (rounds.length) {
      const last = Math.max(...rounds);
      records = records.filter((r) => asNumber(r[".section"]) === last);
    }
    const list = records.map((r, i) =>
      defined({
        hop: i + 1,
        address: r.address === undefined ? undefined : rawText(r.address),
        loss_percent: asNumber(String(r.loss ?? "").replace("%", "")),
        sent: asNumber(r.sent),
        last_ms: durationMs(r.last),
        avg_ms: durationMs(r.avg),
        best_ms: durationMs(r.best),
        worst_ms: durationMs(r.worst),
        status: r.status ? rawText(r.status) : undefined,
      })
    );
    return {
      structured: { address: args.address, hops: list },
      text: renderTable(list, [
        "hop",
        "address",
        "loss_percent",
        "sent",
        "last_ms",
        "avg_ms",
        "status",
      ]),
    };
  },
});
