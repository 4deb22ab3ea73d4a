/**
 * `router_bandwidth_test`: `/tool bandwidth-test` from this device (the
 * call's `device`, the client) to another router of the fleet or an
 * address (the server), bounded in time and speed
 * (`lib/routeros/bandwidth_test.ts` says how the result is read).
 *
 * Decisions:
 * - The server's bandwidth test server is checked, not changed: when `to`
 *   is a device of the fleet, its `/tool/bandwidth-server` is read through
 *   a nested `router_get_bandwidth_server` (the same guard chain: the
 *   caller's role and scope must reach that device too), and a server that
 *   is off is reported with the tool that turns it on. Enabling it inside a
 *   diagnostic would change a second router behind the caller's back and
 *   leave it on if the call died; the security audit flags it on.
 * - Credentials are the server's bandwidth-test user: `user`, and
 *   `password` as a secret argument, masked in the audit log, dry runs and
 *   errors by the guard chain and never returned. MikroTik's manual
 *   recommends a user in a group with only the `test` and `winbox`
 *   policies, which is what the server checks; the server's management
 *   login (its inventory credentials) is never sent to another router.
 * - Annotations: not read-only (it loads the path and both routers' CPUs,
 *   which other traffic feels), not destructive, not idempotent, open
 *   world; role `operate`; audited like a write, never retried.
 *
 * @module
 */
import * as z from "zod";
import {
  bandwidthCommand,
  type BandwidthResult,
  GOOD_STATUSES,
  parseBandwidth,
} from "../../routeros/bandwidth_test.ts";
import { ArgumentError, RouterOsError } from "../../routeros/errors.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";
import { defineTool } from "../define.ts";
import type { Annotations, ToolContext } from "../tool.ts";
import { noteOutcome } from "../errors.ts";
import { runTimed } from "./timed_run.ts";
import { USER } from "./diagnostic_args.ts";

/** Loads links and CPUs, changes no configuration, reaches another host. */
const LOAD: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};

const RATES = z.object({
  current_bps: z.number(),
  avg_10s_bps: z.number().optional(),
  avg_total_bps: z.number().optional(),
});

/** What to do about each status a failed test ends with. */
const HINTS: Record<string, string> = {
  "can not connect": "the server did not answer on TCP port 2000: its bandwidth test server " +
    "is off, or its firewall, allowed-addresses or max-sessions refuse this client",
  "authentication failed": "give user and password of a user on the server in a group with " +
    "the test and winbox policies",
  "disconnected": "the connection was lost during the test",
  "remote is busy": "the server runs as many tests as its max-sessions allows",
};

interface Args {
  to: string;
}

/** The server's address and, when `to` is a fleet device, its title. */
function target(ctx: ToolContext, args: Args): { address: string; device?: string } {
  const device = ctx.fleet.summaries().find((d) => d.title.toLowerCase() === args.to.toLowerCase());
  if (!device) {
    if (isIpv4(args.to) || isIpv6(args.to)) return { address: args.to };
    throw new ArgumentError(
      `"${args.to}" is neither a device of this server nor an IPv4/IPv6 address`,
      "to",
    );
  }
  const host = device.host.replace(/^\[|\]$/g, "");
  if (!isIpv4(host) && !isIpv6(host)) {
    throw new ArgumentError(
      `device "${device.title}" is reached as ${host}, a name; the bandwidth test needs an ` +
        "address: give to as the server's address",
      "to",
    );
  }
  return { address: host, device: device.title };
}

/** Why the server cannot answer (its bandwidth test server is off), read on the server. */
async function serverProblem(ctx: ToolContext, device: string): Promise<string | undefined> {
  const r = await ctx.call({ name: "router_get_bandwidth_server", args: {}, device });
  const item = (r.structured.item ?? {}) as Record<string, unknown>;
  const on = item.enabled === true || item.enabled === "true" || item.enabled === "yes";
  if (on) return undefined;
  return `device "${device}" has its bandwidth test server off: turn it on with ` +
    `router_update_bandwidth_server (enabled: true) on "${device}" and call again; turn it off ` +
    "afterwards (the security audit flags an enabled server)";
}

const INPUT = {
  to: z.string().min(1).max(255).describe(
    "The server: a device of this server (by title) or an IPv4/IPv6 address",
  ),
  protocol: z.enum(["tcp", "udp"]).optional().describe("tcp (default) or udp"),
  direction: z.enum(["receive", "transmit", "both"]).optional().describe(
    "receive (default): the server sends; transmit: this device sends; both",
  ),
  duration_s: z.number().int().min(1).max(20).optional().describe(
    "Seconds to test (1-20, default 5)",
  ),
  local_tx_speed_mbps: z.number().positive().max(100_000).optional().describe(
    "Cap on what this device sends, Mbit/s (default: as fast as it can)",
  ),
  remote_tx_speed_mbps: z.number().positive().max(100_000).optional().describe(
    "Cap on what the server sends, Mbit/s (default: as fast as it can)",
  ),
  connection_count: z.number().int().min(1).max(100).optional().describe(
    "TCP connections or UDP streams (RouterOS default 20)",
  ),
  user: USER.optional().describe(
    "User on the server (a group with the test and winbox policies)",
  ),
  password: z.string().max(128).optional().describe("That user's password (masked in logs)"),
};

