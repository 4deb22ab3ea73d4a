/**
 * Whether one firewall rule matches one packet. Every matcher RouterOS has
 * in `/ip firewall filter|raw|nat|mangle` and their IPv6 twins (the
 * arguments of `add` in the 7.12 to 7.24 command trees) is decided against
 * a {@linkcode Flow}, a description of the packet, and what is known of the
 * router ({@linkcode RouterFacts}: interface lists, address lists,
 * interface types). Each matcher answers `matches`, `no-match` or `unknown`
 * (the flow or the facts do not say, or the matcher depends on things no
 * description of a packet holds: rates, time, payload); the rule matches
 * when every matcher does, and does not when one does not.
 *
 * Values are the text the router prints (`print as-value`): `!` negates a
 * value, lists are comma separated (`;` where an array was printed as text),
 * ports take ranges (`1000-2000`), addresses prefixes and ranges.
 *
 * @module
 */
import { addressInSpec, addressTester } from "./prefix.ts";
import { NOT_MATCHERS, protocolNumber, UNDECIDABLE } from "./rule_vocabulary.ts";

/** What a matcher, or a whole rule, says of a packet. */
export type Decision = "matches" | "no-match" | "unknown";

/** A firewall rule as the router prints it: RouterOS property names, text values. */
export type FirewallRule = Readonly<Record<string, string>>;

/** Ports from `from` to `to`, both included (an ephemeral source port: 1024-65535). */
export interface PortRange {
  readonly from: number;
  readonly to: number;
}

/**
 * A packet, as far as it is known. An absent field is unknown (matchers on
 * it answer `unknown`); `null` means the packet has none (no in-interface
 * for a packet the router sends, no NAT helper, no mark).
 */
export interface Flow {
  readonly srcAddress?: string;
  readonly dstAddress?: string;
  /** Protocol name (`tcp`) or number (`6`). */
  readonly protocol?: string;
  readonly srcPort?: number | PortRange;
  readonly dstPort?: number | PortRange;
  readonly inInterface?: string | null;
  readonly outInterface?: string | null;
  /** new, established, related, invalid or untracked. */
  readonly connectionState?: string;
  /** The NAT done to the connection (`srcnat`, `dstnat`); empty for none. */
  readonly connectionNatState?: readonly string[];
  /** The connection helper (`ftp`, `sip`...), null for none. */
  readonly connectionType?: string | null;
  /** The TCP flags set on the packet (the others are clear). */
  readonly tcpFlags?: readonly string[];
  /** Route types of the addresses: `local`, `unicast`, `broadcast`, `multicast`... */
  readonly srcAddressTypes?: readonly string[];
  readonly dstAddressTypes?: readonly string[];
  readonly connectionMark?: string | null;
  readonly packetMark?: string | null;
  readonly routingMark?: string | null;
  readonly srcMacAddress?: string;
  /**
   * Whether IPsec protects the packet coming in and going out (`ipsec`)
   * or not (`none`): known when the router has no IPsec policy at all.
   */
  readonly ipsecPolicy?: { readonly in: "ipsec" | "none"; readonly out: "ipsec" | "none" };
}

/** What is known of the router the rules are on. */
export interface RouterFacts {
  /** Members of each interface list that could be resolved. */
  readonly interfaceLists?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Entries (addresses, prefixes, ranges or names) of each address list read, enabled ones. */
  readonly addressLists?: ReadonlyMap<string, readonly string[]>;
  /** Interface types by name (`ether`, `vlan`, `pppoe-out`...), for `all-ethernet` and its kin. */
  readonly interfaceTypes?: ReadonlyMap<string, string>;
}

/** One matcher's answer. */
export interface MatcherResult {
  /** RouterOS property name (`dst-port`). */
  readonly matcher: string;
  /** Its value as the rule holds it (`!22,80`). */
  readonly value: string;
  readonly decision: Decision;
  /** Why it is unknown or does not match, when that is not plain. */
  readonly why?: string;
}

