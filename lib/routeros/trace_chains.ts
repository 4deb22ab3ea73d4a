/**
 * One router's firewall chains as a path trace meets them: the first
 * packet of a new connection as the rule matcher sees it (`Flow`), filter
 * and raw chains (a sure drop stops the trace, a possible one is shown),
 * mangle (the marks it sets) and NAT (the translation applied to the
 * packet), each walked with `rule_chain.ts`.
 *
 * @module
 */
import { type NatPacket, translate } from "./nat_translate.ts";
import { actionOf, describeRule, type Hit, type Table, walkChain } from "./rule_chain.ts";
import type { FirewallRule, Flow, PortRange, RouterFacts } from "./rule_match.ts";
import { isYes } from "./rule_match.ts";
import { ownAddress } from "./route_lookup.ts";
import type { RuleStep, TraceFacts, TraceHop, TracePacket } from "./trace_types.ts";

/** An ephemeral source port. */
const EPHEMERAL: PortRange = { from: 1024, to: 65535 };

/** The packet as the answer shows it. */
export function packetOf(p: NatPacket & { protocol?: string }): TracePacket {
  return {
    ...(p.src ? { src: p.src } : {}),
    dst: p.dst,
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(typeof p.srcPort === "number" ? { src_port: p.srcPort } : {}),
    ...(p.dstPort !== undefined ? { dst_port: p.dstPort } : {}),
  };
}

/** The marks mangle set on the packet so far (null: none). */
export interface Marks {
  connection: string | null;
  packet: string | null;
  routing: string | null;
}

/** Where the packet is and what it looks like now. */
export interface State {
  device: string;
  /** null: the router sends it. */
  inInterface: string | null | undefined;
  packet: NatPacket & { protocol?: string };
  dstnatted: boolean;
}

/** True for protocols with ports (tcp, udp). */
export function takesPorts(protocol: string | undefined): boolean {
  return protocol === "tcp" || protocol === "udp" || protocol === "6" || protocol === "17";
}

/** The first packet of a new connection, as the firewall sees it. */
export function flowOf(
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

export function ruleStep(
  table: Table,
  chain: string,
  hit: Hit,
  effect = hit.effect as string,
): RuleStep {
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
export function filterChain(
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
export function mangleChain(f: TraceFacts, chain: string, flow: Flow, marks: Marks, hop: TraceHop) {
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
export function natChain(
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
export function addressOn(f: TraceFacts, iface: string | undefined): string | undefined {
  if (!iface) return undefined;
  const own = f.routing.addresses.filter((a) =>
    a.interface === iface && a.address && !isYes(a.disabled) && !isYes(a.invalid)
  );
  return own[0]?.address?.split("/")[0];
}
