/**
 * The lock-out rule of the firewall rule tables (filter, raw, NAT, mangle;
 * IPv4 and IPv6): a change that makes this server's own SSH session meet a
 * rule that drops, rejects, redirects or re-routes it needs confirm.
 *
 * The table is read whole, and the chains the session passes are walked
 * rule by rule (`lib/routeros/rule_chain.ts`) as they are now and as they
 * would be after the change, for each packet of the session
 * (`lockout_session.ts`): filter input and output, raw prerouting and
 * output, NAT dstnat, mangle prerouting and output. The walk goes on past
 * rules that drop (this server is connected, so a rule the guard thinks
 * drops it today may not), and stops at the first rule that certainly
 * accepts. The change cuts when the walk after it meets a cutting rule the
 * walk before did not (or the changed rule itself); a rule whose match is
 * unknown counts as meeting the session.
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
import {
  bracket,
  cmd,
  type Condition,
  local,
  regexLiteral,
  variable,
} from "../../routeros/command.ts";
import { quoteValue } from "../../routeros/quote.ts";
import { Script } from "../../routeros/script.ts";
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import { interfaceListMembers } from "../../routeros/interface_lists.ts";
import {
  actionOf,
  describeRule,
  effectOf,
  type Hit,
  type Table,
  walkChain,
} from "../../routeros/rule_chain.ts";
import {
  type FirewallRule,
  isYes,
  matchersOf,
  type RouterFacts,
  ruleFromRaw,
} from "../../routeros/rule_match.ts";
import { addressInSpec } from "../../routeros/prefix.ts";
import type { ToolContext } from "../tool.ts";
import { itemFieldsOf, toRaw } from "../menu_tools/fields.ts";
import { argName } from "../menu_tools/naming.ts";
import type { LockoutChange, LockoutRule } from "./lockout.ts";
import {
  type PacketKind,
  type Row,
  sessionFacts,
  type SessionFlow,
  sessionFlows,
} from "./lockout_session.ts";

/** The chains each table's session packets pass. */
const SESSION_CHAINS: Record<Table, readonly [string, PacketKind][]> = {
  filter: [["input", "new"], ["input", "established"], ["output", "reply"]],
  raw: [["prerouting", "new"], ["prerouting", "established"], ["output", "reply"]],
  nat: [["dstnat", "new"]],
  mangle: [["prerouting", "new"], ["prerouting", "established"], ["output", "reply"]],
};

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

