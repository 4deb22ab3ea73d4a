/**
 * The lock-out rule of the firewall rule tables (filter, raw, NAT, mangle;
 * IPv4 and IPv6): a change that makes this server's own SSH session meet a
 * rule that drops, rejects, redirects or re-routes it needs confirm.
 *
 * The table is read whole, and the chains the session passes are walked
 * rule by rule as they are now and as they would be after the change
 * (lockout_walk.ts), for each packet of the session (`lockout_session.ts`):
 * filter input and output, raw prerouting and output, NAT dstnat, mangle
 * prerouting and output. The walk goes on past rules that drop (this server
 * is connected, so a rule the guard thinks drops it today may not), and
 * stops at the first rule that certainly accepts. The change cuts when the
 * walk after it meets a cutting rule the walk before did not (or the
 * changed rule itself); a rule whose match is unknown counts as meeting the
 * session.
 *
 * In the chains the session does not pass (forward, srcnat) and in every
 * chain of the other IP family, a rule with no matcher still needs confirm:
 * it cuts every connection there, to routers managed behind this one too.
 *
 * Reads: one exec for the table, addresses, the route back, the ssh
 * service, interfaces and their lists and `/user active`; a second only
 * when a rule names an address list (the entries of those lists).
 *
 * @module
 */
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { Release } from "../../routeros/release.ts";
import { actionOf, effectOf, type Table } from "../../routeros/rule_chain.ts";
import { type FirewallRule, isYes, matchersOf } from "../../routeros/rule_match.ts";
import type { ToolContext } from "../tool.ts";
import { itemFieldsOf, toRaw } from "../menu_tools/fields.ts";
import { argName } from "../menu_tools/naming.ts";
import type { LockoutChange, LockoutRule } from "./lockout.ts";
import {
  addressListsNamed,
  addressListsOf,
  CUT_WORD,
  readAddressEntries,
  readWalk,
  sessionCut,
  type Tables,
  walkFacts,
} from "./lockout_walk.ts";

export { sessionCut, type Tables };

/** Chains where a rule without matcher needs confirm: beside the session, and in the other family. */
const BESIDE: Record<Table, readonly string[]> = {
  filter: ["forward"],
  raw: [],
  nat: ["srcnat"],
  mangle: [],
};
const OTHER_FAMILY: Record<Table, readonly string[]> = {
  filter: ["input", "forward", "output"],
  raw: ["prerouting", "output"],
  nat: ["srcnat", "dstnat"],
  mangle: ["prerouting", "output"],
};

/** Arguments of an update that cannot change which packets a rule takes or what it does. */
const HARMLESS_UPDATES = new Set(["comment", "log", "log-prefix", "address-list-timeout"]);

const NEW_ID = "(new)";

/** The lock-out rule of a firewall rule table. */
export function firewallLockout(schema: MenuSchema, table: Table): LockoutRule {
  const family = schema.path.startsWith("/ipv6/") ? 6 : 4;
  return {
    verbs: ["add", "update", "enable", "remove", "disable", "move"],
    updates: Object.entries(schema.fields)
      .filter(([name, f]) => f.writable && !HARMLESS_UPDATES.has(name))
      .map(([name]) => argName(name)),
    ownReads: true,
    check: (change, ctx) => check(schema, table, family, change, ctx),
  };
}

/** The change applied to the table as read; undefined when its rule is not there. */
export function applyChange(
  rules: FirewallRule[],
  change: LockoutChange,
  props: (base: FirewallRule) => FirewallRule,
): Tables | undefined {
  const args = change.args ?? {};
  if (change.verb === "add") {
    return { before: rules, after: [...rules, props({ ".id": NEW_ID })], changed: NEW_ID };
  }
  const id = String(args.id ?? "");
  const at = rules.findIndex((r) => r[".id"] === id);
  if (at < 0) return undefined;
  const rule = rules[at];
  const replace = (r: FirewallRule) => rules.map((x, i) => (i === at ? r : x));
  switch (change.verb) {
    case "remove":
      return { before: rules, after: rules.filter((_, i) => i !== at) };
    case "disable":
      return { before: rules, after: replace({ ...rule, disabled: "true" }) };
    case "enable":
      return { before: rules, after: replace({ ...rule, disabled: "false" }), changed: id };
    case "update": {
      const next = props(rule);
      const same = JSON.stringify(next) === JSON.stringify(rule);
      return { before: rules, after: replace(next), changed: same ? undefined : id };
    }
    case "move": {
      const rest = rules.filter((_, i) => i !== at);
      const dest = rest.findIndex((r) => r[".id"] === String(args.destination ?? ""));
      if (dest < 0) return undefined;
      return {
        before: rules,
        after: [...rest.slice(0, dest), rule, ...rest.slice(dest)],
        changed: id,
      };
    }
    default:
      return undefined;
  }
}

/** A rule with no matcher that cuts every packet of a chain (the blunt check). */
function matchesAll(
  table: Table,
  rule: FirewallRule | undefined,
  chains: readonly string[],
): boolean {
  if (!rule || isYes(rule.disabled) || !chains.includes(rule.chain)) return false;
  if (matchersOf(rule).length) return false;
  const effect = effectOf(table, rule).effect;
  return table === "nat"
    ? effect === "translate"
    : table === "mangle"
    ? effect === "reroute"
    : effect === "drop";
}

function catchAll(table: Table, t: Tables, chains: readonly string[], sessionFamily: boolean) {
  if (!t.changed) return undefined;
  const after = t.after.find((r) => r[".id"] === t.changed);
  const before = t.before.find((r) => r[".id"] === t.changed);
  if (!matchesAll(table, after, chains) || matchesAll(table, before, chains)) return undefined;
  const action = actionOf(after!);
  return `the rule has no matcher, so it would ${CUT_WORD[table]} every packet in chain ` +
    `${after!.chain} (action ${action}) that no earlier rule takes, ` +
    (sessionFamily
      ? "every connection through this router included (to routers managed behind it too)"
      : "this server's SSH session included") +
    "; add a matcher (src_address, in_interface, ...) or confirm";
}

/** A rule with the call's arguments written over it (RouterOS names, text values). */
export function changedProps(
  schema: MenuSchema,
  release: Release,
  args: Record<string, unknown>,
): (base: FirewallRule) => FirewallRule {
  const fields = itemFieldsOf(schema, release);
  return (base) => {
    const next: Record<string, string> = { ...base };
    for (const [tool, field, ros] of fields) {
      const value = args[tool];
      if (value === undefined || !field.writable) continue;
      const raw = toRaw(field, value);
      if (raw === "") delete next[ros];
      else next[ros] = String(raw);
    }
    return next;
  };
}

async function check(
  schema: MenuSchema,
  table: Table,
  family: 4 | 6,
  change: LockoutChange,
  ctx: ToolContext,
): Promise<string | undefined> {
  const read = await readWalk(ctx, family, [[table, schema]]);
  const rules = read.tables[0]?.rules ?? [];
  const props = changedProps(schema, read.dialect.release, change.args ?? {});
  const t = applyChange(rules, change, props);
  if (!t) return undefined;
  const s = read.session;
  const blunt = catchAll(table, t, s ? BESIDE[table] : OTHER_FAMILY[table], s !== undefined);
  if (blunt || !s) return blunt;
  const names = addressListsNamed([...t.before, ...t.after]);
  const entries = await readAddressEntries(ctx, read.dialect, family, names);
  return sessionCut(table, t, s.flows, walkFacts(s, addressListsOf(names, entries)));
}
