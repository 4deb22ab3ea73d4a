/**
 * Argument shapes the on-router diagnostics share (torch, the sniffer, IP
 * scan, wake-on-LAN, the bandwidth test): each value is checked here and
 * quoted when sent.
 *
 * @module
 */
import * as z from "zod";
import { isIpv4 } from "../../routeros/ip_address.ts";

/** True for text without control characters. */
function printable(v: string): boolean {
  return [...v].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);
}

/** An interface name. */
export const IFACE = z.string().min(1).max(64).refine(
  printable,
  "an interface name (no control characters)",
);

/** A router user name. */
export const USER = z.string().min(1).max(64).refine(
  printable,
  "a user name (no control characters)",
);

/** An IPv4 address or prefix (`192.168.88.0/24`, `10.0.0.1`). */
export const IPV4_PREFIX = z.string().max(18).refine((v) => {
  const [ip, len, more] = v.split("/");
  return more === undefined && isIpv4(ip) &&
    (len === undefined || (/^\d{1,2}$/.test(len) && Number(len) <= 32));
}, "an IPv4 address or prefix, e.g. 192.168.88.0/24");

/** An IP protocol by name or number (`tcp`, `udp`, `icmp`, `47`). */
export const PROTOCOL = z.string().max(20).regex(
  /^([a-z][a-z0-9-]*|\d{1,3})$/,
  "an IP protocol name or number, e.g. tcp, udp, icmp",
);

/** A MAC address (`3C:22:FB:11:22:33`). */
export const MAC = z.string().regex(
  /^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$/,
  "a MAC address, e.g. 3C:22:FB:11:22:33",
);