type Input = z.infer<z.ZodObject<typeof INPUT>>;

function command(args: Input, address: string): string {
  const mbps = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 1e6));
  return bandwidthCommand({
    address,
    protocol: args.protocol ?? "tcp",
    direction: args.direction ?? "receive",
    durationS: args.duration_s ?? 5,
    localTxSpeed: mbps(args.local_tx_speed_mbps),
    remoteTxSpeed: mbps(args.remote_tx_speed_mbps),
    connectionCount: args.connection_count,
    user: args.user,
    password: args.password,
  });
}

function summary(r: BandwidthResult): string {
  const mbit = (bps?: number) => (bps === undefined ? "-" : `${(bps / 1e6).toFixed(1)} Mbit/s`);
  const side = (name: string, x?: { current_bps: number; avg_total_bps?: number }) =>
    x ? ` ${name} ${mbit(x.avg_total_bps ?? x.current_bps)} avg, ${mbit(x.current_bps)} last` : "";
  return `${r.status}${r.duration_s !== undefined ? ` after ${r.duration_s} s` : ""}:` +
    side("tx", r.tx) + side("rx", r.rx) +
    (r.lost_packets !== undefined ? `, ${r.lost_packets} lost packets (last second)` : "");
}

/** `router_bandwidth_test`. */
export const bandwidthTest = defineTool({
  name: "router_bandwidth_test",
  title: "Bandwidth test between routers",
  description:
    "Measure throughput from this device to another router's bandwidth test server (a device " +
    "of this server or an address) with RouterOS bandwidth-test: tx/rx current and average " +
    "rates, lost packets. The server's test server must be on (checked for fleet devices). " +
    "Loads the link: set speed caps on links in use. Bounded: 1-20 s.",
  toolset: "diagnostics",
  input: INPUT,
  output: {
    to: z.string(),
    address: z.string(),
    protocol: z.string(),
    direction: z.string(),
    status: z.string(),
    duration_s: z.number().optional(),
    tx: RATES.optional().describe("What this device sent, bits/s"),
    rx: RATES.optional().describe("What this device received, bits/s"),
    lost_packets: z.number().optional().describe("UDP packets lost in the last second"),
    random_data: z.boolean().optional(),
    tx_size: z.number().optional(),
    rx_size: z.number().optional(),
    connection_count: z.number().optional(),
    local_cpu_load_percent: z.number().optional(),
    remote_cpu_load_percent: z.number().optional(),
  },
  annotations: LOAD,
  perDevice: true,
  secretArgs: ["password"],
  example: { to: "127.0.0.1", duration_s: 1, user: "admin" },
  async dryRun(args, ctx) {
    const t = target(ctx, args);
    const problem = t.device ? await serverProblem(ctx, t.device) : undefined;
    return {
      commands: [command(args, t.address)],
      preview: { to: args.to, address: t.address },
      problems: problem ? [problem] : [],
    };
  },
  async handler(args, ctx) {
    const t = target(ctx, args);
    const problem = t.device ? await serverProblem(ctx, t.device) : undefined;
    // Nothing was sent to this device: the outcome says "nothing was changed".
    if (problem) throw new Error(problem);
    const seconds = args.duration_s ?? 5;
    let result: BandwidthResult;
    try {
      const text = await runTimed(ctx, {
        statement: command(args, t.address),
        seconds,
        what: `bandwidth test to ${args.to}`,
        path: "/tool/bandwidth-test",
        idempotent: false,
      });
      result = parseBandwidth(text);
      if (!GOOD_STATUSES.includes(result.status)) {
        const hint = HINTS[result.status];
        throw new RouterOsError(
          "failure",
          `the bandwidth test to ${t.address} ended with "${result.status}"` +
            (hint ? `: ${hint}` : ""),
          result.status,
        );
      }
    } catch (err) {
      // A test changes no configuration: say so rather than "outcome unknown".
      if (err instanceof Error) {
        err.message = err.message.replace(/\.?$/, ". ") +
          "No configuration was changed on either router.";
        noteOutcome(err, { kind: "stated" });
      }
      throw err;
    }
    const structured = {
      to: args.to,
      address: t.address,
      protocol: args.protocol ?? "tcp",
      direction: args.direction ?? "receive",
      ...result,
    };
    return { structured, text: `bandwidth test to ${args.to} (${t.address}): ${summary(result)}` };
  },
});
