/**
 * The lock-out rule of the route menus (`/ip/route`, `/ipv6/route`, and
 * `router_add_blackhole_route`): a route change that takes away the way the
 * router's answers reach this server needs confirm.
 *
 * The router's reply to this server's SSH session is a packet the router
 * sends itself, from the address the session reached to this host's address
 * (each address `/user active` lists, behind NAT). Its route is decided as
 * path tracing decides it (`lib/routeros/route_lookup.ts`: policy rules,
 * then the table, longest prefix, then the lowest distance), with the routes
 * that hold this host's address as they are and as they would be after the
 * change. The change cuts when the reply would meet a blackhole,
 * unreachable or prohibit route, a routing rule that drops it, no route at
 * all, or another gateway than it has now (a more specific route elsewhere,
 * a gateway changed).
 *
 * Both lookups see every route that is not disabled or inactive as a
 * candidate (which one is active is what the lookup decides), so only the
 * change makes them differ; a candidate is in use only when its gateway
 * resolves by scope and target-scope (route_lookup.ts `gatewayResolver`),
 * and the routes a gateway resolves through are part of the way compared.
 * A route the router prints as active that the guard cannot resolve keeps
 * the router's word. A lookup that finds nothing today (the guard's view is
 * off: the server is connected) does not make a new route a cut.
 *
 * Reads: one exec for the routes that hold this host's address, the
 * router's addresses, the policy rules (`/routing rule` on RouterOS 7,
 * `/ip route rule` on 6) and `/user active`; a second only behind NAT (the
 * routes that hold the addresses `/user active` lists); one more per level
 * of recursive gateways (gateways on no subnet of the router's: the routes
 * that hold them), three at most.
 *
 * @module
 */
import { bracket, cmd, type Condition, local, variable } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { quoteValue } from "../../routeros/quote.ts";
import {
  describePolicyRule,
  describeRoute,
  gatewayResolver,
  type LookupResult,
  lookupRoute,
  type RoutingFacts,
} from "../../routeros/route_lookup.ts";
import { isYes, ruleFromRaw } from "../../routeros/rule_match.ts";
import { addressInSpec } from "../../routeros/prefix.ts";
import { isIpv4, isIpv6 } from "../../routeros/ip_address.ts";
import { type AddressChange, withAddressChange } from "../../routeros/connected_routes.ts";
import { Script, type Section } from "../../routeros/script.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import type { MenuSchema } from "../../routeros/schema/menu.ts";
import type { ToolContext } from "../tool.ts";
import { itemFieldsOf, toRaw } from "../menu_tools/fields.ts";
import type { LockoutRule } from "./lockout.ts";
import { type Row, sessionSources } from "./lockout_session.ts";

type Item = Record<string, unknown>;

/**
 * A route change: the route taken away (its id) and the route put in its
 * place; or an address change, whose connected routes come and go with it
 * (`lib/routeros/connected_routes.ts`).
 */
export interface RouteChange {
  removed?: string;
  added?: Row;
  address?: AddressChange;
}

function printed(path: string, where: readonly Condition[] = []) {
  return bracket(cmd(path, "print", { switches: ["as-value"], where }));
}

/** The routes that hold `address`, read in `script` (every property: they are few). */
function coveringRoutes(script: Script, v6: boolean, address: string, name: string) {
  script.do(local(name, bracket(`${v6 ? ":toip6" : ":toip"} ${quoteValue(address)}`)));
  return script.records(
    printed(v6 ? "/ipv6/route" : "/ip/route", [{ key: "dst-address", contains: variable(name) }]),
    true,
    "every",
  );
}

/** A route row the lookup takes as a candidate: `active` is for the lookup to decide. */
function candidate(row: RoutingFacts["routes"][number]): RoutingFacts["routes"][number] {
  const { active: _active, ...rest } = row;
  return rest;
}

/** The reply's way out, as one comparable text: hops and the routes their gateways resolve through. */
function wayOf(r: LookupResult, facts: RoutingFacts): string {
  const hops = (r.hops ?? []).map((h) => h.gateway ?? h.interface ?? "?").sort();
  const resolve = gatewayResolver(facts);
  const through = (r.routes ?? []).flatMap((route) => resolve(route) ?? [])
    .map((v) => `${v[".id"] ?? ""}${v["dst-address"]}>${v.gateway}`).sort();
  return [r.outcome, r.kind ?? "", r.table, ...hops, "via", ...through].join("|");
}

