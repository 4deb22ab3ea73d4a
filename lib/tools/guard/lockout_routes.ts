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
 * change makes them differ. A lookup that finds nothing today (the guard's
 * view is off: the server is connected) does not make a new route a cut.
 *
 * Reads: one exec for the routes that hold this host's address, the
 * router's addresses, the policy rules (`/routing rule` on RouterOS 7,
 * `/ip route rule` on 6) and `/user active`; a second only behind NAT (the
 * routes that hold the addresses `/user active` lists).
 *
 * @module
 */
import { bracket, cmd, type Condition, local, variable } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { quoteValue } from "../../routeros/quote.ts";
import {
  describePolicyRule,
  describeRoute,
  type LookupResult,
  lookupRoute,
  type RoutingFacts,
} from "../../routeros/route_lookup.ts";
import { ruleFromRaw } from "../../routeros/rule_match.ts";
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

/** The reply's way out, as one comparable text. */
function wayOf(r: LookupResult): string {
  const hops = (r.hops ?? []).map((h) => h.gateway ?? h.interface ?? "?").sort();
  return [r.outcome, r.kind ?? "", r.table, ...hops].join("|");
}

function usable(r: LookupResult): boolean {
  return r.outcome === "route" && (r.kind ?? "unicast") === "unicast";
}

/** What the reply meets, in words. */
function said(r: LookupResult): string {
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
  return `go via ${hops.join(", ")} by route ${describeRoute(r.route)}`;
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
  if (behindNat.length) routes = [...routes, ...await natRoutes(ctx, dialect, v6, behindNat)];
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
  const before = { ...facts, routes: facts.routes.map(candidate) };
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
    if (was.outcome === "local" || wayOf(was) === wayOf(will)) continue;
    if (usable(will) && !usable(was)) continue;
    return `the router's replies to this server's SSH session (${router} → ${src}) would ` +
      `${said(will)} (now they ${said(was)})`;
  }
  return undefined;
}

/** The routes that hold the addresses the router sees this host at, behind NAT: one exec. */
async function natRoutes(
  ctx: ToolContext,
  dialect: Dialect,
  v6: boolean,
  sources: readonly string[],
): Promise<Row[]> {
  const script = new Script(dialect);
  const sections = sources.map((s, i) => coveringRoutes(script, v6, s, `n${i}`));
  const out = await ctx.client.run(script, { idempotent: true, what: "the route back" });
  const seen = new Set<string>();
  return sections.flatMap((s): Row[] => out.get(s).map(ruleFromRaw)).filter((r) => {
    const id = r[".id"] ?? "";
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
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
