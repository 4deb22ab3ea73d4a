/**
 * Whether a new connection from the WAN side to a port of the router would
 * be let in: the filter table's `input` chain walked with the lock-out
 * guard's rule matcher (`rule_match.ts`, `rule_chain.ts`), once per WAN
 * interface and router address, for the opening packet of a connection
 * from an unknown internet address to the router's address on that
 * interface (or, when it has none, to each address the router has: the
 * worst answer counts).
 *
 * - `open`: a rule accepts it for sure, or nothing drops it (the input
 *   chain accepts what falls off its end);
 * - `maybe`: a rule whose match depends on what is not known (the source
 *   address, an address list that was not read) may accept it before the
 *   rule that drops it, or may drop it where nothing else would;
 * - `closed`: a rule drops it for sure and nothing before may accept it.
 *
 * The source is an unknown internet address: a rule that takes only inside
 * sources (RFC 1918, CGNAT, loopback, link-local; in `src-address` or in
 * every entry of a `src-address-list` that was read) cannot take it.
 *
 * @module
 */
import { type Hit, walkChain } from "./rule_chain.ts";
import type { FirewallRule, Flow, RouterFacts } from "./rule_match.ts";
import { isYes } from "./rule_match.ts";
import type { Row } from "./route_lookup.ts";
import type { WanInterface } from "./wan.ts";

/** The verdict for one port. */
export type ExposureVerdict = "open" | "maybe" | "closed";

/** What the input chain does with it on one WAN interface. */
export interface InterfaceExposure {
  interface: string;
  verdict: ExposureVerdict;
  /** The rule that decided for sure (accept or drop); none when it fell off the chain's end. */
  decider?: FirewallRule;
  /** Rules that may accept it (before the drop) or may drop it (where nothing else does). */
  maybe: FirewallRule[];
}

/** The verdict over every WAN interface (the worst one) and each interface's. */
export interface Exposure {
  verdict: ExposureVerdict;
  interfaces: InterfaceExposure[];
}

/** What the evaluation reads. */
export interface ExposureInputs {
  /** The filter table, every chain, in order. */
  filter: readonly FirewallRule[];
  facts: RouterFacts;
  wan: readonly WanInterface[];
  /** The router's addresses (its address on each WAN interface is the destination). */
  addresses: readonly Row[];
}

/** The connection to test: protocol and port (absent: any, to find a catch-all drop). */
export interface ExposureQuery {
  protocol?: "tcp" | "udp";
  port?: number;
}

const RANK: Record<ExposureVerdict, number> = { closed: 0, maybe: 1, open: 2 };

/**
 * The router's addresses a connection arriving on `iface` may be sent to:
 * those of `iface`, else every address the router has (a router answers on
 * any of its addresses on any interface); none known: the destination is
 * left unknown.
 */
export function destinationsOn(inputs: ExposureInputs, iface: string): (string | undefined)[] {
  const live = inputs.addresses.filter((a) =>
    a.address && !isYes(a.disabled) && !isYes(a.invalid) && !a.address.includes(":")
  );
  const own = live.filter((a) => a.interface === iface);
  const chosen = (own.length ? own : live).map((a) => a.address!.split("/")[0]);
  return chosen.length ? [...new Set(chosen)] : [undefined];
}

/** The opening packet of a new connection from the internet to `dst` on `iface`. */
export function wanFlow(iface: string, q: ExposureQuery, dst: string | undefined): Flow {
  return {
    ...(dst ? { dstAddress: dst } : {}),
    ...(q.protocol ? { protocol: q.protocol } : {}),
    ...(q.protocol ? { srcPort: { from: 1024, to: 65535 } } : {}),
    ...(q.port !== undefined ? { dstPort: q.port } : {}),
    inInterface: iface,
    outInterface: null,
    connectionState: "new",
    connectionNatState: [],
    connectionType: null,
    ...(q.protocol === "tcp" ? { tcpFlags: ["syn"] } : {}),
    srcAddressTypes: ["unicast"],
    dstAddressTypes: ["local", "unicast"],
    connectionMark: null,
    packetMark: null,
    routingMark: null,
  };
}

