/**
 * A packet followed hop by hop across a fleet of routers, from what each
 * one prints, the way RouterOS's packet flow takes it (MikroTik's "Packet
 * Flow in RouterOS" manual):
 *
 * - arriving at a router: raw prerouting, mangle prerouting (its marks),
 *   NAT dstnat (a new connection's destination may change), the routing
 *   decision ({@linkcode lookupRoute}: VRF, routing mark, policy rules,
 *   main table); then either filter input (the destination is the router)
 *   or filter forward and NAT srcnat;
 * - sent by the first router itself (no source, or a source that is its
 *   own address): raw output, mangle output, the routing decision, filter
 *   output, NAT srcnat;
 * - a packet from another source enters the first router on the interface
 *   that reaches that source.
 *
 * Every firewall chain is walked with the lock-out guard's rule matcher
 * (`rule_match.ts`, `rule_chain.ts`) for the first packet of a new
 * connection. A rule whose match cannot be decided (the protocol was not
 * given, an address list was not read, a matcher on rates or payload) may
 * take the packet: a drop the walk is not sure of is reported and the
 * trace goes on; a sure drop stops it. Marks set by mangle in one chain are
 * seen from the next chain on.
 *
 * The next router is the fleet device that holds the next hop's address
 * ({@linkcode TraceFleet.owner}). The trace stops when the destination is
 * reached (a router's own address, or a host on a router's connected
 * subnet), the packet leaves the fleet (a gateway no fleet device holds),
 * there is no route, the route is a blackhole (or unreachable, prohibit), a
 * rule drops it, it comes back to a router with the same addresses (a
 * loop), a router cannot be read, or after {@linkcode MAX_HOPS}.
 *
 * @module
 */
import { type NatPacket, translate } from "./nat_translate.ts";
import { actionOf, describeRule, type Hit, type Table, walkChain } from "./rule_chain.ts";
import type { FirewallRule, Flow, PortRange, RouterFacts } from "./rule_match.ts";
import {
  connectedInterface,
  describeRoute,
  type LookupResult,
  lookupRoute,
  ownAddress,
  type RoutingFacts,
  type Row,
} from "./route_lookup.ts";
import { isYes } from "./rule_match.ts";

/** Hops followed at most. */
export const MAX_HOPS = 32;

/** An ephemeral source port. */
const EPHEMERAL: PortRange = { from: 1024, to: 65535 };

/** What a trace reads of one router. */
export interface TraceFacts {
  title: string;
  routing: RoutingFacts;
  filter: readonly FirewallRule[];
  nat: readonly FirewallRule[];
  mangle: readonly FirewallRule[];
  raw: readonly FirewallRule[];
  /** Interface lists, address lists and interface types, for the matchers. */
  facts: RouterFacts;
  /** The router has no IPsec policy, so no packet is IPsec-protected (`ipsec-policy` decides). */
  noIpsec?: boolean;
  /** What the reads could not give whole (a table cut at a limit): shown on the router's hop. */
  notes?: readonly string[];
}

/** What the trace asks of the fleet. */
export interface TraceFleet {
  /** A device's facts; throws when it cannot be read. */
  facts(device: string): Promise<TraceFacts>;
  /** The fleet device and interface that hold `address`, if any. */
  owner(address: string): { device: string; interface: string } | undefined;
  /**
   * The routes of `device` that hold `address` (every table), when the
   * facts do not carry the whole table (a router with a full BGP table is
   * asked per destination); added to the facts' routes for that lookup.
   */
  routes?(device: string, address: string): Promise<readonly Row[]>;
}

/** The packet to follow. */
export interface TraceRequest {
  /** The device it starts on. */
  from: string;
  destination: string;
  /** Its source; default: the first router's own address toward the destination. */
  source?: string;
  /** `tcp`, `udp`, `icmp` or a number; unknown when absent. */
  protocol?: string;
  /** Destination port (tcp, udp). */
  port?: number;
  maxHops?: number;
}

/** The packet as it is at one point. */
export interface TracePacket {
  src?: string;
  dst: string;
  protocol?: string;
  src_port?: number;
  dst_port?: number;
}