/** The gateway addresses of `routes` on no subnet of the router's (`addresses`): recursive ones. */
function farGateways(routes: readonly Row[], addresses: readonly Row[]): string[] {
  const own = addresses.filter((a) => a.address && !isYes(a.disabled) && !isYes(a.invalid));
  return routes.flatMap((r) => (r.gateway ?? "").split(/[,;]/))
    .map((t) => t.trim().split("@")[0])
    .filter((h) => (isIpv4(h) || isIpv6(h)) && !own.some((a) => addressInSpec(a.address!, h)));
}

/**
 * `routes` with the routes that hold their recursive gateways, and theirs in
 * turn (three levels at most): one exec a level, only when there is one.
 */
async function withGatewayRoutes(
  ctx: ToolContext,
  dialect: Dialect,
  v6: boolean,
  routes: Row[],
  extra: readonly Row[],
  addresses: readonly Row[],
): Promise<Row[]> {
  const asked = new Set<string>();
  for (let level = 0; level < 3; level++) {
    const far = [...new Set(farGateways([...routes, ...extra], addresses))]
      .filter((g) => !asked.has(g));
    if (!far.length) break;
    far.forEach((g) => asked.add(g));
    routes = unique([...routes, ...await coveringOf(ctx, dialect, v6, far)]);
  }
  return routes;
}

