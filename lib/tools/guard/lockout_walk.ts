/**
 * The firewall session walk the lock-out rules share: what it reads (the
 * rule tables, and how this server's SSH session reaches the router), and
 * the walk of the session's packets through the chains they pass, before
 * and after a change (`lib/routeros/rule_chain.ts`, the matcher path
 * tracing uses too).
 *
 * A change cuts when the walk after it meets a cutting rule the walk before
 * did not (or the changed rule itself). What changes may be the table (a
 * rule written: lockout_firewall.ts) or a fact the rules name: an address
 * list or an interface list (lockout_lists.ts). Either way the walk is this
 * one.
 *
 * Reads: one exec for the tables, the router's addresses, the route back,
 * the ssh service, interfaces and their lists and `/user active`; a second
 * only when a rule names an address list (the entries of those lists).
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
import type { Dialect } from "../../routeros/dialect.ts";
import { quoteValue } from "../../routeros/quote.ts";
import { inRange } from "../../routeros/release.ts";
import { Script } from "../../routeros/script.ts";
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import {
  firewallFilter,
  firewallMangle,
  firewallNat,
  firewallRaw,
  ipv6FirewallFilter,
} from "../../routeros/schema/menus/firewall.ts";
import {
  ipv6FirewallMangle,
  ipv6FirewallNat,
  ipv6FirewallRaw,
} from "../../routeros/schema/menus/ipv6_firewall.ts";
import { interfaceListMembers } from "../../routeros/interface_lists.ts";
import {
  actionOf,
  describeRule,
  type Hit,
  type Table,
  walkChain,
} from "../../routeros/rule_chain.ts";
import {
  type FirewallRule,
  isYes,
  type RouterFacts,
  ruleFromRaw,
} from "../../routeros/rule_match.ts";
import { addressInSpec } from "../../routeros/prefix.ts";
import type { ToolContext } from "../tool.ts";
import {
  type PacketKind,
  type Row,
  sessionFacts,
  type SessionFlow,
  sessionFlows,
  type SessionReads,
} from "./lockout_session.ts";

/** The rule tables of each IP family, in the order a refusal names them. */
export const FAMILY_TABLES: Record<4 | 6, readonly (readonly [Table, MenuSchema])[]> = {
  4: [["filter", firewallFilter], ["raw", firewallRaw], ["nat", firewallNat], [
    "mangle",
    firewallMangle,
  ]],
  6: [["filter", ipv6FirewallFilter], ["raw", ipv6FirewallRaw], ["nat", ipv6FirewallNat], [
    "mangle",
    ipv6FirewallMangle,
  ]],
};

/** The chains each table's session packets pass. */
const SESSION_CHAINS: Record<Table, readonly [string, PacketKind][]> = {
  filter: [["input", "new"], ["input", "established"], ["output", "reply"]],
  raw: [["prerouting", "new"], ["prerouting", "established"], ["output", "reply"]],
  nat: [["dstnat", "new"]],
  mangle: [["prerouting", "new"], ["prerouting", "established"], ["output", "reply"]],
};

/** What each table's cut is called. */
export const CUT_WORD: Record<Table, string> = {
  filter: "drop",
  raw: "drop",
  nat: "rewrite",
  mangle: "re-route",
};

/** A table as read, its rules in order. */
export interface ReadTable {
  table: Table;
  path: string;
  rules: FirewallRule[];
}

/** How the session reaches the router, as read (only when it is of the tables' family). */
export interface SessionRead {
  /** What was read of the session's path (addresses, the route back, ssh service...). */
  reads: SessionReads;
  flows: SessionFlow[];
  interfaces: Row[];
  /** `/interface list` rows (name, include, exclude) and members (list, interface, disabled). */
  lists: Row[];
  members: Row[];
}

/** What one exec read: the tables, and the session when it is of their family. */
export interface WalkRead {
  dialect: Dialect;
  tables: ReadTable[];
  session?: SessionRead;
}

/** The rows of a `print as-value` section. */
function rows(items: readonly Record<string, unknown>[]): Row[] {
  return items.map(ruleFromRaw);
}

