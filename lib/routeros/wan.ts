/**
 * Which interfaces of a router face the outside ("WAN"), and why, from
 * three sources:
 *
 * 1. the operator: inventory tags `wan:<interface>` (`wan:ether1`);
 * 2. the router's `WAN` interface list (the default configuration's list
 *    of uplinks), members resolved with includes and excludes;
 * 3. when neither names one: the interface of each active default route
 *    (`0.0.0.0/0` or `::/0`) of the main table, unless that interface is in
 *    the `LAN` list. A router whose WAN list names its uplink keeps its
 *    default route through another router of the site out of the WAN.
 *
 * The LAN side is what is left: the subnets of the router's addresses on
 * interfaces that are not WAN (the prefixes a fix may restrict a service to).
 *
 * @module
 */
import { type NextHop, nextHops, routeTable, type Row } from "./route_lookup.ts";
import { isYes } from "./rule_match.ts";

/** An outside-facing interface and the reasons it counts as one. */
export interface WanInterface {
  name: string;
  why: string[];
}

/** What WAN detection reads. */
export interface WanInputs {
  /** Resolved interface lists (`interfaceListMembers`). */
  lists: ReadonlyMap<string, ReadonlySet<string>>;
  /** Routes (only active default routes of the main table count). */
  routes: readonly Row[];
  /** The router's addresses. */
  addresses: readonly Row[];
  /** Interfaces the inventory tags name (`wan:ether1` -> `ether1`). */
  tagged?: readonly string[];
}

/** The tag prefix that names a WAN interface in the inventory. */
export const WAN_TAG = "wan:";

/** The interfaces that inventory tags name as WAN. */
export function taggedWan(tags: readonly string[]): string[] {
  return tags.filter((t) => t.toLowerCase().startsWith(WAN_TAG)).map((t) =>
    t.slice(WAN_TAG.length).trim()
  ).filter((t) => t !== "");
}

function listNamed(lists: ReadonlyMap<string, ReadonlySet<string>>, name: string) {
  for (const [k, v] of lists) if (k.toLowerCase() === name.toLowerCase()) return { name: k, v };
  return undefined;
}

/** The outside-facing interfaces, each with its reasons. */
export function wanInterfaces(i: WanInputs): WanInterface[] {
  const out = new Map<string, string[]>();
  const add = (name: string, why: string) => {
    if (!out.has(name)) out.set(name, []);
    const list = out.get(name)!;
    if (!list.includes(why)) list.push(why);
  };
  for (const t of i.tagged ?? []) add(t, `inventory tag ${WAN_TAG}${t}`);
  const wan = listNamed(i.lists, "WAN");
  for (const m of wan?.v ?? []) add(m, `interface list ${wan!.name}`);
  const lan = listNamed(i.lists, "LAN")?.v ?? new Set<string>();
  if (out.size) return [...out].map(([name, why]) => ({ name, why }));
  for (const r of i.routes) {
    const dst = r["dst-address"];
    if (dst !== "0.0.0.0/0" && dst !== "::/0") continue;
    if (isYes(r.disabled) || (r.active !== undefined && !isYes(r.active))) continue;
    if (routeTable(r) !== "main") continue;
    for (const hop of nextHops(r, { routes: i.routes, addresses: i.addresses })) {
      if (!hop.interface || lan.has(hop.interface)) continue;
      add(
        hop.interface,
        `default route ${r[".id"] ?? ""} via ${describeHop(hop)}`.replace("  ", " "),
      );
    }
  }
  return [...out].map(([name, why]) => ({ name, why }));
}

function describeHop(hop: NextHop): string {
  return hop.gateway ? `${hop.gateway} (${hop.interface})` : `${hop.interface}`;
}

/** The network of `a.b.c.d/len` as a prefix (`a.b.c.0/len`); IPv4 only, else the text. */
export function networkOf(address: string): string {
  const [ip, lenText] = address.split("/");
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || lenText === undefined) return address;
  const len = Number(lenText);
  const n = parts.reduce((acc, p) => acc * 256 + p, 0);
  const size = 2 ** (32 - len);
  const net = n - (n % size);
  return `${[net >>> 24, (net >>> 16) & 255, (net >>> 8) & 255, net & 255].join(".")}/${len}`;
}

/** The subnets of the router's addresses on interfaces that are not WAN (the inside). */
export function lanPrefixes(addresses: readonly Row[], wan: readonly WanInterface[]): string[] {
  const outside = new Set(wan.map((w) => w.name));
  const out: string[] = [];
  for (const a of addresses) {
    if (!a.address || !a.interface || isYes(a.disabled) || isYes(a.invalid)) continue;
    if (outside.has(a.interface)) continue;
    const net = networkOf(a.address);
    if (!out.includes(net)) out.push(net);
  }
  return out;
}