/** A rule's answer and each matcher's. */
export interface RuleMatch {
  readonly decision: Decision;
  readonly matchers: readonly MatcherResult[];
}

/** Three-valued truth: undefined is unknown. */
type Tri = boolean | undefined;
type Answer = Tri | { readonly is: Tri; readonly why: string };

/** Interface types each `all-*` wildcard of in-interface/out-interface stands for. */
const WILDCARDS: Readonly<Record<string, (type: string) => boolean>> = {
  "all-ethernet": (t) => t === "ether",
  "all-vlan": (t) => t === "vlan",
  "all-wireless": (t) => /^(wlan|wifi|wifiwave2|cap)/.test(t),
  "all-ppp": (t) => /^(ppp|pppoe|pptp|l2tp|sstp|ovpn)-(in|out)$/.test(t),
};

function items(value: string): string[] {
  return value.split(/[,;]/).map((s) => s.trim()).filter((s) => s !== "");
}

function or(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  return a === false && b === false ? false : undefined;
}

function unknown(why: string): Answer {
  return { is: undefined, why };
}

/** Whether a flow's port (or range) lies in a port list (`22,80,1000-2000`). */
function portIn(list: string, port: number | PortRange | undefined, which: string): Answer {
  if (port === undefined) return unknown(`the ${which} port is not known`);
  const ranges: [number, number][] = [];
  for (const item of items(list)) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item);
    if (!m) return unknown(`${item} is not a port or port range`);
    ranges.push([Number(m[1]), Number(m[2] ?? m[1])]);
  }
  const p = typeof port === "number" ? { from: port, to: port } : port;
  if (ranges.every(([a, b]) => b < p.from || p.to < a)) return false;
  // Adjacent or overlapping ranges merged: the port range is in the list when one holds it.
  const merged: [number, number][] = [];
  for (const [a, b] of ranges.sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged.some(([a, b]) => a <= p.from && p.to <= b)
    ? true
    : unknown(`the ${which} port (${p.from}-${p.to}) is only partly in the list`);
}

function address(ip: string | undefined, which: string) {
  return (value: string): Answer => {
    if (ip === undefined) return unknown(`the ${which} address is not known`);
    const is = addressInSpec(value, ip);
    return is === undefined ? unknown(`${value} is not an address, prefix or range`) : is;
  };
}

function addressList(ip: string | undefined, which: string, facts: RouterFacts) {
  // A list is looked up once per packet, however many rules name it.
  const seen = new Map<string, Answer>();
  return (list: string): Answer => {
    if (ip === undefined) return unknown(`the ${which} address is not known`);
    let answer = seen.get(list);
    if (answer !== undefined) return answer;
    const entries = facts.addressLists?.get(list);
    if (!entries) answer = unknown(`address list ${list} was not read`);
    else {
      const test = addressTester(ip);
      let named = false;
      answer = false;
      for (const entry of entries) {
        const is = test(entry);
        if (is === true) {
          answer = true;
          break;
        }
        if (is === undefined) named = true;
      }
      if (answer === false && named) {
        answer = unknown(`address list ${list} holds names the router resolves itself`);
      }
    }
    seen.set(list, answer);
    return answer;
  };
}

function iface(name: string | null | undefined, which: string, facts: RouterFacts) {
  return (value: string): Answer => {
    if (name === null) return false;
    if (name === undefined) return unknown(`the ${which} interface is not known`);
    const wildcard = WILDCARDS[value];
    if (!wildcard) return value === name;
    const type = facts.interfaceTypes?.get(name);
    return type === undefined
      ? unknown(`the type of interface ${name} is not known`)
      : wildcard(type);
  };
}

function ifaceList(name: string | null | undefined, which: string, facts: RouterFacts) {
  return (list: string): Answer => {
    if (name === null) return false;
    if (name === undefined) return unknown(`the ${which} interface is not known`);
    const members = facts.interfaceLists?.get(list);
    if (!members) return unknown(`the members of interface list ${list} are not known`);
    return members.has(name);
  };
}

