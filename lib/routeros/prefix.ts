/**
 * IP addresses and prefixes as numbers, to answer "is this address inside
 * that prefix?" for IPv4 and IPv6 alike (RouterOS address lists such as
 * `/ip/service address` or `/user address`).
 *
 * @module
 */
import { isIpv4, isIpv6 } from "./ip_address.ts";

/** An address as a number of its family. */
interface Numeric {
  family: 4 | 6;
  value: bigint;
}

function numeric(ip: string): Numeric | undefined {
  // The argument checks' own address forms (no node:net in lib/routeros).
  const family = isIpv4(ip) ? 4 : isIpv6(ip) ? 6 : 0;
  if (family === 4) {
    const [a, b, c, d] = ip.split(".").map(Number);
    return { family, value: BigInt(((a << 24) >>> 0) + (b << 16) + (c << 8) + d) };
  }
  if (family !== 6) return undefined;
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = numeric(v4[1])!.value;
    text = text.slice(0, -v4[1].length) +
      `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const groups = (s: string | undefined) => (s ? s.split(":") : []);
  const h = groups(head), t = groups(tail);
  const all = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return { family, value: all.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

/** The address part of `addr/len` (or the whole text). */
export function addressOf(text: string): string {
  return text.split("/")[0];
}

/**
 * True when `ip` lies inside `prefix` (`10.0.0.0/8`, `2001:db8::/32`, or a
 * bare address meaning itself); false across families or for unparsable text.
 */
export function prefixContains(prefix: string, ip: string): boolean {
  const [base, lenText] = prefix.split("/");
  const p = numeric(base), a = numeric(ip.replace(/^::ffff:(?=\d+\.)/, ""));
  if (!p || !a || p.family !== a.family) return false;
  const bits = p.family === 4 ? 32 : 128;
  const len = lenText === undefined ? bits : Number(lenText);
  if (!Number.isInteger(len) || len < 0 || len > bits) return false;
  const shift = BigInt(bits - len);
  return (p.value >> shift) === (a.value >> shift);
}

/**
 * Whether `ip` lies in `spec`: an address, a prefix (`10.0.0.0/8`) or a
 * range (`10.0.0.5-10.0.0.9`), as firewall rules and address lists write
 * them. Undefined when `spec` is none of these (a DNS name, bad text); false
 * across families.
 */
export function addressInSpec(spec: string, ip: string): boolean | undefined {
  return addressTester(ip)(spec);
}

/**
 * {@linkcode addressInSpec} for one address against many specs (an address
 * list of 100,000 entries): the address is parsed once.
 */
export function addressTester(ip: string): (spec: string) => boolean | undefined {
  const a = numeric(ip.replace(/^::ffff:(?=\d+\.)/, ""));
  if (!a) return () => undefined;
  return (spec) => {
    const dash = spec.indexOf("-");
    if (dash > 0) {
      const lo = numeric(spec.slice(0, dash).trim()), hi = numeric(spec.slice(dash + 1).trim());
      if (!lo || !hi || lo.family !== hi.family) return undefined;
      return lo.family === a.family && lo.value <= a.value && a.value <= hi.value;
    }
    const slash = spec.indexOf("/");
    const p = numeric(slash < 0 ? spec : spec.slice(0, slash));
    if (!p) return undefined;
    const bits = p.family === 4 ? 32 : 128;
    const lenText = slash < 0 ? String(bits) : spec.slice(slash + 1);
    if (!/^\d{1,3}$/.test(lenText) || Number(lenText) > bits) return undefined;
    if (p.family !== a.family) return false;
    const shift = BigInt(bits - Number(lenText));
    return (p.value >> shift) === (a.value >> shift);
  };
}

/** True when two address texts name the same address (`::1` and `0:0::1` alike). */
export function sameAddress(a: string, b: string): boolean {
  return prefixContains(addressOf(a), addressOf(b));
}

/**
 * The network of an interface address (`10.0.0.5/24` -> `10.0.0.0/24`), as
 * its connected route names it; undefined for text that is not `address/len`.
 * IPv6 as RouterOS prints it (RFC 5952: `2001:db8::1/64` -> `2001:db8::/64`).
 */
export function networkOf(text: string): string | undefined {
  const [base, lenText] = text.split("/");
  const p = numeric(base ?? "");
  const bits = p?.family === 4 ? 32 : 128;
  if (!p || lenText === undefined || !/^\d{1,3}$/.test(lenText) || Number(lenText) > bits) {
    return undefined;
  }
  const shift = BigInt(bits - Number(lenText));
  const net = (p.value >> shift) << shift;
  if (p.family === 4) {
    return `${[24n, 16n, 8n, 0n].map((s) => String((net >> s) & 0xffn)).join(".")}/${lenText}`;
  }
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => (net >> s) & 0xffffn);
  return `${ipv6Text(groups)}/${lenText}`;
}

/**
 * Eight IPv6 groups as RouterOS prints them (RFC 5952): lower-case hex,
 * the longest run of two or more zero groups (the first of equal ones) as
 * `::`.
 */
function ipv6Text(groups: readonly bigint[]): string {
  let start = -1, len = 0;
  for (let i = 0; i < groups.length;) {
    let j = i;
    while (j < groups.length && groups[j] === 0n) j++;
    if (j - i > len && j - i >= 2) [start, len] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (start < 0) return hex.join(":");
  return `${hex.slice(0, start).join(":")}::${hex.slice(start + len).join(":")}`;
}
