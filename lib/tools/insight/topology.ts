/**
 * `router_topology`: the fleet as one graph (`lib/routeros/topology.ts`):
 * devices, links with the ports at both ends and whether they are up,
 * subnets, and external devices discovery saw; with `from` and `to`, what
 * lies between two devices (the shortest paths). JSON, or Mermaid text with
 * `format: "mermaid"`. Each device's reads are nested `router_print` calls
 * through the guard chain; an unreachable device is a node without links.
 *
 * @module
 */
import * as z from "zod";
import { ArgumentError } from "../../routeros/errors.ts";
import {
  buildTopology,
  type DeviceFacts,
  pathsBetween,
  type PathStep,
  type Topology,
} from "../../routeros/topology.ts";
import { topologyMermaid } from "../../routeros/topology_mermaid.ts";
import { defineTool } from "../define.ts";
import { errorText } from "../errors.ts";
import { chooseDevices } from "../fleet/selection.ts";
import { FLEET_CONCURRENCY } from "../fleet/query.ts";
import { READ, type ToolContext } from "../tool.ts";
import { DeviceReads, eachLimited, PRINT_TOOL } from "./device_reads.ts";

/** What one device's part of the graph is read from. */
const GRAPH_MENUS = [
  "/system/identity",
  "/system/resource",
  "/interface",
  "/ip/address",
  "/ip/neighbor",
  "/interface/bridge/port",
  "/interface/vlan",
] as const;

/** Read one device's part of the graph; a device that cannot be read says why. */
export async function graphFacts(ctx: ToolContext, device: string): Promise<DeviceFacts> {
  try {
    const m = await new DeviceReads(ctx, device).menus(GRAPH_MENUS);
    const version = m.get("/system/resource")?.[0]?.version;
    const identity = m.get("/system/identity")?.[0]?.name;
    return {
      title: device,
      ...(identity ? { identity } : {}),
      ...(version ? { version: version.replace(/\s*\(.*\)$/, "") } : {}),
      interfaces: m.get("/interface") ?? [],
      addresses: m.get("/ip/address") ?? [],
      neighbors: m.get("/ip/neighbor") ?? [],
      bridgePorts: m.get("/interface/bridge/port") ?? [],
      vlans: m.get("/interface/vlan") ?? [],
    };
  } catch (err) {
    return {
      title: device,
      interfaces: [],
      addresses: [],
      neighbors: [],
      error: errorText(err, PRINT_TOOL, device),
    };
  }
}

/** The graph of `devices` (titles), read with bounded concurrency and progress. */
export async function readTopology(
  ctx: ToolContext,
  devices: readonly string[],
): Promise<Topology> {
  if (devices.length) {
    await ctx.check({ name: PRINT_TOOL, args: { path: "/interface" }, device: devices[0] });
  }
  const facts = await eachLimited(
    devices,
    FLEET_CONCURRENCY,
    (d) => graphFacts(ctx, d),
    (n, d) => ctx.progress?.(n, devices.length, d),
    ctx.signal,
  );
  return buildTopology(facts.filter(Boolean));
}

const END = z.object({
  device: z.string(),
  interface: z.string().optional(),
  address: z.string().optional(),
  running: z.boolean().optional(),
  detail: z.string().optional(),
});

const STEP = z.object({
  from: z.string(),
  out: z.string().optional(),
  to: z.string(),
  in: z.string().optional(),
  up: z.boolean().optional(),
  segment: z.string().optional(),
});

/** The schema of the graph (the topology resource holds the same JSON). */
export const TOPOLOGY_OUTPUT = {
  devices: z.array(z.object({
    name: z.string(),
    external: z.boolean(),
    identity: z.string().optional(),
    version: z.string().optional(),
    platform: z.string().optional(),
    board: z.string().optional(),
    reachable: z.boolean(),
    error: z.string().optional(),
  })),
  links: z.array(z.object({
    a: END,
    b: END,
    up: z.boolean().optional(),
    via: z.array(z.string()).describe("What showed the link: mndp, lldp, cdp, subnet"),
    subnet: z.string().optional(),
  })),
  subnets: z.array(z.object({
    prefix: z.string(),
    members: z.array(z.object({
      device: z.string(),
      interface: z.string(),
      address: z.string(),
      running: z.boolean().optional(),
    })),
  })),
};

function stepText(s: PathStep): string {
  return `${s.from} ${s.out ?? "?"} \u2192 ${s.in ?? "?"} ${s.to}${
    s.segment ? ` (via ${s.segment})` : ""
  }${s.up === false ? " (down)" : ""}`;
}