/** Any of the rule's values among the flow's (undefined: the flow does not say). */
function anyOf(flowValues: readonly string[] | undefined, what: string) {
  return (value: string): Answer => {
    if (flowValues === undefined) return unknown(`the ${what} is not known`);
    return items(value).some((v) => flowValues.includes(v));
  };
}

function mark(flowMark: string | null | undefined, what: string) {
  return (value: string): Answer => {
    if (flowMark === undefined) return unknown(`the ${what} is not known`);
    return value === "no-mark" ? flowMark === null : flowMark === value;
  };
}

/** The decider of each matcher RouterOS has, against one flow. */
function matchersFor(flow: Flow, facts: RouterFacts): Record<string, (value: string) => Answer> {
  const proto = flow.protocol === undefined ? undefined : protocolNumber(flow.protocol);
  return {
    "src-address": address(flow.srcAddress, "source"),
    "dst-address": address(flow.dstAddress, "destination"),
    "src-address-list": addressList(flow.srcAddress, "source", facts),
    "dst-address-list": addressList(flow.dstAddress, "destination", facts),
    protocol: (value) => {
      const want = protocolNumber(value);
      if (want === undefined) return unknown(`protocol ${value} is not one RouterOS names`);
      return proto === undefined ? unknown("the protocol is not known") : want === proto;
    },
    "src-port": (value) => portIn(value, flow.srcPort, "source"),
    "dst-port": (value) => portIn(value, flow.dstPort, "destination"),
    port: (value) => {
      const s = portIn(value, flow.srcPort, "source");
      const d = portIn(value, flow.dstPort, "destination");
      const is = or(typeof s === "object" ? s.is : s, typeof d === "object" ? d.is : d);
      return is === undefined ? unknown("a source or destination port is not known") : is;
    },
    "in-interface": iface(flow.inInterface, "incoming", facts),
    "out-interface": iface(flow.outInterface, "outgoing", facts),
    "in-interface-list": ifaceList(flow.inInterface, "incoming", facts),
    "out-interface-list": ifaceList(flow.outInterface, "outgoing", facts),
    "connection-state": anyOf(
      flow.connectionState === undefined ? undefined : [flow.connectionState],
      "connection state",
    ),
    "connection-nat-state": anyOf(flow.connectionNatState, "connection's NAT state"),
    "connection-type": (value) => {
      if (flow.connectionType === undefined) return unknown("the connection helper is not known");
      return flow.connectionType !== null && items(value).includes(flow.connectionType);
    },
    "src-address-type": anyOf(flow.srcAddressTypes, "source address type"),
    "dst-address-type": anyOf(flow.dstAddressTypes, "destination address type"),
    "tcp-flags": (value) => {
      if (proto !== undefined && proto !== 6) return false;
      if (!flow.tcpFlags) return unknown("the packet's TCP flags are not known");
      const set = flow.tcpFlags;
      return items(value).every((f) =>
        f.startsWith("!") ? !set.includes(f.slice(1)) : set.includes(f)
      );
    },
    "icmp-options": () =>
      proto !== undefined && proto !== 1 && proto !== 58
        ? false
        : unknown("the ICMP type is not known"),
    "connection-mark": mark(flow.connectionMark, "connection mark"),
    "packet-mark": mark(flow.packetMark, "packet mark"),
    "routing-mark": mark(flow.routingMark, "routing mark"),
    "ipsec-policy": (value) => {
      if (flow.ipsecPolicy === undefined) {
        return unknown("whether the packet is IPsec-protected is not known");
      }
      const [direction, policy] = items(value);
      const is = direction === "in" || direction === "out"
        ? flow.ipsecPolicy[direction]
        : undefined;
      return is === undefined || (policy !== "ipsec" && policy !== "none")
        ? unknown(`${value} is not a direction and a policy`)
        : is === policy;
    },
    "src-mac-address": (value) =>
      flow.srcMacAddress === undefined
        ? unknown("the source MAC address is not known")
        : value.toLowerCase() === flow.srcMacAddress.toLowerCase(),
  };
}

