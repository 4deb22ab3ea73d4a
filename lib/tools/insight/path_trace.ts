/**
 * `router_trace_path`: follow a destination hop by hop across the fleet
 * (`lib/routeros/path_trace.ts`): on each router the route lookup (routing
 * marks, policy rules, VRFs; the routes holding the address are asked of
 * the router with `router_check_route`), the firewall chains on the way
 * walked with the lock-out guard's rule matcher, NAT, and the next router:
 * the fleet device that holds the next hop's address. Every read is a
 * nested call through the guard chain; only the routers on the path are
 * read in full (every device's addresses are read to find the owners).
 *
 * @module
 */
import * as z from "zod";
import { ArgumentError } from "../../routeros/errors.ts";
import { interfaceListMembers } from "../../routeros/interface_lists.ts";
import {
  type TraceFacts,
  type TraceFleet,
  type TraceHop,
  tracePath,
  type TraceResult,
} from "../../routeros/path_trace.ts";
import type { Row } from "../../routeros/route_lookup.ts";
import { type FirewallRule, isYes } from "../../routeros/rule_match.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { FLEET_CONCURRENCY } from "../fleet/query.ts";
import { READ, type ToolContext } from "../tool.ts";
import { DeviceReads, eachLimited, listsNamed, PRINT_TOOL } from "./device_reads.ts";

/** A route as `router_check_route` returns it, back in RouterOS names and text. */
function routeRow(item: Record<string, unknown>): Row {
  const row: Record<string, string> = {};
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined || v === null) continue;
    const key = k === "id" ? ".id" : k.replaceAll("_", "-");
    row[key] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return row;
}

/** What the trace reads of one router. */
async function traceFacts(ctx: ToolContext, device: string, v6: boolean): Promise<TraceFacts> {
  const fam = v6 ? "/ipv6" : "/ip";
  const reads = new DeviceReads(ctx, device);
  const m = await reads.menus([
    `${fam}/address`,
    "/interface",
    "/interface/list",
    "/interface/list/member",
    `${fam}/firewall/filter`,
    `${fam}/firewall/nat`,
    `${fam}/firewall/mangle`,
    `${fam}/firewall/raw`,
    "/ip/vrf",
    "/routing/rule",
    "/ip/route/rule",
    "/ip/ipsec/policy",
  ]);
  const rules = (p: string) => (m.get(`${fam}/firewall/${p}`) ?? []) as FirewallRule[];
  const all = ["filter", "nat", "mangle", "raw"].flatMap(rules);
  const addressLists = await reads.addressLists(listsNamed(all), `${fam}/firewall/address-list`);
  const interfaces = m.get("/interface") ?? [];
  // Only the default policy template (or none): no packet is IPsec-protected.
  const policies = m.get("/ip/ipsec/policy");
  const noIpsec = policies !== undefined &&
    policies.every((p) => isYes(p.template) || isYes(p.disabled));
  return {
    title: device,
    noIpsec,
    ...(reads.truncated.length
      ? {
        notes: reads.truncated.map((p) =>
          `${p} has more items than router_print returns (1000): the rest was not evaluated`
        ),
      }
      : {}),
    routing: {
      routes: [],
      rules: m.get("/routing/rule") ?? m.get("/ip/route/rule") ?? [],
      vrfs: m.get("/ip/vrf") ?? [],
      addresses: m.get(`${fam}/address`) ?? [],
    },
    filter: rules("filter"),
    nat: rules("nat"),
    mangle: rules("mangle"),
    raw: rules("raw"),
    facts: {
      interfaceLists: interfaceListMembers(
        m.get("/interface/list") ?? [],
        m.get("/interface/list/member") ?? [],
        interfaces,
      ),
      addressLists,
      interfaceTypes: new Map(
        interfaces.filter((i) => i.name && i.type).map((i) => [i.name!, i.type!]),
      ),
    },
  };
}