/** One firewall rule met on the way (one that decided, or one that may have). */
export interface RuleStep {
  table: Table;
  chain: string;
  rule_id: string;
  rule: string;
  /** What it does to the packet: accept, drop, translate, mark, reroute. */
  effect: string;
  /** It takes the packet for sure (else: it may, some matcher cannot be decided). */
  certain: boolean;
  /** The matchers that cannot be decided, and why. */
  unknown?: string[];
}

/** One router on the way. */
export interface TraceHop {
  device: string;
  /** Where the packet came in (absent on the router that sends it). */
  in_interface?: string;
  /** The packet as it arrived (or as the first router sends it). */
  packet: TracePacket;
  /** Rules met, in the order the packet meets them. */
  rules: RuleStep[];
  /** NAT done here: `dst 203.0.113.2:8080 → 10.5.0.20:80 (dst-nat)`. */
  nat: { chain: string; rule_id: string; text: string; note?: string }[];
  /** How the routing table was chosen, step by step. */
  decision: string[];
  route?: {
    id?: string;
    dst_address?: string;
    gateway?: string;
    distance?: string;
    table: string;
    kind: string;
  };
  out_interface?: string;
  next_hop?: string;
  notes: string[];
}

/** Where a trace ended. */
export type TraceOutcome =
  | "delivered"
  | "reached-router"
  | "left-fleet"
  | "no-route"
  | "blackhole"
  | "unreachable"
  | "prohibit"
  | "dropped"
  | "loop"
  | "device-unreachable"
  | "too-many-hops";

/** The whole trace. */
export interface TraceResult {
  outcome: TraceOutcome;
  /** Why it ended there, in one sentence. */
  reason: string;
  hops: TraceHop[];
  /** The device it ended on, and the rule or route that ended it. */
  stopped_at?: { device: string; rule_id?: string; route_id?: string };
}

function packetOf(p: NatPacket & { protocol?: string }): TracePacket {
  return {
    ...(p.src ? { src: p.src } : {}),
    dst: p.dst,
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(typeof p.srcPort === "number" ? { src_port: p.srcPort } : {}),
    ...(p.dstPort !== undefined ? { dst_port: p.dstPort } : {}),
  };
}

interface Marks {
  connection: string | null;
  packet: string | null;
  routing: string | null;
}

interface State {
  device: string;
  /** null: the router sends it. */
  inInterface: string | null | undefined;
  packet: NatPacket & { protocol?: string };
  dstnatted: boolean;
}

function takesPorts(protocol: string | undefined): boolean {
  return protocol === "tcp" || protocol === "udp" || protocol === "6" || protocol === "17";
}

/** The first packet of a new connection, as the firewall sees it. */
function flowOf(
  s: State,
  f: TraceFacts,
  outInterface: string | null | undefined,
  marks: Marks,
): Flow {
  const p = s.packet;
  const local = (ip: string | undefined) =>
    ip !== undefined && ownAddress(f.routing.addresses, ip) !== undefined;
  const ports = takesPorts(p.protocol);
  return {
    ...(p.src ? { srcAddress: p.src } : {}),
    dstAddress: p.dst,
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(ports ? { srcPort: p.srcPort ?? EPHEMERAL } : {}),
    ...(ports && p.dstPort !== undefined ? { dstPort: p.dstPort } : {}),
    ...(s.inInterface !== undefined ? { inInterface: s.inInterface } : {}),
    ...(outInterface !== undefined ? { outInterface } : {}),
    connectionState: "new",
    connectionNatState: s.dstnatted ? ["dstnat"] : [],
    connectionType: null,
    ...(p.protocol === "tcp" || p.protocol === "6" ? { tcpFlags: ["syn"] } : {}),
    srcAddressTypes: local(p.src) ? ["local", "unicast"] : ["unicast"],
    dstAddressTypes: local(p.dst) ? ["local", "unicast"] : ["unicast"],
    connectionMark: marks.connection,
    packetMark: marks.packet,
    routingMark: marks.routing,
    ...(f.noIpsec ? { ipsecPolicy: { in: "none", out: "none" } as const } : {}),
  };
}