function verdictOf(hits: readonly Hit[], decider: Hit | undefined): InterfaceExposure {
  const uncertain = hits.filter((h) => h !== decider && !h.certain);
  if (decider?.effect === "accept") {
    return { interface: "", verdict: "open", decider: decider.rule, maybe: [] };
  }
  if (decider?.effect === "drop") {
    const accepts = uncertain.filter((h) => h.effect === "accept").map((h) => h.rule);
    return {
      interface: "",
      verdict: accepts.length ? "maybe" : "closed",
      decider: decider.rule,
      maybe: accepts,
    };
  }
  const drops = uncertain.filter((h) => h.effect === "drop").map((h) => h.rule);
  return { interface: "", verdict: drops.length ? "maybe" : "open", maybe: drops };
}

/**
 * True when a rule takes only inside sources (its `src-address`, or every
 * entry of its `src-address-list` as read, is an inside prefix): no
 * internet source can match it, whatever the address.
 */
function insideSourcesOnly(rule: FirewallRule, facts: RouterFacts): boolean {
  const src = rule["src-address"];
  if (src && !src.startsWith("!") && isInsidePrefix(src)) return true;
  const list = rule["src-address-list"];
  if (!list || list.startsWith("!")) return false;
  const entries = facts.addressLists?.get(list);
  return entries !== undefined && entries.length > 0 && entries.every(isInsidePrefix);
}

/** Whether a new connection from the WAN to `q` would be let in, on each WAN interface. */
export function wanExposure(inputs: ExposureInputs, q: ExposureQuery): Exposure {
  const filter = inputs.filter.map((r) =>
    insideSourcesOnly(r, inputs.facts) ? { ...r, disabled: "true" } : r
  );
  const interfaces = inputs.wan.map((w) => {
    let worst: InterfaceExposure | undefined;
    for (const dst of destinationsOn(inputs, w.name)) {
      const flow = wanFlow(w.name, q, dst);
      const walk = walkChain(filter, "filter", "input", flow, inputs.facts);
      const v = { ...verdictOf(walk.hits, walk.decider), interface: w.name };
      if (!worst || RANK[v.verdict] > RANK[worst.verdict]) worst = v;
    }
    return worst!;
  });
  const verdict = interfaces.reduce<ExposureVerdict>(
    (worst, i) => RANK[i.verdict] > RANK[worst] ? i.verdict : worst,
    "closed",
  );
  return { verdict, interfaces };
}

/**
 * RFC 1918, CGNAT, loopback and link-local IPv4 prefixes: addresses the
 * internet does not reach the router from (IPv6: unique-local fc00::/7,
 * link-local fe80::/10 and ::1).
 */
const INSIDE = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
];

function prefixBits(p: string): { base: string; len: number } {
  const [base, len] = p.split("/");
  return { base, len: len === undefined ? (base.includes(":") ? 128 : 32) : Number(len) };
}

function v4(text: string): number | undefined {
  const p = text.split(".").map(Number);
  if (p.length !== 4 || p.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return undefined;
  return p.reduce((a, b) => a * 256 + b, 0);
}

/** True when every address `prefix` covers is an inside one (IPv4 exactly; IPv6 by its start). */
export function isInsidePrefix(prefix: string): boolean {
  const { base, len } = prefixBits(prefix.trim());
  if (base.includes(":")) {
    const lower = base.toLowerCase();
    if (lower === "::1") return len === 128;
    if (/^f[cd]/.test(lower)) return len >= 7;
    return /^fe[89ab]/.test(lower) && len >= 10;
  }
  const n = v4(base);
  if (n === undefined) return false;
  return INSIDE.some((i) => {
    const { base: ib, len: il } = prefixBits(i);
    const size = 2 ** (32 - il);
    return len >= il && Math.floor(n / size) === Math.floor(v4(ib)! / size);
  });
}
