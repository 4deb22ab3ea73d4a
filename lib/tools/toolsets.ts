/**
 * Toolset discovery: an agent starts with a small core and turns whole
 * toolsets on or off, one `notifications/tools/list_changed` per change.
 *
 * @module
 */
import * as z from "zod";
import { RefusedError } from "./guard/refusals.ts";
import { defineTool } from "./define.ts";
import { renderTable } from "./render.ts";
import { READ, type ToolContext, type ToolsetControl, TOOLSETS } from "./tool.ts";

/** What each toolset covers, for the discovery tool and the server instructions. */
export const TOOLSET_ABOUT: Record<typeof TOOLSETS[number], string> = {
  interfaces: "interfaces, Ethernet ports, VLANs, PoE, traffic",
  ip: "IPv4/IPv6 addresses, address pools",
  dhcp: "DHCP servers, networks, leases",
  dns: "DNS resolver, static entries, cache",
  routing: "IPv4/IPv6 routes, route lookup, blackholes",
  firewall: "filter, NAT, mangle, raw rules, address lists",
  users: "users, groups, sessions, SSH keys",
  system: "identity, clock, NTP, resources, packages, health, reboot",
  files: "files, backups, configuration export",
  logs: "the log",
  wireless: "wifi and legacy wireless interfaces, clients, access lists, CAPsMAN",
  wireguard: "WireGuard interfaces and peers, client configs",
  queues: "simple queues, queue tree, queue types",
  bridge: "bridges, bridge ports, bridge VLANs",
  services: "management services, netwatch, scheduler, neighbours",
  diagnostics: "ping, traceroute, print any menu, raw commands",
  changes: "confirm-or-revert changes (apply, commit, roll back)",
  fleet: "devices and fleet-wide queries",
  tunnels: "GRE, EoIP, IPIP and VXLAN tunnels, bonding",
  vpn: "PPP users and profiles, L2TP/SSTP/OpenVPN/PPPoE servers and clients, IPsec",
  ipv6: "IPv6 prefix pools, router advertisements, DHCPv6 client and server",
  "dynamic-routing": "OSPF, BGP, BFD, routing filters, routing tables, VRFs (RouterOS 7)",
  platform: "certificates, RADIUS, User Manager, hotspot, scripts, logging, containers",
  operations: "config snapshots, diffs, drift; monitoring; backups off the router; upgrades",
};

const NAMES = z.array(z.enum(TOOLSETS)).min(1).max(TOOLSETS.length);

function control(ctx: ToolContext): ToolsetControl {
  if (!ctx.toolsets) {
    throw new RefusedError(
      "selection",
      "this server lists every toolset it has; none can be enabled",
    );
  }
  return ctx.toolsets;
}

/** `router_list_toolsets`. */
export const listToolsets = defineTool({
  name: "router_list_toolsets",
  title: "List toolsets",
  description:
    "List the groups of router tools (interfaces, ip, firewall, ...), what each covers, how many " +
    "tools it has and whether it is enabled in this session. Enable one with router_enable_toolsets.",
  toolset: "fleet",
  core: true,
  input: {},
  output: {
    items: z.array(z.object({
      name: z.string(),
      tools: z.number(),
      enabled: z.boolean(),
      about: z.string(),
    })),
  },
  annotations: READ,
  perDevice: false,
  handler(_args, ctx) {
    const items = control(ctx).list();
    return Promise.resolve({
      structured: { items },
      text: renderTable(items, ["name", "tools", "enabled", "about"]),
    });
  },
});

/** `router_enable_toolsets`. */
export const enableToolsets = defineTool({
  name: "router_enable_toolsets",
  title: "Enable toolsets",
  description:
    "Enable one or more groups of router tools in this session. The client is told once that the " +
    "tool list changed; list tools again to see them.",
  toolset: "fleet",
  core: true,
  input: { toolsets: NAMES.describe('Toolsets to enable, e.g. ["firewall", "dhcp"]') },
  output: { enabled: z.array(z.string()), tools: z.array(z.string()) },
  annotations: { ...READ, idempotentHint: true },
  perDevice: false,
  handler(args, ctx) {
    const tools = control(ctx).enable(args.toolsets);
    return Promise.resolve({
      structured: { enabled: args.toolsets, tools },
      text: `enabled ${args.toolsets.join(", ")}: ${tools.length} tools`,
    });
  },
});

/** `router_disable_toolsets`. */
export const disableToolsets = defineTool({
  name: "router_disable_toolsets",
  title: "Disable toolsets",
  description:
    "Disable groups of router tools in this session, to keep the tool list small. The client is " +
    "told once that the tool list changed.",
  toolset: "fleet",
  core: true,
  input: { toolsets: NAMES.describe('Toolsets to disable, e.g. ["wireless"]') },
  output: { disabled: z.array(z.string()), tools: z.array(z.string()) },
  annotations: { ...READ, idempotentHint: true },
  perDevice: false,
  handler(args, ctx) {
    const tools = control(ctx).disable(args.toolsets);
    return Promise.resolve({
      structured: { disabled: args.toolsets, tools },
      text: `disabled ${args.toolsets.join(", ")}: ${tools.length} tools`,
    });
  },
});