/** Every fleet address and who holds it; the devices that could not be read. */
async function owners(ctx: ToolContext, devices: readonly string[], v6: boolean) {
  const byAddress = new Map<string, { device: string; interface: string }>();
  const unread: string[] = [];
  await eachLimited(
    devices,
    FLEET_CONCURRENCY,
    async (device) => {
      try {
        const rows = await new DeviceReads(ctx, device).print(v6 ? "/ipv6/address" : "/ip/address");
        for (const a of rows ?? []) {
          if (!a.address || !a.interface || isYes(a.disabled) || isYes(a.invalid)) continue;
          const ip = a.address.split("/")[0].toLowerCase();
          if (!byAddress.has(ip)) byAddress.set(ip, { device, interface: a.interface });
        }
      } catch (err) {
        unread.push(`${device}: ${errorText(err, PRINT_TOOL, device)}`);
      }
    },
    (n, device) => ctx.progress?.(n, devices.length, `addresses of ${device}`),
    ctx.signal,
  );
  return { byAddress, unread };
}

const PACKET = z.object({
  src: z.string().optional(),
  dst: z.string(),
  protocol: z.string().optional(),
  src_port: z.number().optional(),
  dst_port: z.number().optional(),
});

const HOP = z.object({
  device: z.string(),
  in_interface: z.string().optional(),
  packet: PACKET,
  rules: z.array(z.object({
    table: z.string(),
    chain: z.string(),
    rule_id: z.string(),
    rule: z.string(),
    effect: z.string(),
    certain: z.boolean(),
    unknown: z.array(z.string()).optional(),
  })).describe("Firewall rules met: the ones that decided, and those that may have"),
  nat: z.array(z.object({
    chain: z.string(),
    rule_id: z.string(),
    text: z.string(),
    note: z.string().optional(),
  })),
  decision: z.array(z.string()).describe("How the routing table was chosen"),
  route: z.object({
    id: z.string().optional(),
    dst_address: z.string().optional(),
    gateway: z.string().optional(),
    distance: z.string().optional(),
    table: z.string(),
    kind: z.string(),
  }).optional(),
  out_interface: z.string().optional(),
  next_hop: z.string().optional(),
  notes: z.array(z.string()),
});

function hopText(h: TraceHop, n: number): string {
  const p = h.packet;
  const where = h.in_interface ? `in ${h.in_interface}` : "sent here";
  const route = h.route
    ? `; route ${h.route.id ?? ""} ${h.route.dst_address ?? ""} ${
      h.route.kind === "unicast" ? `via ${h.route.gateway ?? ""}` : h.route.kind
    } (table ${h.route.table})`.replace(/ +/g, " ")
    : "";
  const out = h.out_interface ? `; out ${h.out_interface} to ${h.next_hop}` : "";
  const nat = h.nat.map((x) => `; ${x.chain} ${x.rule_id}: ${x.text}`).join("");
  const maybe = h.rules.filter((r) => !r.certain && r.effect === "drop")
    .map((r) => `; may be dropped by ${r.table} ${r.chain} ${r.rule_id}`).join("");
  return `${n}. ${h.device} (${where}) ${p.src ?? "?"} \u2192 ${p.dst}${route}${out}${nat}${maybe}`;
}