/** `[/ip address print as-value]` (with `where`), for `records`. */
function printed(path: string, where: readonly Condition[] = []) {
  return bracket(cmd(path, "print", { switches: ["as-value"], where }));
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

/** The reads of the session's facts, in the script that reads the tables. */
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

/** True when this server's session to the router is of IP family `family`. */
export function sessionOfFamily(ctx: ToolContext, family: 4 | 6): boolean {
  const router = ctx.client.session().router;
  return router !== undefined && router.includes(":") === (family === 6);
}

/**
 * Read `tables` (those the router's release has) whole, and, when the
 * session is of their family, how it reaches the router: one exec.
 */
export async function readWalk(
  ctx: ToolContext,
  family: 4 | 6,
  tables: readonly (readonly [Table, MenuSchema])[],
): Promise<WalkRead> {
  const dialect = await ctx.client.dialect();
  const session = ctx.client.session();
  const v6 = family === 6 ? "/ipv6" : "/ip";
  const script = new Script(dialect);
  const on = tables.filter(([, schema]) => inRange(dialect.release, schema.releases));
  const sections = on.map(([table, schema]) => ({
    table,
    path: schema.path,
    section: script.records(printed(schema.path), true, "every"),
  }));
  const reads = sessionOfFamily(ctx, family)
    ? sessionReads(script, v6, session.local, ctx.client.target.username)
    : undefined;
  const what = on.length === 1
    ? on[0][1].path
    : on.length
    ? `${v6}/firewall`
    : "the session's path";
  const out = await ctx.client.run(script, { idempotent: true, what });
  const read: WalkRead = {
    dialect,
    tables: sections.map((s) => ({
      table: s.table,
      path: s.path,
      rules: out.get(s.section).map(ruleFromRaw),
    })),
  };
  if (!reads) return read;
  const facts: SessionReads = {
    routerAddress: session.router,
    localAddress: session.local,
    dialledPort: ctx.client.target.port,
    services: rows(out.get(reads.services)),
    active: rows(out.get(reads.active)),
    addresses: rows(out.get(reads.addresses)),
    routes: reads.routes ? rows(out.get(reads.routes)) : [],
  };
  read.session = {
    reads: facts,
    flows: sessionFlows(facts),
    interfaces: rows(out.get(reads.interfaces)),
    lists: rows(out.get(reads.lists)),
    members: rows(out.get(reads.members)),
  };
  return read;
}

/** The address lists the rules name (`!` taken off). */
export function addressListsNamed(rules: Iterable<FirewallRule>): Set<string> {
  const names = new Set<string>();
  for (const r of rules) {
    for (const k of ["src-address-list", "dst-address-list"]) {
      if (r[k]) names.add(r[k].replace(/^!/, ""));
    }
  }
  return names;
}

/** The entries (list, address, disabled) of the address lists `names`: one exec. */
export async function readAddressEntries(
  ctx: ToolContext,
  dialect: Dialect,
  family: 4 | 6,
  names: ReadonlySet<string>,
): Promise<Row[]> {
  if (!names.size) return [];
  const path = `${family === 6 ? "/ipv6" : "/ip"}/firewall/address-list`;
  const script = new Script(dialect);
  const section = script.records(
    printed(path, [{ key: "list", regex: `^(${[...names].map(regexLiteral).join("|")})$` }]),
    true,
    ["list", "address", "disabled"],
  );
  return rows((await ctx.client.run(script, { idempotent: true, what: path })).get(section));
}

/** Each list of `names` and its enabled entries' addresses. */
export function addressListsOf(
  names: ReadonlySet<string>,
  entries: readonly Row[],
): Map<string, string[]> {
  const lists = new Map<string, string[]>([...names].map((n) => [n, []]));
  for (const e of entries) {
    if (!isYes(e.disabled) && e.address) lists.get(e.list)?.push(e.address);
  }
  return lists;
}

/** The facts the rules need, from the session read and the address lists. */
export function walkFacts(
  s: SessionRead,
  addressLists: RouterFacts["addressLists"],
  lists: readonly Row[] = s.lists,
  members: readonly Row[] = s.members,
): RouterFacts {
  return sessionFacts(
    interfaceListMembers(lists, members, s.interfaces),
    s.interfaces,
    addressLists,
  );
}

/** A table before and after a change, and the changed rule's id. */
export interface Tables {
  before: FirewallRule[];
  after: FirewallRule[];
  changed?: string;
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

/**
 * The first cutting rule the change makes the session meet, told in one
 * sentence: the table `t` walked with `facts` before and `factsAfter`
 * after (the same facts when only the table changes).
 */
export function sessionCut(
  table: Table,
  t: Tables,
  flows: readonly SessionFlow[],
  facts: RouterFacts,
  factsAfter: RouterFacts = facts,
): string | undefined {
  for (const [chain, kind] of SESSION_CHAINS[table]) {
    for (const f of flows.filter((x) => x.kind === kind)) {
      const isCut = cuts(table, f.flow);
      const options = { goOnPast: isCut };
      const before = walkChain(t.before, table, chain, f.flow, facts, options);
      const after = walkChain(t.after, table, chain, f.flow, factsAfter, options);
      const met = new Set(before.hits.filter(isCut).map((h) => h.rule[".id"]));
      const hit = after.hits.find((h) =>
        isCut(h) && (h.rule[".id"] === t.changed || !met.has(h.rule[".id"]))
      );
      if (hit) return sentence(table, hit, f, t.changed);
    }
  }
  return undefined;
}
