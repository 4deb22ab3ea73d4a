/**
 * Diagnostics: ping and traceroute (bounded count and time), read-only
 * `router_print` over an allow-list of menus, and `router_run_command`
 * (raw commands, only with `--allow-raw-commands`).
 *
 * @module
 */
import * as z from "zod";
import type { RouterOsClient } from "../../routeros/client.ts";
import type { CommandValue } from "../../routeros/commands.ts";
import { classifyError } from "../../routeros/errors.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { outputError, type RawItem } from "../../routeros/parse_json.ts";
import { DEFAULT_FLAGS } from "../../routeros/parse_terse.ts";
import { checkId, checkMenuPath, checkName } from "../../routeros/quote.ts";
import {
  asNumber,
  asText,
  durationMs,
  outputLines,
  parseRecords,
  raiseIfError,
} from "../../routeros/records.ts";
import { commandLine, type Filter, printStatement, putRecords } from "../../routeros/scripts.ts";
import { MASK, MAX_LIST, MAX_TEXT } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolDef } from "../tool.ts";
import { DESTRUCTIVE, planned, PROBE } from "./views.ts";

/** Longest time a ping or traceroute may take, in milliseconds. */
export const PROBE_BUDGET_MS = 25_000;

const HOST = z.string().min(1).max(255).regex(
  /^[A-Za-z0-9][A-Za-z0-9.:%_-]*$/,
  "an IPv4/IPv6 address or a host name",
);

/** Refuse a probe that could outlast the budget or the command timeout. */
function checkBudget(client: RouterOsClient, worstMs: number, what: string): void {
  const limit = Math.min(PROBE_BUDGET_MS, client.target.commandTimeoutMs - 2000);
  if (worstMs > limit) {
    throw new RouterOsError(
      "invalid-value",
      `${what} could take up to ${Math.ceil(worstMs / 1000)} s, more than the ${
        Math.floor(limit / 1000)
      } s allowed (bounded by ${
        PROBE_BUDGET_MS / 1000
      } s and --command-timeout); lower the count or the interval/timeout`,
      "",
    );
  }
}

function ms(value: number): string {
  return `${Math.round(value)}ms`;
}

const PING_INPUT = {
  address: HOST.describe("Address or host name to ping, e.g. 192.168.88.1 or example.com"),
  count: z.number().int().min(1).max(20).default(4).describe("Echo requests to send (1-20)"),
  interval_ms: z.number().int().min(10).max(5000).default(1000).describe(
    "Milliseconds between requests (10-5000); count x interval must stay under 25 s",
  ),
  size: z.number().int().min(28).max(1500).optional().describe("Packet size in bytes (28-1500)"),
  src_address: z.string().max(64).optional().describe("Source address to send from"),
  interface: z.string().max(255).optional().describe("Interface to send from"),
  routing_table: z.string().max(255).optional().describe(
    "Routing table to use (RouterOS 7; routing-mark on 6)",
  ),
};

function pingArgs(
  args: Record<string, unknown>,
  major: number,
): Record<string, CommandValue | undefined> {
  return {
    address: String(args.address),
    count: Number(args.count ?? 4),
    interval: ms(Number(args.interval_ms ?? 1000)),
    size: args.size as number | undefined,
    "src-address": args.src_address as string | undefined,
    interface: args.interface as string | undefined,
    [major < 7 ? "routing-mark" : "routing-table"]: args.routing_table as string | undefined,
  };
}

/** The exact ping script for a dialect. */
function pingScript(args: Record<string, unknown>, dialect: Dialect): string {
  if (dialect.major < 7) {
    return `:put [${commandLine("/ping", { args: pingArgs(args, dialect.major) })}]`;
  }
  return putRecords(
    dialect,
    `[${commandLine("/ping", { args: pingArgs(args, dialect.major), switches: ["as-value"] })}]`,
    true,
    ["seq", "host", "size", "ttl", "time", "status"],
  );
}