function ruleStep(table: Table, chain: string, hit: Hit, effect = hit.effect as string): RuleStep {
  const unknown = hit.match.matchers.filter((m) => m.decision === "unknown")
    .map((m) => `${m.matcher}=${m.value}${m.why ? ` (${m.why})` : ""}`);
  return {
    table,
    chain,
    rule_id: hit.rule[".id"] ?? `#${hit.index}`,
    rule: describeRule(hit.rule),
    effect,
    certain: hit.certain,
    ...(unknown.length ? { unknown } : {}),
  };
}

/** Walk a filter or raw chain: the steps to show, and the rule that drops for sure. */
function filterChain(
  table: "filter" | "raw",
  rules: readonly FirewallRule[],
  chain: string,
  flow: Flow,
  facts: RouterFacts,
): { steps: RuleStep[]; dropped?: RuleStep } {
  const walk = walkChain(rules, table, chain, flow, facts);
  const steps = walk.hits.filter((h) => h !== walk.decider || h.effect === "drop").map((h) =>
    ruleStep(table, chain, h)
  );
  if (walk.decider?.effect === "drop") return { steps, dropped: steps[steps.length - 1] };
  if (walk.decider) steps.push(ruleStep(table, chain, walk.decider));
  return { steps };
}

/** Walk mangle: marks set for sure, and notes for those that may be. */
function mangleChain(f: TraceFacts, chain: string, flow: Flow, marks: Marks, hop: TraceHop) {
  const walk = walkChain(f.mangle, "mangle", chain, flow, f.facts, { recordContinue: true });
  for (const h of walk.hits) {
    const action = actionOf(h.rule);
    const set: [keyof Marks, string][] = [];
    if (action === "mark-connection") set.push(["connection", h.rule["new-connection-mark"]]);
    if (action === "mark-packet") set.push(["packet", h.rule["new-packet-mark"]]);
    if (action === "mark-routing") set.push(["routing", h.rule["new-routing-mark"]]);
    if (!set.length && action !== "route") continue;
    hop.rules.push(ruleStep("mangle", chain, h, action));
    if (!h.certain) continue;
    for (const [k, v] of set) if (v) marks[k] = v;
    if (action === "route") {
      hop.notes.push(
        `mangle rule ${h.rule[".id"]} routes it to ${h.rule["route-dst"]} (not followed)`,
      );
    }
  }
}

/** Walk NAT: the translation done for sure, applied to the state. */
function natChain(
  f: TraceFacts,
  chain: "dstnat" | "srcnat",
  flow: Flow,
  s: State,
  hop: TraceHop,
  addresses: { inAddress?: string; outAddress?: string },
): void {
  const walk = walkChain(f.nat, "nat", chain, flow, f.facts);
  for (const h of walk.hits) {
    if (h === walk.decider) continue;
    if (h.effect === "translate") hop.rules.push(ruleStep("nat", chain, h, "may translate"));
  }
  const d = walk.decider;
  if (!d || d.effect !== "translate") return;
  hop.rules.push(ruleStep("nat", chain, d, "translate"));
  const t = translate(d.rule, chain, s.packet, addresses);
  hop.nat.push({
    chain,
    rule_id: d.rule[".id"] ?? `#${d.index}`,
    text: t.text,
    ...(t.note ? { note: t.note } : {}),
  });
  s.packet = { ...s.packet, ...t.after };
  if (chain === "dstnat") s.dstnatted = true;
}

/** The router's first live address on `iface` (IPv4 first). */
function addressOn(f: TraceFacts, iface: string | undefined): string | undefined {
  if (!iface) return undefined;
  const own = f.routing.addresses.filter((a) =>
    a.interface === iface && a.address && !isYes(a.disabled) && !isYes(a.invalid)
  );
  return own[0]?.address?.split("/")[0];
}

function routeOf(r: LookupResult): TraceHop["route"] {
  const route = r.route;
  return {
    ...(route?.[".id"] ? { id: route[".id"] } : {}),
    ...(route?.["dst-address"] ? { dst_address: route["dst-address"] } : {}),
    ...(route?.gateway ? { gateway: route.gateway } : {}),
    ...(route?.distance ? { distance: route.distance } : {}),
    table: r.table,
    kind: r.kind ?? "unicast",
  };
}

