/**
 * `router_ip_scan`: the hosts of an address range or an interface, from
 * `/tool ip-scan` run for a few seconds (`lib/routeros/ip_scan.ts` says
 * how its table is read).
 *
 * It probes every address of the range from the router (ARP, ICMP, DNS,
 * SNMP and NetBIOS queries): a read that reaches beyond the router (PROBE
 * annotations), role `read` like ping and traceroute. The bounds (1,024
 * addresses, a /22, and 20 s) keep it a look at a LAN, not a sweep.
 *
 * @module
 */
import * as z from "zod";
import { ArgumentError } from "../../routeros/errors.ts";
import { isIpv4 } from "../../routeros/ip_address.ts";
import { parseScan, scanCommand } from "../../routeros/ip_scan.ts";
import { defineTool } from "../define.ts";
import { renderTable } from "../render.ts";
import { PROBE } from "../tool.ts";
import { IFACE } from "./diagnostic_args.ts";
import { runTimed } from "./timed_run.ts";

/** The most addresses one scan may probe. */
const MAX_ADDRESSES = 1024;

/** Addresses in `192.168.88.0/24`, `10.0.0.1-10.0.0.9` or `10.0.0.1`; undefined when not one. */
function rangeSize(range: string): number | undefined {
  const toNum = (ip: string) => ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
  const dash = range.split("-");
  if (dash.length === 2) {
    if (!isIpv4(dash[0]) || !isIpv4(dash[1])) return undefined;
    const size = toNum(dash[1]) - toNum(dash[0]) + 1;
    return size > 0 ? size : undefined;
  }
  const [ip, len, more] = range.split("/");
  if (more !== undefined || !isIpv4(ip)) return undefined;
  if (len === undefined) return 1;
  if (!/^\d{1,2}$/.test(len) || Number(len) > 32) return undefined;
  return 2 ** (32 - Number(len));
}

/** `router_ip_scan`. */
export const ipScan = defineTool({
  name: "router_ip_scan",
  title: "Scan for hosts (ip-scan)",
  description:
    "Find the hosts of an IPv4 range (probing each address from the router) or those seen on an " +
    "interface, with RouterOS ip-scan: address, MAC, response time, DNS, SNMP and NetBIOS " +
    "names where they answer. Give address_range or interface (or both). Bounded: at most " +
    "1,024 addresses, 1-20 s.",
  toolset: "diagnostics",
  input: {
    address_range: z.string().max(40).optional().describe(
      "IPv4 prefix or range to probe, e.g. 192.168.88.0/24 or 10.0.0.1-10.0.0.50 (<= 1,024 addresses)",
    ),
    interface: IFACE.optional().describe(
      "Interface to scan on; alone, lists the hosts seen in its traffic without probing",
    ),
    duration_s: z.number().int().min(1).max(20).optional().describe(
      "Seconds to scan (1-20, default 5)",
    ),
  },
  output: {
    hosts: z.array(z.object({
      address: z.string(),
      mac_address: z.string().optional(),
      time_ms: z.number().optional().describe("Response time"),
      dns: z.string().optional(),
      snmp: z.string().optional(),
      netbios: z.string().optional(),
    })),
    duration_s: z.number(),
  },
  annotations: PROBE,
  perDevice: true,
  requireOneOf: ["address_range", "interface"],
  example: { address_range: "192.168.88.0/24", duration_s: 1 },
  async handler(args, ctx) {
    if (args.address_range !== undefined) {
      const size = rangeSize(args.address_range);
      if (size === undefined) {
        throw new ArgumentError(
          "must be an IPv4 prefix (192.168.88.0/24) or range (10.0.0.1-10.0.0.50)",
          "address_range",
        );
      }
      if (size > MAX_ADDRESSES) {
        throw new ArgumentError(
          `covers ${size} addresses; a scan probes at most ${MAX_ADDRESSES} (a /22): ` +
            "scan a smaller range",
          "address_range",
        );
      }
    }
    const seconds = args.duration_s ?? 5;
    const text = await runTimed(ctx, {
      statement: scanCommand({
        addressRange: args.address_range,
        interface: args.interface,
        durationS: seconds,
      }),
      seconds,
      what: `ip-scan of ${args.address_range ?? args.interface}`,
      path: "/tool/ip-scan",
      idempotent: true,
    });
    const hosts = parseScan(text);
    return {
      structured: { hosts, duration_s: seconds },
      text: `${hosts.length} host(s) in ${seconds} s\n` +
        renderTable(hosts, ["address", "mac_address", "time_ms", "dns", "snmp", "netbios"]),
    };
  },
});
