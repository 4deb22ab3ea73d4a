/**
 * A packet's way through one chain of a firewall table: rules are taken top
 * to bottom (the table's order), a `jump` walks its target chain and comes
 * back on `return` or at that chain's end, and the first rule that matches
 * with a final action decides. What each action does, per table:
 *
 * | table  | decides for the packet | goes on |
 * |--------|------------------------|---------|
 * | filter | accept; drop, reject, tarpit (drop) | log, passthrough, add-*-to-address-list, fasttrack-connection |
 * | raw    | accept; drop | notrack, log, passthrough, add-*-to-address-list |
 * | nat    | accept (no NAT); dst-nat, redirect, netmap, src-nat, masquerade, same, endpoint-independent-nat (translate) | log, passthrough, add-*-to-address-list |
 * | mangle | accept; any action with passthrough=no | every action with passthrough (mark-routing and route are reported as re-routes) |
 *
 * A rule whose match is `unknown` may decide or may not: the walk records
 * it as a hit that is not certain and goes on. A `jump` whose match is
 * unknown walks its target with every hit there uncertain. A chain that
 * jumps into itself, directly or through others, is not walked again.
 *
 * @module
 */
import {
  type FirewallRule,
  type Flow,
  isYes,
  matchersOf,
  type RouterFacts,
  type RuleMatch,
  ruleMatcher,
} from "./rule_match.ts";

/** A RouterOS firewall table. */
export type Table = "filter" | "raw" | "nat" | "mangle";

/** What a matching rule does to the packet. */
export type Effect =
  | "accept"
  | "drop"
  | "translate"
  | "reroute"
  | "stop"
  | "continue"
  | "jump"
  | "return";

/** A rule's effect, and whether it ends the walk when it certainly matches. */
export interface ActionEffect {
  effect: Effect;
  final: boolean;
}

const TRANSLATIONS = new Set([
  "dst-nat",
  "redirect",
  "netmap",
  "src-nat",
  "masquerade",
  "same",
  "endpoint-independent-nat",
  "socksify",
]);

/** The action of a rule (`accept` when it has none, as RouterOS defaults). */
export function actionOf(rule: FirewallRule): string {
  return rule.action || "accept";
}

/** What a rule's action does in `table`. */
export function effectOf(table: Table, rule: FirewallRule): ActionEffect {
  const action = actionOf(rule);
  if (action === "jump") return { effect: "jump", final: false };
  if (action === "return") return { effect: "return", final: false };
  if (action === "accept") return { effect: "accept", final: true };
  switch (table) {
    case "filter":
      return ["drop", "reject", "tarpit"].includes(action)
        ? { effect: "drop", final: true }
        : { effect: "continue", final: false };
    case "raw":
      return action === "drop"
        ? { effect: "drop", final: true }
        : { effect: "continue", final: false };
    case "nat":
      return TRANSLATIONS.has(action)
        ? { effect: "translate", final: true }
        : { effect: "continue", final: false };
    case "mangle": {
      const stops = rule.passthrough !== undefined && !isYes(rule.passthrough);
      if (action === "mark-routing" || action === "route") {
        return { effect: "reroute", final: stops };
      }
      return stops ? { effect: "stop", final: true } : { effect: "continue", final: false };
    }
  }
}

/** A rule that matched (or may have) with an effect that counts. */
export interface Hit {
  readonly rule: FirewallRule;
  /** Its position in the table (0 first). */
  readonly index: number;
  /** The chains walked to reach it, the starting chain first. */
  readonly via: readonly string[];
  readonly match: RuleMatch;
  readonly effect: Effect;
  readonly final: boolean;
  /** The rule and every jump to it certainly match. */
  readonly certain: boolean;
}

/** Where a walk ended. */
export interface ChainWalk {
  /** Every hit on the way, in order (the decider last when there is one). */
  readonly hits: readonly Hit[];
  /** The rule that decided for certain; none when the packet left the chain at its end. */
  readonly decider?: Hit;
}

/** How far to walk. */
export interface WalkOptions {
  /**
   * Go on past this certain final hit instead of stopping there (to find
   * every rule of an effect the packet may meet).
   */
  goOnPast?(hit: Hit): boolean;
  /**
   * Also record the rules that match and let the packet go on (mangle
   * marks, logs, address-list adds), as hits with effect `continue`: what
   * they did to the packet is theirs to read (path tracing applies marks).
   */
  recordContinue?: boolean;
}

/** Nested jumps followed at most. */
const MAX_DEPTH = 32;

/**
 * Walk `flow` through `chain` of `table` (`rules` in table order, every
 * chain's rules together, as printed).
 */
export function walkChain(
  rules: readonly FirewallRule[],
  table: Table,
  chain: string,
  flow: Flow,
  facts: RouterFacts = {},
  options: WalkOptions = {},
): ChainWalk {
  const hits: Hit[] = [];
  const matchRule = ruleMatcher(flow, facts);
  let decider: Hit | undefined;
  const walk = (via: readonly string[], sure: boolean): boolean => {
    const here = via[via.length - 1];
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index];
      if (rule.chain !== here) continue;
      const match = matchRule(rule);
      if (match.decision === "no-match") continue;
      const certain = sure && match.decision === "matches";
      const { effect, final } = effectOf(table, rule);
      if (effect === "continue") {
        if (options.recordContinue) {
          hits.push({ rule, index, via, match, effect, final, certain });
        }
        continue;
      }
      if (effect === "jump") {
        const target = rule["jump-target"];
        if (!target || via.includes(target) || via.length > MAX_DEPTH) continue;
        if (walk([...via, target], certain)) return true;
        continue;
      }
      if (effect === "return") {
        if (certain) return false;
        continue;
      }
      const hit: Hit = { rule, index, via, match, effect, final, certain };
      hits.push(hit);
      if (final && certain && !options.goOnPast?.(hit)) {
        decider = hit;
        return true;
      }
    }
    return false;
  };
  walk([chain], true);
  return { hits, ...(decider ? { decider } : {}) };
}

/** The matchers a message names first, in this order; the others follow in the rule's. */
const FIRST = [
  "protocol",
  "src-address",
  "dst-address",
  "src-address-list",
  "dst-address-list",
  "src-port",
  "dst-port",
  "port",
  "in-interface",
  "in-interface-list",
  "out-interface",
  "out-interface-list",
  "connection-state",
  "connection-nat-state",
];

/** `chain=input action=drop protocol=tcp dst-port=22`. */
export function describeRule(rule: FirewallRule): string {
  const rank = (m: string) => FIRST.includes(m) ? FIRST.indexOf(m) : FIRST.length;
  const matchers = matchersOf(rule).sort((a, b) => rank(a) - rank(b));
  const parts = [`chain=${rule.chain}`, `action=${actionOf(rule)}`];
  for (const m of matchers) parts.push(`${m}=${rule[m]}`);
  if (rule.action === "jump") parts.push(`jump-target=${rule["jump-target"]}`);
  if (rule["to-addresses"] ?? rule["to-address"]) {
    parts.push(`to-addresses=${rule["to-addresses"] ?? rule["to-address"]}`);
  }
  if (rule["to-ports"]) parts.push(`to-ports=${rule["to-ports"]}`);
  return parts.join(" ") + (matchers.length ? "" : " (no matcher: every packet)");
}