/** The routing facts of `f` for a lookup of `address` (its routes, asked of the fleet when it can). */
async function routingFor(
  fleet: TraceFleet,
  f: TraceFacts,
  address: string,
): Promise<RoutingFacts> {
  if (!fleet.routes) return f.routing;
  return { ...f.routing, routes: [...f.routing.routes, ...await fleet.routes(f.title, address)] };
}

/** The interface a packet from `src` comes in on: its connected subnet, else the route back. */
async function arrivingOn(
  fleet: TraceFleet,
  f: TraceFacts,
  src: string,
): Promise<string | undefined> {
  const routing = await routingFor(fleet, f, src);
  const connected = connectedInterface(routing, src);
  if (connected) return connected;
  const back = lookupRoute(routing, { dst: src, inInterface: null });
  return back.hops?.[0]?.interface;
}

/** Follow `req` across the fleet. */
export async function tracePath(req: TraceRequest, fleet: TraceFleet): Promise<TraceResult> {
  const hops: TraceHop[] = [];
  const seen = new Set<string>();
  const max = req.maxHops ?? MAX_HOPS;
  const end = (
    outcome: TraceOutcome,
    reason: string,
    stopped?: TraceResult["stopped_at"],
  ): TraceResult => ({ outcome, reason, hops, ...(stopped ? { stopped_at: stopped } : {}) });

  let first: TraceFacts;
  try {
    first = await fleet.facts(req.from);
  } catch (err) {
    return end("device-unreachable", `${req.from} could not be read: ${(err as Error).message}`, {
      device: req.from,
    });
  }
  const sentHere = req.source === undefined || ownAddress(first.routing.addresses, req.source);
  let s: State = {
    device: req.from,
    inInterface: sentHere ? null : await arrivingOn(fleet, first, req.source!),
    packet: {
      ...(req.source ? { src: req.source } : {}),
      dst: req.destination,
      ...(req.protocol ? { protocol: req.protocol } : {}),
      ...(takesPorts(req.protocol) && req.port !== undefined ? { dstPort: req.port } : {}),
    },
    dstnatted: false,
  };
  let f: TraceFacts | undefined = first;

  for (let n = 0; n < max; n++) {
    if (!f) {
      try {
        f = await fleet.facts(s.device);
      } catch (err) {
        return end(
          "device-unreachable",
          `${s.device} could not be read: ${(err as Error).message}`,
          { device: s.device },
        );
      }
    }
    const key = `${s.device}|${s.inInterface}|${s.packet.src}|${s.packet.dst}|${s.packet.dstPort}`;
    if (seen.has(key)) {
      const ring = hops.map((h) => h.device);
      return end(
        "loop",
        `the packet came back to ${s.device} as it was before: a routing loop (${
          [...ring, s.device].join(" → ")
        })`,
        { device: s.device },
      );
    }
    seen.add(key);
    const originating = s.inInterface === null;
    const hop: TraceHop = {
      device: s.device,
      ...(s.inInterface ? { in_interface: s.inInterface } : {}),
      packet: packetOf(s.packet),
      rules: [],
      nat: [],
      decision: [],
      notes: [...f.notes ?? []],
    };
    hops.push(hop);
    if (s.inInterface === undefined) {
      hop.notes.push("the interface the packet arrives on is not known");
    }
    const marks: Marks = { connection: null, packet: null, routing: null };
    const drop = (step: RuleStep) =>
      end(
        "dropped",
        `${s.device} ${step.table} ${step.chain} rule ${step.rule_id} ${
          step.certain ? "drops" : "may drop"
        } it: ${step.rule}`,
        { device: s.device, rule_id: step.rule_id },
      );

    // Prerouting (arriving) or output (sent here).
    // Before the routing decision the outgoing interface is unknown (output) or none (prerouting).
    const rawChain = originating ? "output" : "prerouting";
    const early = originating ? undefined : null;
    const raw = filterChain("raw", f.raw, rawChain, flowOf(s, f, early, marks), f.facts);
    hop.rules.push(...raw.steps);
    if (raw.dropped) return drop(raw.dropped);
    mangleChain(f, rawChain, flowOf(s, f, early, marks), marks, hop);
    if (!originating) {
      natChain(f, "dstnat", flowOf(s, f, null, marks), s, hop, {
        inAddress: addressOn(f, s.inInterface ?? undefined),
      });
    }

    // Routing decision.
    const routing = await routingFor(fleet, f, s.packet.dst);
    const r = lookupRoute(routing, {
      dst: s.packet.dst,
      src: s.packet.src,
      inInterface: originating ? null : s.inInterface,
      routingMark: marks.routing,
    });
    hop.decision = r.steps.map((x) => x.text);
    if (r.outcome === "local") {
      if (!originating) {
        const input = filterChain("filter", f.filter, "input", flowOf(s, f, null, marks), f.facts);
        hop.rules.push(...input.steps);
        if (input.dropped) return drop(input.dropped);
      }
      return end("reached-router", `${s.packet.dst} is ${s.device}'s own address`, {
        device: s.device,
      });
    }
    if (r.outcome === "no-route") {
      return end("no-route", `${s.device} has no route to ${s.packet.dst} (table ${r.table})`, {
        device: s.device,
      });
    }
    if (r.outcome === "drop" || r.outcome === "unreachable") {
      const id = r.rule?.[".id"];
      return end(
        r.outcome === "drop" ? "dropped" : "unreachable",
        `${s.device} policy routing rule ${id ?? ""} ${r.outcome}s it`.replace("  ", " "),
        { device: s.device, ...(id ? { rule_id: id } : {}) },
      );
    }
    hop.route = routeOf(r);
    if (r.kind && r.kind !== "unicast") {
      return end(
        r.kind,
        `${s.device} route ${describeRoute(r.route!)} is ${
          r.kind === "blackhole" ? "a blackhole" : r.kind
        }`,
        { device: s.device, ...(r.route?.[".id"] ? { route_id: r.route[".id"] } : {}) },
      );
    }
    const hopsOut = r.hops ?? [];
    if (hopsOut.length > 1) {
      hop.notes.push(
        `equal-cost paths: ${
          hopsOut.map((h) => h.gateway ?? h.interface).join(", ")
        }; the first is followed`,
      );
    }
    const next = hopsOut[0];
    const outInterface = next?.interface;
    const nextHop = next?.gateway ?? s.packet.dst;
    if (outInterface) hop.out_interface = outInterface;
    hop.next_hop = nextHop;
    const outAddress = r.route?.["pref-src"] || addressOn(f, outInterface);
    if (originating && !s.packet.src && outAddress) {
      s.packet.src = outAddress;
      hop.packet = packetOf(s.packet);
    }

    // Forward or output, then srcnat.
    const chain = originating ? "output" : "forward";
    const filter = filterChain(
      "filter",
      f.filter,
      chain,
      flowOf(s, f, outInterface, marks),
      f.facts,
    );
    hop.rules.push(...filter.steps);
    if (filter.dropped) return drop(filter.dropped);
    natChain(f, "srcnat", flowOf(s, f, outInterface, marks), s, hop, { outAddress });

    // The next router.
    const owner = fleet.owner(nextHop);
    if (!owner) {
      if (!next?.gateway) {
        return end(
          "delivered",
          `${s.packet.dst} is on ${s.device}'s connected subnet ${
            r.route?.["dst-address"] ?? ""
          } out of ${outInterface ?? "?"}: a host no fleet device is`,
          { device: s.device },
        );
      }
      return end(
        "left-fleet",
        `the next hop ${nextHop} (out of ${
          outInterface ?? "?"
        } of ${s.device}) is not a fleet device`,
        { device: s.device },
      );
    }
    if (owner.device === s.device) {
      return end("reached-router", `${nextHop} is ${s.device}'s own address`, { device: s.device });
    }
    s = { ...s, device: owner.device, inInterface: owner.interface, packet: { ...s.packet } };
    f = undefined;
  }
  return end("too-many-hops", `the trace stopped after ${max} hops`, { device: s.device });
}

/** Rows as text, for {@linkcode TraceFacts}. */
export type { Row };