/** `router_trace_path`. */
export const tracePathTool = defineTool({
  name: "router_trace_path",
  title: "Trace a path across the fleet",
  description: "Follow a destination hop by hop from one router: on each, the route lookup " +
    "(longest prefix, routing marks, policy rules, VRF), the firewall rules that would drop it " +
    "(forward; input at the destination router; output on the first) evaluated rule by rule, " +
    "NAT (translated addresses are followed), and the next router (the fleet device holding the " +
    "next hop). Says where and why it stops: delivered, no route, blackhole, dropped by rule X, " +
    "left the fleet at gateway G, loop, device unreachable.",
  toolset: "insight",
  input: {
    from: z.string().max(256).optional().describe(
      "The device it starts on (default: the only device)",
    ),
    destination: z.string().max(64).refine((v) => isIpv4(v) || isIpv6(v), {
      message: "an IPv4 or IPv6 address such as 10.5.0.10",
    }).describe("Destination address"),
    source: z.string().max(64).refine((v) => isIpv4(v) || isIpv6(v), {
      message: "an IPv4 or IPv6 address",
    }).optional().describe(
      "Source address (default: the first router's own; another address enters the first router from that side)",
    ),
    protocol: z.enum(["tcp", "udp", "icmp"]).optional().describe(
      "Protocol (default: unknown, so rules on protocols may match)",
    ),
    port: z.number().int().min(1).max(65535).optional().describe("Destination port (tcp, udp)"),
  },
  output: {
    from: z.string(),
    destination: z.string(),
    outcome: z.enum([
      "delivered",
      "reached-router",
      "left-fleet",
      "no-route",
      "blackhole",
      "unreachable",
      "prohibit",
      "dropped",
      "loop",
      "device-unreachable",
      "too-many-hops",
    ]),
    reason: z.string(),
    hops: z.array(HOP),
    stopped_at: z.object({
      device: z.string(),
      rule_id: z.string().optional(),
      route_id: z.string().optional(),
    }).optional(),
    unread_devices: z.array(z.string()).describe(
      "Devices whose addresses could not be read (a hop to them is not recognised)",
    ),
  },
  annotations: READ,
  perDevice: false,
  example: { destination: "192.168.88.10", protocol: "tcp", port: 80 },
  async handler(args, ctx) {
    const all = ctx.fleet.summaries();
    let from = all.length === 1 ? all[0].title : undefined;
    if (args.from !== undefined) {
      from = all.find((d) => d.title.toLowerCase() === args.from!.trim().toLowerCase())?.title;
      if (!from) {
        throw new ArgumentError(
          `unknown device "${args.from}"; valid devices: ${all.map((d) => d.title).join(", ")}`,
          "from",
        );
      }
    }
    if (!from) {
      throw new ArgumentError(
        `give from: the device the trace starts on (${all.map((d) => d.title).join(", ")})`,
        "from",
      );
    }
    if (args.port !== undefined && args.protocol !== "tcp" && args.protocol !== "udp") {
      throw new ArgumentError("port needs protocol tcp or udp", "port");
    }
    const v6 = args.destination.includes(":");
    if (args.source !== undefined && args.source.includes(":") !== v6) {
      throw new ArgumentError("source and destination must be of one family", "source");
    }
    await ctx.check({ name: PRINT_TOOL, args: { path: "/interface" }, device: from });
    await ctx.check({
      name: "router_check_route",
      args: { destination: args.destination },
      device: from,
    });
    const { byAddress, unread } = await owners(ctx, all.map((d) => d.title), v6);
    const fleet: TraceFleet = {
      facts: (device) => traceFacts(ctx, device, v6),
      owner: (address) => byAddress.get(address.toLowerCase()),
      routes: async (device, address) => {
        const r = await ctx.call({
          name: "router_check_route",
          args: { destination: address },
          device,
        });
        return ((r.structured.candidates ?? []) as Record<string, unknown>[]).map(routeRow);
      },
    };
    const result: TraceResult = await tracePath({
      from,
      destination: args.destination,
      ...(args.source ? { source: args.source } : {}),
      ...(args.protocol ? { protocol: args.protocol } : {}),
      ...(args.port !== undefined ? { port: args.port } : {}),
    }, fleet).catch((err) => ({
      outcome: "device-unreachable" as const,
      reason: errorText(err, "router_trace_path", from),
      hops: [],
    }));
    const what = `${args.protocol ?? "any protocol"}${args.port ? `/${args.port}` : ""}`;
    return {
      structured: {
        from,
        destination: args.destination,
        ...result,
        unread_devices: unread,
      },
      text: [
        `${from} \u2192 ${args.destination} (${what}): ${result.outcome}: ${result.reason}`,
        ...result.hops.map((h, i) => hopText(h, i + 1)),
        ...(unread.length ? [`not read: ${unread.join("; ")}`] : []),
      ].join("\n"),
    };
  },
});
