/**
 * The words of a path trace: what it reads of each router, what it asks of
 * the fleet, the packet to follow, and the answer (hops, the rules met,
 * NAT, where and why it stopped). The algorithm is in `path_trace.ts`.
 *
 * @module
 */
import type { Table } from "./rule_chain.ts";
import type { FirewallRule, RouterFacts } from "./rule_match.ts";
import type { RoutingFacts, Row } from "./route_lookup.ts";

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
  /** NAT done here: `dst 203.0.113.2:8080 -> 10.5.0.20:80 (dst-nat)`. */
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
