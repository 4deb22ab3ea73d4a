/**
 * `router_sniff_packets`: a few seconds of packet headers on one
 * interface, from `/tool sniffer quick` (`lib/routeros/sniffer_quick.ts`
 * says which command and how its table is read, by release).
 *
 * Role `admin`: the sniffer shows other people's traffic packet by packet
 * (who talks to whom, when, on which port, with their MAC addresses),
 * which RouterOS itself keeps behind a policy of its own (`sniff`); a
 * read key must not be able to watch users. It changes nothing on the
 * router and sends nothing, so its annotations are those of a read that
 * gives another answer each time. Payloads are never asked for
 * (`show-frame` is not sent).
 *
 * @module
 */
import * as z from "zod";
import { parseSniffer, snifferCommand } from "../../routeros/sniffer_quick.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { READ } from "../tool.ts";
import { IFACE, IPV4_PREFIX, PROTOCOL } from "./diagnostic_args.ts";
import { runTimed } from "./timed_run.ts";

/** `router_sniff_packets`. */
export const sniffPackets = defineTool({
  name: "router_sniff_packets",
  title: "Capture packet headers (sniffer quick)",
  description:
    "Capture packet headers on one interface for a few seconds with the RouterOS quick " +
    "sniffer: time, direction, MACs, addresses and ports, protocol and size of each packet, " +
    "newest kept. Filters: ip_address, port, protocol, direction. No payloads. Bounded: 1-20 s, " +
    "at most 200 packets. Admin only: it shows other users' traffic.",
  toolset: "diagnostics",
  role: "admin",
  input: {
    interface: IFACE.describe("Interface to capture on, e.g. bridge"),
    duration_s: z.number().int().min(1).max(20).optional().describe(
      "Seconds to capture (1-20, default 3)",
    ),
    max_packets: z.number().int().min(1).max(200).optional().describe(
      "Packets to return, the newest (1-200, default 50)",
    ),
    ip_address: IPV4_PREFIX.optional().describe("Only packets from or to this IPv4 address/prefix"),
    port: z.number().int().min(1).max(65535).optional().describe("Only packets with this port"),
    protocol: PROTOCOL.optional().describe("Only packets of this IP protocol, e.g. tcp"),
    direction: z.enum(["any", "rx", "tx"]).optional().describe(
      "rx received, tx sent, any (default) both",
    ),
  },
  output: {
    interface: z.string(),
    duration_s: z.number(),
    packets: z.array(z.object({
      time_s: z.number().describe("Seconds since the capture started"),
      num: z.number(),
      interface: z.string(),
      direction: z.enum(["rx", "tx"]).optional(),
      src_mac: z.string().optional(),
      dst_mac: z.string().optional(),
      src_address: z.string().optional(),
      src_port: z.number().optional(),
      dst_address: z.string().optional(),
      dst_port: z.number().optional(),
      service: z.string().optional(),
      protocol: z.string().optional().describe("MAC:IP protocol, e.g. ip:tcp"),
      size: z.number().optional().describe("Frame size in bytes"),
      vlan: z.string().optional(),
    })),
    more: z.number().describe("Older packets left out by max_packets"),
  },
  annotations: { ...READ, idempotentHint: false },
  perDevice: true,
  example: { interface: "bridge", duration_s: 1, max_packets: 10 },
  async handler(args, ctx) {
    const seconds = args.duration_s ?? 3;
    const max = args.max_packets ?? 50;
    const dialect = await ctx.client.dialect();
    const statement = snifferCommand(dialect, {
      interface: args.interface,
      durationS: seconds,
      rows: max,
      ipAddress: args.ip_address,
      port: args.port,
      protocol: args.protocol,
      direction: args.direction,
    });
    const text = await runTimed(ctx, {
      statement,
      seconds,
      what: `sniffer on ${args.interface}`,
      path: "/tool/sniffer/quick",
      idempotent: true,
    });
    const all = parseSniffer(text);
    // Releases before 7.16 take no `rows`: the newest are kept here.
    const packets = all.slice(-max);
    const structured = {
      interface: args.interface,
      duration_s: seconds,
      packets,
      more: all.length - packets.length,
    };
    return {
      structured,
      text: `${packets.length} packet(s) on ${args.interface} in ${seconds} s` +
        (structured.more ? ` (${structured.more} older left out)` : "") + "\n" +
        renderTable(packets, [
          "time_s",
          "direction",
          "src_address",
          "src_port",
          "dst_address",
          "dst_port",
          "protocol",
          "size",
        ]),
    };
  },
});