/** What each table's cut is called. */
const CUT_WORD: Record<Table, string> = {
  filter: "drop",
  raw: "drop",
  nat: "rewrite",
  mangle: "re-route",
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

/** The table before and after the change, and the changed rule's id. */
export interface Tables {
  before: FirewallRule[];
  after: FirewallRule[];
  changed?: string;
}

/** The change applied to the table as read; undefined when its rule is not there. */
function applyChange(
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

/** What a cutting hit does, as a verb. */
function cutVerb(table: Table, rule: FirewallRule): string {
  const action = actionOf(rule);
  if (table === "filter") return action === "drop" ? "drop" : action;
  if (table === "nat") {
    return ["dst-nat", "redirect", "netmap"].includes(action) ? "redirect" : "rewrite";
  }
  return CUT_WORD[table];
}

/** A dstnat rule that sends the session where it was going anyway. */
function sameDestination(rule: FirewallRule, flow: SessionFlow["flow"]): boolean {
  const action = actionOf(rule);
  const ports = rule["to-ports"] ?? "";
  const samePort = ports === "" || ports === String(flow.dstPort);
  if (action === "redirect") return samePort;
  if (action !== "dst-nat") return false;
  const to = rule["to-addresses"] ?? rule["to-address"] ?? "";
  const sameAddress = to === "" ||
    (flow.dstAddress !== undefined && !to.includes("-") && !to.includes("/") &&
      addressInSpec(to, flow.dstAddress) === true);
  return samePort && sameAddress;
}

function cuts(table: Table, flow: SessionFlow["flow"]) {
  return (hit: Hit): boolean => {
    if (table === "nat") return hit.effect === "translate" && !sameDestination(hit.rule, flow);
    if (table === "mangle") return hit.effect === "reroute";
    return hit.effect === "drop";
  };
}

/** The sentence for a cutting hit. */
function sentence(table: Table, hit: Hit, flow: SessionFlow, changed?: string): string {
  const id = hit.rule[".id"];
  const who = id === changed ? "the rule" : `after the change, rule ${id}`;
  const unknown = hit.match.matchers.filter((m) => m.decision === "unknown")
    .map((m) => `${m.matcher}=${m.value} cannot be evaluated (${m.why})`);
  const jumped = hit.via.length > 1
    ? `, reached by jump from ${hit.via.slice(0, -1).join(" > ")}`
    : "";
  return `${who} would ${cutVerb(table, hit.rule)} this server's SSH session: ${
    describeRule(hit.rule)
  } ` +
    `${hit.certain ? "matches" : "may match"} (${flow.text}${jumped})` +
    (unknown.length ? `; ${unknown.join("; ")}, so it counts as matching` : "");
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

/** The rows of a `print as-value` section. */
function rows(items: readonly Record<string, unknown>[]): Row[] {
  return items.map(ruleFromRaw);
}

/** `[/ip address print as-value]` (with `where`), for `records`. */
function printed(path: string, where: readonly Condition[] = []) {
  return bracket(cmd(path, "print", { switches: ["as-value"], where }));
}

/** The reads of the session's facts, in the script that reads the table. */
function sessionReads(script: Script, v6: string, localAddress: string | undefined, user: string) {
  let routes;
  if (localAddress) {
    const toip = v6 === "/ipv6" ? ":toip6" : ":toip";
    script.do(local("d", bracket(`${toip} ${quoteValue(localAddress)}`)));
    routes = script.records(
      printed(`${v6}/route`, [
        { key: "dst-address", contains: variable("d") },
        { key: "active", value: true },
      ]),
      true,
      ROUTE_KEYS,
    );
  }
  return {
    routes,
    addresses: script.records(printed(`${v6}/address`), true, ADDRESS_KEYS),
    services: script.records(printed("/ip/service", [{ key: "name", value: "ssh" }]), true, [
      "port",
      "disabled",
    ]),
    interfaces: script.records(printed("/interface"), true, ["name", "type", "dynamic"]),
    lists: script.records(printed("/interface/list"), true, ["name", "include", "exclude"]),
    members: script.records(printed("/interface/list/member"), true, [
      "list",
      "interface",
      "disabled",
    ]),
    active: script.records(
      printed("/user/active", [{ key: "name", value: user }, { key: "via", value: "ssh" }]),
      true,
      ["address"],
    ),
  };
}

const ADDRESS_KEYS = ["address", "interface", "disabled", "invalid"];
const ROUTE_KEYS = [
  "dst-address",
  "gateway",
  "immediate-gw",
  "gateway-status",
  "distance",
  "routing-table",
  "routing-mark",
  "disabled",
];

async function check(
  schema: MenuSchema,
  table: Table,
  family: 4 | 6,
  change: LockoutChange,
  ctx: ToolContext,
): Promise<string | undefined> {
  const dialect = await ctx.client.dialect();
  const session = ctx.client.session();
  const evaluate = session.router !== undefined && session.router.includes(":") === (family === 6);
  const v6 = family === 6 ? "/ipv6" : "/ip";
  const script = new Script(dialect);
  const ruleSection = script.records(printed(schema.path), true, "every");
  const reads = evaluate
    ? sessionReads(script, v6, session.local, ctx.client.target.username)
    : undefined;
  const out = await ctx.client.run(script, { idempotent: true, what: schema.path });
  const rules = out.get(ruleSection).map(ruleFromRaw);
  const fields = itemFieldsOf(schema, dialect.release);
  const props = (base: FirewallRule): FirewallRule => {
    const next: Record<string, string> = { ...base };
    for (const [tool, field, ros] of fields) {
      const value = change.args?.[tool];
      if (value === undefined || !field.writable) continue;
      const raw = toRaw(field, value);
      if (raw === "") delete next[ros];
      else next[ros] = typeof raw === "boolean" ? String(raw) : String(raw);
    }
    return next;
  };
  const t = applyChange(rules, change, props);
  if (!t) return undefined;
  const blunt = catchAll(table, t, evaluate ? BESIDE[table] : OTHER_FAMILY[table], evaluate);
  if (blunt || !reads) return blunt;

  const listNames = new Set<string>();
  for (const r of [...t.before, ...t.after]) {
    for (const k of ["src-address-list", "dst-address-list"]) {
      if (r[k]) listNames.add(r[k].replace(/^!/, ""));
    }
  }
  const addressLists = new Map<string, string[]>();
  if (listNames.size) {
    const lists = new Script(dialect);
    const section = lists.records(
      printed(`${v6}/firewall/address-list`, [{
        key: "list",
        regex: `^(${[...listNames].map(regexLiteral).join("|")})$`,
      }]),
      true,
      ["list", "address", "disabled"],
    );
    const entries = rows(
      (await ctx.client.run(lists, { idempotent: true, what: `${v6}/firewall/address-list` })).get(
        section,
      ),
    );
    for (const name of listNames) addressLists.set(name, []);
    for (const e of entries) {
      if (!isYes(e.disabled) && e.address) addressLists.get(e.list)?.push(e.address);
    }
  }
  const interfaces = rows(out.get(reads.interfaces));
  const facts: RouterFacts = sessionFacts(
    interfaceListMembers(rows(out.get(reads.lists)), rows(out.get(reads.members)), interfaces),
    interfaces,
    addressLists,
  );
  const flows = sessionFlows({
    routerAddress: session.router,
    localAddress: session.local,
    dialledPort: ctx.client.target.port,
    services: rows(out.get(reads.services)),
    active: rows(out.get(reads.active)),
    addresses: rows(out.get(reads.addresses)),
    routes: reads.routes ? rows(out.get(reads.routes)) : [],
  });
  return sessionCut(table, t, flows, facts);
}

/** The first cutting rule the change makes the session meet, told in one sentence. */
export function sessionCut(
  table: Table,
  t: Tables,
  flows: readonly SessionFlow[],
  facts: RouterFacts,
): string | undefined {
  for (const [chain, kind] of SESSION_CHAINS[table]) {
    for (const f of flows.filter((x) => x.kind === kind)) {
      const isCut = cuts(table, f.flow);
      const options = { goOnPast: isCut };
      const before = walkChain(t.before, table, chain, f.flow, facts, options);
      const after = walkChain(t.after, table, chain, f.flow, facts, options);
      const met = new Set(before.hits.filter(isCut).map((h) => h.rule[".id"]));
      const hit = after.hits.find((h) =>
        isCut(h) && (h.rule[".id"] === t.changed || !met.has(h.rule[".id"]))
      );
      if (hit) return sentence(table, hit, f, t.changed);
    }
  }
  return undefined;
}
