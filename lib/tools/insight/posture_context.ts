/**
 * What every check of the security audit shares about one router: its
 * menus as read, its WAN interfaces and LAN prefixes, its interface lists,
 * the firewall facts the rule matcher needs, and the helpers that turn an
 * item into evidence and close a port with firewall fix calls.
 *
 * @module
 */
import { interfaceListMembers } from "../../routeros/interface_lists.ts";
import type { Row } from "../../routeros/route_lookup.ts";
import { describeRule } from "../../routeros/rule_chain.ts";
import { type FirewallRule, isYes, type RouterFacts } from "../../routeros/rule_match.ts";
import { lanPrefixes, taggedWan, type WanInterface, wanInterfaces } from "../../routeros/wan.ts";
import {
  type ExposureInputs,
  type ExposureQuery,
  wanExposure,
} from "../../routeros/wan_exposure.ts";
import type { Evidence, FixCall, PostureFacts } from "./posture_types.ts";

/** The shared view of one router. */
export interface PostureContext {
  facts: PostureFacts;
  /** A menu's rows; undefined when the router lacks the menu (or it was not read). */
  rows(path: string): readonly Row[] | undefined;
  /** A settings menu's one record. */
  setting(path: string): Row | undefined;
  wan: WanInterface[];
  /** The subnets of the inside (addresses on interfaces that are not WAN). */
  lan: string[];
  lists: Map<string, Set<string>>;
  exposure: ExposureInputs;
  /** The interface list that holds every WAN interface (`WAN`), when there is one. */
  wanList?: string;
  /** What the audit could not check, and why. */
  notChecked: string[];
}

/** The shared view of the router `facts` describe. */
export function postureContext(facts: PostureFacts): PostureContext {
  const rows = (path: string) => facts.menus.get(path);
  const interfaces = rows("/interface") ?? [];
  const lists = interfaceListMembers(
    rows("/interface/list") ?? [],
    rows("/interface/list/member") ?? [],
    interfaces,
  );
  const addresses = rows("/ip/address") ?? [];
  const wan = wanInterfaces({
    lists,
    routes: rows("/ip/route") ?? [],
    addresses,
    tagged: taggedWan(facts.tags),
  });
  const routerFacts: RouterFacts = {
    interfaceLists: lists,
    addressLists: facts.addressLists,
    interfaceTypes: new Map(
      interfaces.filter((i) => i.name && i.type).map((i) => [i.name!, i.type!]),
    ),
  };
  const listName = [...lists.keys()].find((k) => k.toLowerCase() === "wan");
  const wanList = listName && wan.every((w) => lists.get(listName)!.has(w.name))
    ? listName
    : undefined;
  return {
    facts,
    rows,
    setting: (path) => rows(path)?.[0],
    wan,
    lan: lanPrefixes(addresses, wan),
    lists,
    exposure: {
      filter: (rows("/ip/firewall/filter") ?? []) as FirewallRule[],
      facts: routerFacts,
      wan,
      addresses,
    },
    ...(wanList ? { wanList } : {}),
    notChecked: [],
  };
}

/** An item as evidence: its menu, id and the properties that matter. */
export function evidence(
  menu: string,
  row: Row | undefined,
  keys: readonly string[],
  note?: string,
): Evidence {
  const properties: Record<string, string> = {};
  for (const k of keys) {
    const v = row?.[k];
    if (v !== undefined) properties[k] = v;
  }
  return {
    menu,
    ...(row?.[".id"] ? { id: row[".id"] } : {}),
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(note ? { note } : {}),
  };
}

/** A firewall rule as evidence: its id and its text. */
export function ruleEvidence(rule: FirewallRule, note: string): Evidence {
  return {
    menu: "/ip/firewall/filter",
    ...(rule[".id"] ? { id: rule[".id"] } : {}),
    note: `${note}: ${describeRule(rule)}`,
  };
}

/** The members of an interface list setting (`all`, `none`, a list name). */
export function listMembers(
  ctx: PostureContext,
  list: string | undefined,
): Set<string> | undefined {
  if (list === undefined) return undefined;
  if (list === "none") return new Set();
  return ctx.lists.get(list);
}

/** The list a fix limits a MAC or discovery service to: LAN when it holds no WAN interface, else none. */
export function insideList(ctx: PostureContext): string {
  const lan = [...ctx.lists.keys()].find((k) => k.toLowerCase() === "lan");
  const members = lan ? ctx.lists.get(lan)! : undefined;
  return lan && members && members.size > 0 && !ctx.wan.some((w) => members.has(w.name))
    ? lan
    : "none";
}

/** A rule that drops `q` from the WAN, as the add tool's arguments. */
function dropArgs(
  ctx: PostureContext,
  q: ExposureQuery,
  iface: string | undefined,
  comment: string,
): Record<string, unknown> {
  return {
    chain: "input",
    action: "drop",
    ...(q.protocol ? { protocol: q.protocol } : {}),
    ...(q.port !== undefined ? { dst_port: String(q.port) } : {}),
    ...(iface ? { in_interface: iface } : { in_interface_list: ctx.wanList }),
    comment,
  };
}

/** The appended rule as the router would hold it, for re-walking the chain. */
function asRule(args: Record<string, unknown>, n: number): FirewallRule {
  const rule: Record<string, string> = { ".id": `(new ${n})` };
  for (const [k, v] of Object.entries(args)) {
    if (k !== "comment") rule[k.replaceAll("_", "-")] = String(v);
  }
  return rule;
}

/**
 * Calls that close `queries` to the WAN: an accept that lets one in for
 * sure and names its port is disabled; what still falls through gets a
 * drop rule appended. Checked by walking the chain again with the calls
 * applied: `closed` says whether they close every query.
 */
export function closeToWan(
  ctx: PostureContext,
  queries: readonly ExposureQuery[],
  comment: string,
): { calls: FixCall[]; closed: boolean; blocking?: FirewallRule } {
  let rules = [...ctx.exposure.filter];
  const calls: FixCall[] = [];
  const now = () => ({ ...ctx.exposure, filter: rules });
  for (const q of queries) {
    for (const i of wanExposure(now(), q).interfaces) {
      const d = i.decider;
      if (i.verdict !== "open" || !d || d.action === "drop" || !d["dst-port"]) continue;
      if (calls.some((c) => c.arguments.id === d[".id"])) continue;
      calls.push({ tool: "router_disable_firewall_filter_rule", arguments: { id: d[".id"] } });
      rules = rules.map((r) => (r === d ? { ...r, disabled: "true" } : r));
    }
    const open = wanExposure(now(), q).interfaces.filter((i) => i.verdict === "open" && !i.decider);
    const targets = ctx.wanList ? (open.length ? [undefined] : []) : open.map((i) => i.interface);
    for (const iface of targets) {
      const args = dropArgs(ctx, q, iface, comment);
      calls.push({ tool: "router_add_firewall_filter_rule", arguments: args });
      rules = [...rules, asRule(args, calls.length)];
    }
  }
  const left = queries.flatMap((q) =>
    wanExposure(now(), q).interfaces.filter((i) => i.verdict === "open")
  );
  return {
    calls,
    closed: left.length === 0,
    ...(left[0]?.decider ? { blocking: left[0].decider } : {}),
  };
}

/** True for a yes/true setting. */
export const on = (v: string | undefined): boolean => isYes(v);