/** `rows` without a second row of the same id. */
function unique(rows: readonly Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const id = r[".id"];
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function usable(r: LookupResult): boolean {
  return r.outcome === "route" && (r.kind ?? "unicast") === "unicast";
}

/** What the reply meets, in words. */
function said(r: LookupResult, facts: RoutingFacts): string {
  if (r.outcome === "no-route") return `find no route (table ${r.table})`;
  if (r.outcome === "local") return "stay on the router (it would hold this server's address)";
  if (r.outcome === "drop" || r.outcome === "unreachable") {
    return `be refused by routing rule ${describePolicyRule(r.rule ?? {})}`;
  }
  if (!r.route) return r.outcome;
  if (!usable(r)) return `meet ${r.kind} route ${describeRoute(r.route)}`;
  const hops = (r.hops ?? []).map((h) =>
    h.gateway ? `${h.gateway}${h.interface ? ` on ${h.interface}` : ""}` : h.interface
  );
  const through = (gatewayResolver(facts)(r.route) ?? []).filter((v) => !isYes(v.connect));
  return `go via ${hops.join(", ")} by route ${describeRoute(r.route)}` +
    (through.length
      ? ` (its gateway resolving through ${through.map(describeRoute).join(", then ")})`
      : "");
}

/** Why the changed route would not be in use after the change (its gateway unresolved), or "". */
function unresolvedNote(added: Row | undefined, after: RoutingFacts): string {
  const row = added &&
    after.routes.find((r) => r[".id"] === added[".id"] && r.gateway === added.gateway);
  if (!row || isYes(row.disabled) || gatewayResolver(after)(row) !== undefined) return "";
  return `; route ${describeRoute(row)} would be inactive: its gateway resolves through no route ` +
    `in use whose scope is at most its target-scope (${row["target-scope"] ?? 10})`;
}

/**
 * What `change` would cut of the way the router's replies reach this server
 * (a route of IP family `family`), or undefined.
 */
export async function routeBackCut(
  ctx: ToolContext,
  family: 4 | 6,
  change: RouteChange,
): Promise<string | undefined> {
  // Connected first: the socket's ends are known once there is a connection.
  const dialect = await ctx.client.dialect();
  const session = ctx.client.session();
  const router = session.router;
  if (!router || router.includes(":") !== (family === 6)) return undefined;
  const v6 = family === 6;
  const script = new Script(dialect);
  const own = session.local ? coveringRoutes(script, v6, session.local, "d") : undefined;
  const addresses = script.records(printed(v6 ? "/ipv6/address" : "/ip/address"), true, [
    ".id",
    "address",
    "interface",
    "actual-interface",
    "disabled",
    "invalid",
  ]);
  const rules = script.records(
    printed(dialect.major >= 7 ? "/routing/rule" : "/ip/route/rule"),
    true,
    "every",
  );
  const active = script.records(
    printed("/user/active", [
      { key: "name", value: ctx.client.target.username },
      { key: "via", value: "ssh" },
    ]),
    true,
    ["address"],
  );
  const out = await ctx.client.run(script, { idempotent: true, what: "the route back" });
  const rows = (s: Section<RawItem[]>): Row[] => out.get(s).map(ruleFromRaw);
  const sources = sessionSources(session.local, rows(active)).filter((s): s is string =>
    s !== undefined
  );
  let routes = own ? rows(own) : [];
  const behindNat = sources.filter((s) => s !== session.local);
  if (behindNat.length) {
    routes = unique([...routes, ...await coveringOf(ctx, dialect, v6, behindNat)]);
  }
  const added = change.added ? [change.added] : [];
  routes = await withGatewayRoutes(ctx, dialect, v6, routes, added, rows(addresses));
  return routeBackChange(
    { routes, addresses: rows(addresses), rules: rows(rules) },
    change,
    router,
    sources,
  );
}

/**
 * The cut of `change` to the router's replies from `router` to each of
 * `sources`, decided on `facts` as read (the routes that hold the sources,
 * the addresses, the policy rules), or undefined.
 */
export function routeBackChange(
  facts: RoutingFacts,
  change: RouteChange,
  router: string,
  sources: readonly string[],
): string | undefined {
  const stripped = facts.routes.map(candidate);
  const model = gatewayResolver({ ...facts, routes: stripped });
  // A route the router uses whose gateway the guard cannot resolve keeps the router's word.
  const before = {
    ...facts,
    routes: facts.routes.map((r, i) =>
      isYes(r.active) && model(stripped[i]) === undefined ? r : stripped[i]
    ),
  };
  const routes = [
    ...before.routes.filter((r) => change.removed === undefined || r[".id"] !== change.removed),
    ...(change.added ? [candidate(change.added)] : []),
  ];
  const after = change.address
    ? withAddressChange({ ...before, routes }, change.address)
    : { ...before, routes };
  for (const src of sources) {
    const q = { dst: src, src: router, inInterface: null, routingMark: null };
    const was = lookupRoute(before, q);
    const will = lookupRoute(after, q);
    if (was.outcome === "local" || wayOf(was, before) === wayOf(will, after)) continue;
    if (usable(will) && !usable(was)) continue;
    return `the router's replies to this server's SSH session (${router} \u2192 ${src}) would ` +
      `${said(will, after)} (now they ${said(was, before)})${unresolvedNote(change.added, after)}`;
  }
  return undefined;
}

/**
 * The routes that hold `addresses` (the ones the router sees this host at
 * behind NAT, or recursive gateways): one exec.
 */
async function coveringOf(
  ctx: ToolContext,
  dialect: Dialect,
  v6: boolean,
  addresses: readonly string[],
): Promise<Row[]> {
  const script = new Script(dialect);
  const sections = addresses.map((s, i) => coveringRoutes(script, v6, s, `n${i}`));
  const out = await ctx.client.run(script, { idempotent: true, what: "the route back" });
  return unique(sections.flatMap((s): Row[] => out.get(s).map(ruleFromRaw)));
}

/** A tool-side route item as the router prints it (RouterOS names, text values). */
function rawRoute(schema: MenuSchema, dialect: Dialect, item: Item): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [tool, field, ros] of itemFieldsOf(schema, dialect.release)) {
    const value = item[tool];
    if (value === undefined || value === null || value === "") continue;
    raw[ros] = String(toRaw(field, value));
  }
  if (item.id !== undefined) raw[".id"] = String(item.id);
  // A static route's distance is 1 unless given.
  raw.distance ??= "1";
  return raw;
}

/** The lock-out rule of a route menu (`/ip/route` or `/ipv6/route`). */
export function routeLockout(schema: MenuSchema): LockoutRule {
  const family = schema.path.startsWith("/ipv6/") ? 6 : 4;
  return {
    verbs: ["add", "update", "remove", "enable", "disable"],
    updates: [
      "dst_address",
      "gateway",
      "distance",
      "routing_table",
      "blackhole",
      "type",
      "disabled",
      "scope",
      "target_scope",
    ],
    check: async ({ verb, before, after }, ctx) => {
      if (verb !== "add" && !before) return undefined;
      const dialect = await ctx.client.dialect();
      const was = before && before.disabled !== true ? before : undefined;
      const will = verb !== "remove" && after.disabled !== true ? after : undefined;
      if (!was && !will) return undefined;
      return await routeBackCut(ctx, family, {
        ...(before?.id !== undefined ? { removed: String(before.id) } : {}),
        ...(will ? { added: rawRoute(schema, dialect, will) } : {}),
      });
    },
  };
}