/** `router_ping`. */
export const ping: ToolDef = {
  name: "router_ping",
  title: "Ping from the router",
  description:
    "Send ICMP echo requests from the router to an address or host name and report each reply " +
    "(RTT, TTL) plus sent/received/loss and min/avg/max RTT. Bounded: at most 20 packets and 25 s. " +
    "RouterOS 6 reports only how many replies arrived.",
  toolset: "diagnostics",
  input: PING_INPUT,
  output: {
    address: z.string(),
    sent: z.number(),
    received: z.number(),
    packet_loss_percent: z.number(),
    min_rtt_ms: z.number().optional(),
    avg_rtt_ms: z.number().optional(),
    max_rtt_ms: z.number().optional(),
    replies: z.array(z.object({
      seq: z.number().optional(),
      host: z.string().optional(),
      size: z.number().optional(),
      ttl: z.number().optional(),
      time_ms: z.number().optional(),
      status: z.string().optional(),
    })).describe("One entry per request (RouterOS 7)"),
  },
  annotations: PROBE,
  perDevice: true,
  example: { address: "127.0.0.1", count: 2, interval_ms: 100 },
  async handler(args, { client }) {
    const count = Number(args.count ?? 4);
    const interval = Number(args.interval_ms ?? 1000);
    checkBudget(client, count * interval + 2000, "this ping");
    const dialect = await client.dialect();
    const output = await client.run(pingScript(args, dialect), "/ping", true);
    raiseIfError(output);
    const address = String(args.address);
    if (dialect.major < 7) {
      // RouterOS 6 prints the ping table inside :put, then the reply count.
      const lines = outputLines(output);
      const received = asNumber(lines.at(-1) ?? "") ??
        asNumber(/\breceived=(\d+)/.exec(output)?.[1] ?? "");
      if (received === undefined) throw outputError(output);
      return pingResult(address, count, received, []);
    }
    const replies = parseRecords(dialect, output).map((r) => ({
      seq: asNumber(r.seq),
      host: asText(r.host),
      size: asNumber(r.size),
      ttl: asNumber(r.ttl),
      time_ms: durationMs(r.time),
      status: asText(r.status),
    })).map(dropUndefined);
    const received = replies.filter((r) => r.time_ms !== undefined).length;
    return pingResult(address, Math.max(replies.length, 0), received, replies);
  },
};

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function pingResult(
  address: string,
  sent: number,
  received: number,
  replies: { time_ms?: number }[],
) {
  const times = replies.map((r) => r.time_ms).filter((t): t is number => t !== undefined);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const structured = dropUndefined({
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

const TRACE_KEYS = [
  ".section",
  "address",
  "loss",
  "sent",
  "last",
  "avg",
  "best",
  "worst",
  "status",
];

/** `router_traceroute`. */
export const traceroute: ToolDef = {
  name: "router_traceroute",
  title: "Traceroute from the router",
  description:
    "Trace the path from the router to an address: one entry per hop with its address, loss and " +
    "RTTs. Bounded: max_hops x count x timeout must stay under 25 s (defaults: 15 hops, 1 probe, 1 s).",
  toolset: "diagnostics",
  input: {
    address: HOST.describe("Destination address or host name"),
    max_hops: z.number().int().min(1).max(30).default(15).describe("Maximum hops (1-30)"),
    count: z.number().int().min(1).max(5).default(1).describe("Probes per hop (1-5)"),
    timeout_ms: z.number().int().min(100).max(3000).default(1000).describe(
      "Milliseconds to wait for each probe (100-3000)",
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
  async handler(args, { client }) {
    const hops = Number(args.max_hops ?? 15);
    const count = Number(args.count ?? 1);
    const timeout = Number(args.timeout_ms ?? 1000);
    checkBudget(client, hops * count * timeout + 2000, "this traceroute");
    const dialect = await client.dialect();
    if (dialect.major < 7) {
      throw new RouterOsError(
        "bad-command",
        `router_traceroute needs RouterOS 7: RouterOS ${dialect.version} has no as-value form of traceroute, and its table output is not parsed`,
        "",
      );
    }
    const command = commandLine("/tool/traceroute", {
      args: {
        address: String(args.address),
        "max-hops": hops,
        count,
        timeout: ms(timeout),
        "src-address": args.src_address as string | undefined,
      },
      switches: ["as-value"],
    });
    const output = await client.run(
      putRecords(dialect, `[${command}]`, true, TRACE_KEYS),
      "/tool/traceroute",
      true,
    );
    raiseIfError(output);
    let records = parseRecords(dialect, output);
    const sections = records.map((r) => asNumber(r[".section"])).filter((n) => n !== undefined);
    if (sections.length) {
      const last = Math.max(...sections as number[]);
      records = records.filter((r) => asNumber(r[".section"]) === last);
    }
    const list = records.map((r, i) =>
      dropUndefined({
        hop: i + 1,
        address: asText(r.address),
        loss_percent: asNumber(String(r.loss ?? "").replace("%", "")),
        sent: asNumber(r.sent),
        last_ms: durationMs(r.last),
        avg_ms: durationMs(r.avg),
        best_ms: durationMs(r.best),
        worst_ms: durationMs(r.worst),
        status: asText(r.status) || undefined,
      })
    );
    return {
      structured: { address: String(args.address), hops: list },
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
};

/** A read-only menu that `router_print` offers beyond the declared menus. */
interface PrintPath {
  path: string;
  singleton?: boolean;
}

/** Read-only extras for `router_print` (state and settings menus). */
export const PRINT_EXTRAS: readonly PrintPath[] = [
  { path: "/interface" },
  { path: "/interface/ethernet" },
  { path: "/interface/ethernet/poe" },
  { path: "/interface/bridge" },
  { path: "/interface/bridge/port" },
  { path: "/interface/bridge/vlan" },
  { path: "/interface/bridge/host" },
  { path: "/interface/vlan" },
  { path: "/interface/list" },
  { path: "/interface/list/member" },
  { path: "/interface/wireguard" },
  { path: "/interface/wireguard/peers" },
  { path: "/ip/address" },
  { path: "/ip/arp" },
  { path: "/ip/route" },
  { path: "/ip/pool" },
  { path: "/ip/pool/used" },
  { path: "/ip/dhcp-server" },
  { path: "/ip/dhcp-server/lease" },
  { path: "/ip/dhcp-server/network" },
  { path: "/ip/dhcp-client" },
  { path: "/ip/dns", singleton: true },
  { path: "/ip/dns/static" },
  { path: "/ip/dns/cache" },
  { path: "/ip/firewall/filter" },
  { path: "/ip/firewall/nat" },
  { path: "/ip/firewall/mangle" },
  { path: "/ip/firewall/raw" },
  { path: "/ip/firewall/address-list" },
  { path: "/ip/firewall/connection" },
  { path: "/ip/neighbor" },
  { path: "/ip/service" },
  { path: "/ip/ssh", singleton: true },
  { path: "/ip/cloud", singleton: true },
  { path: "/ipv6/address" },
  { path: "/ipv6/route" },
  { path: "/ipv6/neighbor" },
  { path: "/ipv6/firewall/filter" },
  { path: "/ipv6/firewall/address-list" },
  { path: "/log" },
  { path: "/file" },
  { path: "/queue/simple" },
  { path: "/queue/tree" },
  { path: "/queue/type" },
  { path: "/routing/route" },
  { path: "/snmp", singleton: true },
  { path: "/system/clock", singleton: true },
  { path: "/system/health" },
  { path: "/system/history" },
  { path: "/system/identity", singleton: true },
  { path: "/system/license", singleton: true },
  { path: "/system/ntp/client", singleton: true },
  { path: "/system/package" },
  { path: "/system/resource", singleton: true },
  { path: "/system/routerboard", singleton: true },
  { path: "/system/scheduler" },
  { path: "/tool/netwatch" },
  { path: "/user" },
  { path: "/user/active" },
  { path: "/user/group" },
  { path: "/user/ssh-keys" },
];

/** Property names that hold secrets in any menu (masked by `router_print`). */
const SECRET_KEY = /password|passphrase|secret|private-key|pre-shared-key|preshared-key|psk/;

/** Build `router_print` over the declared menus plus {@linkcode PRINT_EXTRAS}. */
export function printTool(menus: readonly Menu[]): ToolDef {
  const byPath = new Map<string, { singleton: boolean; menu?: Menu }>();
  for (const e of PRINT_EXTRAS) byPath.set(e.path, { singleton: e.singleton ?? false });
  for (const m of menus) byPath.set(m.path, { singleton: m.singleton ?? false, menu: m });
  for (const p of byPath.keys()) checkMenuPath(p);
  const paths = [...byPath.keys()].sort() as [string, ...string[]];
  return {
    name: "router_print",
    title: "Print any allowed menu",
    description:
      "Read-only access to any menu on an allow-list (every menu the other tools cover plus state " +
      "menus such as /ip/arp, /ip/firewall/connection, /system/resource). Returns raw records with " +
      "RouterOS property names. Optional `where` equality filters and `proplist`. Secrets are masked. " +
      "Prefer the dedicated list tools when one exists: they return typed fields.",
    toolset: "diagnostics",
    input: {
      path: z.enum(paths).describe("Menu path, e.g. /ip/arp"),
      where: z.record(
        z.string().max(64),
        z.union([z.string().max(MAX_TEXT), z.number(), z.boolean()]),
      ).optional().describe(
        'Equality filters by RouterOS property name, e.g. {"interface": "ether1"}; `.id` for an id',
      ),
      proplist: z.array(z.string().max(64)).max(100).optional().describe(
        "Only these properties (RouterOS names)",
      ),
      limit: z.number().int().min(1).max(MAX_LIST).default(MAX_LIST).describe(
        "Return at most this many records (1-1000)",
      ),
    },
    output: {
      path: z.string(),
      items: z.array(z.record(z.string(), z.unknown())).describe("Records as RouterOS gives them"),
      count: z.number(),
      truncated: z.boolean().describe("More records matched than `limit`"),
    },
    annotations: READ,
    perDevice: true,
    example: { path: "/interface", where: { name: "ether1" }, proplist: ["name", "type"] },
    async handler(args, { client }) {
      const path = String(args.path);
      const entry = byPath.get(path);
      if (!entry) throw new RouterOsError("invalid-value", `path ${path} is not allowed`, "");
      const where = (args.where ?? {}) as Record<string, CommandValue>;
      const proplist = ((args.proplist ?? []) as string[]).map((p) => checkName(p, "property"));
      if (entry.singleton && Object.keys(where).length) {
        throw new RouterOsError(
          "invalid-value",
          `${path} is a settings menu: it takes no where filter`,
          "",
        );
      }
      const filters: Filter[] = Object.entries(where).map(([key, value]) =>
        key === ".id" || key === "id"
          ? { key: ".id", value: checkId(String(value)) }
          : { key: checkName(key, "where key"), value }
      );
      const dialect = await client.dialect();
      const command = printStatement(dialect, path, {
        filters,
        proplist,
        singleton: entry.singleton,
      });
      const output = await client.run(command, path, true);
      const keys = proplist.length ? proplist : entry.menu ? Object.keys(entry.menu.fields) : [];
      const raws = client.parseRead(dialect, {
        path,
        keys,
        flags: entry.menu?.flags ?? DEFAULT_FLAGS,
        singleton: entry.singleton,
      }, output);
      const limit = Number(args.limit ?? MAX_LIST);
      const items = raws.slice(0, limit).map((r) => masked(r, entry.menu, proplist));
      return {
        structured: { path, items, count: items.length, truncated: raws.length > limit },
        text: renderTable(items, columnsOf(items)),
      };
    },
  };
}

function masked(raw: RawItem, menu: Menu | undefined, proplist: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (proplist.length && key !== ".id" && !proplist.includes(key)) continue;
    const secret = menu?.fields[key]?.secret || SECRET_KEY.test(key);
    out[key] = secret && value !== "" ? MASK : value;
  }
  return out;
}

function columnsOf(items: Record<string, unknown>[]): string[] {
  const cols = new Set<string>();
  for (const i of items.slice(0, 20)) for (const k of Object.keys(i)) cols.add(k);
  return [...cols].slice(0, 8);
}

/** `router_run_command` (registered only with `--allow-raw-commands`). */
export const runCommand: ToolDef = {
  name: "router_run_command",
  title: "Run a raw RouterOS command (DANGEROUS)",
  description:
    "DANGER: sends the given text to the router as a RouterOS console command, exactly as written, " +
    "with full privileges of the SSH user. Nothing is quoted, checked or undone: it can change or " +
    "destroy any configuration, reboot the router or cut off access. Use only when no dedicated " +
    "router_* tool does the job, prefer router_print for reads, and show the command to a person " +
    "before running it. Returns the raw output text.",
  toolset: "diagnostics",
  input: {
    command: z.string().min(1).max(MAX_TEXT).describe(
      "The RouterOS command, e.g. `/ip address print terse`",
    ),
  },
  output: { output: z.string().describe("What the router printed") },
  annotations: { ...DESTRUCTIVE, openWorldHint: true },
  perDevice: true,
  example: { command: ":put [/system identity get name]" },
  async handler(args, { client }) {
    const command = String(args.command);
    const output = await client.run(command, "raw", false);
    if (classifyError(output)) raiseIfError(output);
    return { structured: { output }, text: output === "" ? "(no output)" : output };
  },
  dryRun(args) {
    return Promise.resolve(planned([String(args.command)], {}, [
      "a raw command cannot be checked in advance: its effect is unknown until it runs",
    ]));
  },
};
