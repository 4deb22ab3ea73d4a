/**
 * What a NAT rule that takes a packet makes of it: the addresses and ports
 * after `dst-nat`, `redirect`, `netmap`, `src-nat`, `masquerade`, `same`
 * and `endpoint-independent-nat`, as MikroTik's NAT manual describes them.
 *
 * - dst-nat: the destination becomes `to-addresses` (the first of a range)
 *   and `to-ports` (the first of a range), each only when set;
 * - redirect: the destination becomes the router's own address on the
 *   incoming interface (`127.0.0.1` for a packet the router sends), and
 *   `to-ports`;
 * - netmap: the network part of the address (destination in dstnat, source
 *   in srcnat) becomes that of `to-addresses`, the host part stays (IPv4);
 * - src-nat, same, endpoint-independent-nat in srcnat: the source becomes
 *   `to-addresses`, `to-ports`;
 * - masquerade: the source becomes the router's address on the outgoing
 *   interface (the route's preferred source when it has one).
 *
 * Where several addresses or ports are possible (a range, a pool), the
 * first is taken and the note says so.
 *
 * @module
 */
import type { FirewallRule, PortRange } from "./rule_match.ts";
import { actionOf } from "./rule_chain.ts";
import { isIpv4 } from "./ip_address.ts";

/** The parts of a packet NAT rewrites. */
export interface NatPacket {
  src?: string;
  dst: string;
  srcPort?: number | PortRange;
  dstPort?: number;
}

/** What the rule did. */
export interface Translation {
  /** The packet afterwards. */
  after: NatPacket;
  /** `dst 203.0.113.2:8080 -> 10.5.0.20:80`. */
  text: string;
  /** A choice the router makes at run time (a range, a pool), or what was not known. */
  note?: string;
}

/** The router's addresses a translation may need. */
export interface NatContext {
  /** The router's address on the incoming interface (redirect). */
  inAddress?: string;
  /** The router's address on the outgoing interface, or the route's preferred source (masquerade). */
  outAddress?: string;
}

function first(range: string): { value: string; several: boolean } {
  const [a, ...rest] = range.split("-");
  return { value: a.split("/")[0], several: rest.length > 0 || range.includes("/") };
}

function ip4(text: string): number {
  return text.split(".").reduce((n, p) => n * 256 + Number(p), 0);
}

function fmt4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** netmap: the network bits of `to` (a prefix), the host bits of `ip`. */
function netmap(to: string, ip: string): string | undefined {
  const [base, lenText] = to.split("/");
  if (!isIpv4(base) || !isIpv4(ip)) return undefined;
  const len = lenText === undefined ? 32 : Number(lenText);
  const host = 2 ** (32 - len);
  return fmt4(ip4(base) - (ip4(base) % host) + (ip4(ip) % host));
}

function endpoint(address: string | undefined, port: number | PortRange | undefined): string {
  const p = port === undefined
    ? ""
    : typeof port === "number"
    ? `:${port}`
    : port.from === port.to
    ? `:${port.from}`
    : "";
  return `${address ?? "?"}${p}`;
}

/** The packet after `rule` (of chain `dstnat` or `srcnat`) took it. */
export function translate(
  rule: FirewallRule,
  chain: "dstnat" | "srcnat",
  packet: NatPacket,
  ctx: NatContext = {},
): Translation {
  const action = actionOf(rule);
  const to = rule["to-addresses"] ?? rule["to-address"] ?? "";
  const ports = rule["to-ports"] ?? "";
  const notes: string[] = [];
  const pick = (range: string) => {
    const f = first(range);
    if (f.several) {
      notes.push(`${range} holds several values; the router picks one, shown: ${f.value}`);
    }
    return f.value;
  };
  const after: NatPacket = { ...packet };
  const dstSide = chain === "dstnat" && action !== "src-nat" && action !== "masquerade";
  if (action === "masquerade") {
    if (ctx.outAddress) after.src = ctx.outAddress;
    else notes.push("the outgoing interface's address is not known");
  } else if (action === "redirect") {
    after.dst = ctx.inAddress ?? "127.0.0.1";
  } else if (action === "netmap") {
    const mapped = to ? netmap(to, dstSide ? packet.dst : packet.src ?? "") : undefined;
    if (mapped) {
      if (dstSide) after.dst = mapped;
      else after.src = mapped;
    } else notes.push(`netmap to ${to || "(none)"} is not worked out here`);
  } else if (to) {
    if (dstSide) after.dst = pick(to);
    else after.src = pick(to);
  }
  if (ports) {
    const port = Number(pick(ports));
    if (Number.isInteger(port)) {
      if (dstSide) after.dstPort = port;
      else after.srcPort = port;
    }
  }
  const side = dstSide ? "dst" : "src";
  const before = dstSide
    ? endpoint(packet.dst, packet.dstPort)
    : endpoint(packet.src, packet.srcPort);
  const now = dstSide ? endpoint(after.dst, after.dstPort) : endpoint(after.src, after.srcPort);
  return {
    after,
    text: `${side} ${before} \u2192 ${now} (${action})`,
    ...(notes.length ? { note: notes.join("; ") } : {}),
  };
}