/** Matchers decided from a flow and the router's facts (the names of {@linkcode matchersFor}). */
const DECIDED = new Set(Object.keys(matchersFor({}, {})));

/**
 * How this evaluator treats a rule property: decided from the packet,
 * always left unknown (rates, payload, time...), not a matcher at all (what
 * the rule does), or a name it does not know (also left unknown).
 */
export function matcherKind(
  name: string,
): "decided" | "undecidable" | "not-a-matcher" | "unheard-of" {
  if (NOT_MATCHERS.has(name)) return "not-a-matcher";
  if (DECIDED.has(name)) return "decided";
  return UNDECIDABLE[name] ? "undecidable" : "unheard-of";
}

/** True for a rule property that narrows which packets it takes (set, and a matcher). */
export function isMatcher(name: string, value: string | undefined): boolean {
  return value !== undefined && value !== "" && !NOT_MATCHERS.has(name);
}

/** The matchers a rule sets, in the rule's order. */
export function matchersOf(rule: FirewallRule): string[] {
  return Object.keys(rule).filter((k) => isMatcher(k, rule[k]));
}

/** True for `yes`, `true` (how RouterOS prints a set flag). */
export function isYes(value: string | undefined): boolean {
  return value === "true" || value === "yes";
}

/**
 * Whether `rule` matches the packet `flow` describes. A disabled rule, or
 * one the router marks invalid, matches nothing.
 */
export function matchRule(rule: FirewallRule, flow: Flow, facts: RouterFacts = {}): RuleMatch {
  return ruleMatcher(flow, facts)(rule);
}

/**
 * {@linkcode matchRule} for many rules against one packet: what does not
 * depend on the rule (address list lookups) is worked out once.
 */
export function ruleMatcher(
  flow: Flow,
  facts: RouterFacts = {},
): (rule: FirewallRule) => RuleMatch {
  const deciders = matchersFor(flow, facts);
  return (rule) => decide(rule, deciders);
}

function decide(
  rule: FirewallRule,
  deciders: Record<string, (value: string) => Answer>,
): RuleMatch {
  if (isYes(rule.disabled)) {
    return {
      decision: "no-match",
      matchers: [{ matcher: "disabled", value: "yes", decision: "no-match", why: "disabled" }],
    };
  }
  if (isYes(rule.invalid)) {
    return {
      decision: "no-match",
      matchers: [{ matcher: "invalid", value: "yes", decision: "no-match", why: "invalid" }],
    };
  }
  const results: MatcherResult[] = [];
  for (const name of matchersOf(rule)) {
    const raw = rule[name];
    // tcp-flags negates flag by flag (`syn,!ack`); the others, the whole value.
    const negated = raw.startsWith("!") && name !== "tcp-flags";
    const value = negated ? raw.slice(1) : raw;
    let answer: Answer;
    if (deciders[name]) answer = deciders[name](value);
    else if (UNDECIDABLE[name]) answer = unknown(UNDECIDABLE[name]);
    else answer = unknown("this evaluator does not know the matcher");
    let is = typeof answer === "object" ? answer.is : answer;
    const why = typeof answer === "object" ? answer.why : undefined;
    if (negated && is !== undefined) is = !is;
    const decision: Decision = is === undefined ? "unknown" : is ? "matches" : "no-match";
    results.push({ matcher: name, value: raw, decision, ...(why ? { why } : {}) });
  }
  const decision: Decision = results.some((r) => r.decision === "no-match")
    ? "no-match"
    : results.some((r) => r.decision === "unknown")
    ? "unknown"
    : "matches";
  return { decision, matchers: results };
}

/**
 * A rule read from the router (`print as-value`), as text: numbers and
 * booleans as RouterOS prints them, arrays comma joined.
 */
export function ruleFromRaw(raw: Readonly<Record<string, unknown>>): FirewallRule {
  const rule: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) rule[k] = v.map(String).join(",");
    else if (typeof v === "boolean") rule[k] = v ? "true" : "false";
    else rule[k] = String(v);
  }
  return rule;
}