/** The graph as compact lines: links, then shared segments. */
export function topologyText(t: Topology): string {
  const failed = t.devices.filter((d) => !d.external && !d.reachable);
  const lines = [
    `${t.devices.filter((d) => !d.external).length} devices, ${
      t.devices.filter((d) => d.external).length
    } external, ${t.links.length} links (${
      t.links.filter((l) => l.up === false).length
    } down), ${t.subnets.length} subnets`,
    ...failed.map((d) => `${d.name}: unreachable: ${d.error}`),
    ...t.links.map((l) =>
      `${l.a.device} ${l.a.interface ?? "?"} \u2014 ${l.b.interface ?? "?"} ${l.b.device}` +
      `${l.up === false ? " (down)" : ""} [${l.via.join("+")}${l.subnet ? ` ${l.subnet}` : ""}]`
    ),
    ...t.subnets.filter((s) => new Set(s.members.map((m) => m.device)).size > 2).map((s) =>
      `segment ${s.prefix}: ${s.members.map((m) => `${m.device} ${m.interface}`).join(", ")}`
    ),
  ];
  return lines.join("\n");
}

/** `router_topology`. */
export const topologyTool = defineTool({
  name: "router_topology",
  title: "Network topology",
  description: "Map the fleet as one graph from neighbour discovery (MNDP/LLDP/CDP), addresses, " +
    "bridges and VLANs: devices, links with the ports at both ends and whether they are up, " +
    "subnets, external neighbours. With from and to: the shortest paths between two devices. " +
    'format "mermaid" adds Mermaid flowchart text. Reads every chosen device.',
  toolset: "insight",
  input: {
    from: z.string().max(256).optional().describe("A device title: paths start here (with to)"),
    to: z.string().max(256).optional().describe("A device title: paths end here (with from)"),
    format: z.enum(["json", "mermaid"]).optional().describe(
      "mermaid: also the graph as Mermaid text",
    ),
    devices: z.array(z.string().max(256)).max(1000).optional().describe(
      "Device titles (default: every device that matches tags and region)",
    ),
    tags: z.array(z.string().max(256)).max(100).optional().describe(
      "Only devices that have all these tags",
    ),
    region: z.string().max(256).optional().describe("Only devices in this region"),
  },
  output: {
    ...TOPOLOGY_OUTPUT,
    paths: z.object({
      from: z.string(),
      to: z.string(),
      paths: z.array(z.array(STEP)).describe("Shortest paths over links that are up"),
      down_paths: z.array(z.array(STEP)).describe("When none is up: shortest paths over any link"),
    }).optional(),
    mermaid: z.string().optional(),
  },
  annotations: READ,
  perDevice: false,
  example: { format: "mermaid" },
  async handler(args, ctx) {
    if ((args.from === undefined) !== (args.to === undefined)) {
      throw new ArgumentError("give both from and to (device titles), or neither", "to");
    }
    const all = ctx.fleet.summaries();
    const chosen = chooseDevices(all, args).map((d) => d.title);
    const ends = [args.from, args.to].filter((x): x is string => x !== undefined);
    for (const e of ends) {
      const d = all.find((x) => x.title.toLowerCase() === e.trim().toLowerCase());
      if (!d) {
        throw new ArgumentError(
          `unknown device "${e}"; valid devices: ${all.map((x) => x.title).join(", ")}`,
          e === args.from ? "from" : "to",
        );
      }
      if (!chosen.includes(d.title)) chosen.push(d.title);
    }
    const t = await readTopology(ctx, chosen);
    const title = (e: string) =>
      all.find((x) => x.title.toLowerCase() === e.trim().toLowerCase())!.title;
    let paths;
    let pathText = "";
    if (args.from !== undefined && args.to !== undefined) {
      const from = title(args.from), to = title(args.to);
      const p = pathsBetween(t, from, to);
      paths = { from, to, paths: p.paths, down_paths: p.downPaths };
      pathText = p.paths.length
        ? p.paths.map((x, i) => `path ${i + 1}: ${x.map(stepText).join("; ")}`).join("\n")
        : p.downPaths.length
        ? `no path of links that are up; over down links:\n${
          p.downPaths.map((x) => x.map(stepText).join("; ")).join("\n")
        }`
        : `no path between ${from} and ${to} in the graph`;
      if (from === to) pathText = `${from} is both ends`;
    }
    const mermaid = args.format === "mermaid" ? topologyMermaid(t) : undefined;
    return {
      structured: {
        ...t,
        ...(paths ? { paths } : {}),
        ...(mermaid ? { mermaid } : {}),
      },
      text: [pathText, topologyText(t), mermaid ?? ""].filter(Boolean).join("\n"),
    };
  },
});
