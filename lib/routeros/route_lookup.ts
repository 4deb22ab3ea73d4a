/**
 * Which route a router uses for a destination, from what it prints: the
 * routes (`/ip route`, `/ipv6 route`), the policy routing rules
 * (`/routing rule` on RouterOS 7, `/ip route rule` on 6), the VRFs
 * (`/ip vrf`, RouterOS 7) and the router's own addresses.
 *
 * The decision, in this order (MikroTik's policy routing manual: a routing
 * mark set by mangle is looked up first; rules are taken top to bottom;
 * an interface in a VRF looks up the VRF's table only):
 *
 * 1. a destination that is one of the router's own addresses is local;
 * 2. a packet arriving on an interface of a VRF is looked up in that VRF's
 *    table, and nowhere else;
 * 3. a routing mark (mangle `mark-routing`, or RouterOS 6's `routing-mark`)
 *    is looked up in the table of that name; when it has no route, the
 *    lookup goes on;
 * 4. policy rules, first to last: a rule matches when each of its
 *    `src-address`, `dst-address`, `routing-mark` and `interface` (the
 *    incoming one) does; `lookup` uses its table and goes on when that has
 *    no route, `lookup-only-in-table` stops there, `drop` and `unreachable`
 *    stop the packet. `min-prefix` hides the table's routes of that prefix
 *    length or shorter;
 * 5. the main table.
 *
 * In a table, the route used is the active one with the longest prefix
 * holding the destination, then the lowest distance; several equal ones
 * are equal-cost paths (ECMP). A blackhole, unreachable or prohibit route
 * stops the packet. A gateway address is reached through the connected
 * route (or address) whose subnet holds it; a gateway written
 * `address%interface` or as an interface name says so itself.
 *
 * A route is in use when the router says so (`active`, as printed);
 * when it does not (a route as a change would leave it), when its gateway
 * resolves as RouterOS resolves it, 6.x and 7.x alike: through the most
 * specific route in use in the main table (or the `@table` the gateway
 * names) whose `scope` is at most the route's `target-scope`, a connected
 * one or one whose own gateway resolves in turn (recursive). Defaults when
 * a row prints none: connected routes scope 10, others scope 30,
 * target-scope 10 (`scope=30 target-scope=10` of a static route and
 * `scope=10` of a connected one in real 6.x and 7.x prints). So a static
 * route with `target-scope=5` has no gateway through a connected subnet,
 * and one whose gateway lies beyond another static route (scope 30) needs
 * `target-scope=30`.
 *
 * A rule matcher this cannot decide (the source of the packet is not
 * known) counts as not matching, and the result says so.
 *
 * @module
 */
import { addressInSpec, addressOf, networkOf, sameAddress } from "./prefix.ts";
import { isYes } from "./rule_match.ts";
import { isIpv4, isIpv6 } from "./ip_address.ts";

/** A row as the router prints it, values as text. */
export type Row = Readonly<Record<string, string | undefined>>;

/** What a route does with a packet. */
export type RouteKind = "unicast" | "blackhole" | "unreachable" | "prohibit";

/** What the routing tables of one router hold. */
export interface RoutingFacts {
  routes: readonly Row[];
  /** Policy rules, in order. */
  rules?: readonly Row[];
  vrfs?: readonly Row[];
  /** The router's own addresses (`address` with prefix length, `interface`). */
  addresses: readonly Row[];
}

/** The packet a lookup is for. */
export interface LookupQuery {
  dst: string;
  src?: string;
  /** The incoming interface; null for a packet the router sends itself. */
  inInterface?: string | null;
  /** A routing mark set by mangle; null or absent for none. */
  routingMark?: string | null;
}

/** Where a route sends the packet: one gateway of it. */
export interface NextHop {
  /** The gateway address; absent for a route straight onto an interface (the destination is on-link). */
  gateway?: string;
  /** The outgoing interface, when known. */
  interface?: string;
}

/** A step of the decision, for the answer's evidence. */
export interface LookupStep {
  kind: "local" | "vrf" | "mark" | "rule" | "main";
  /** The rule or VRF id (`*3`), when one decided. */
  id?: string;
  text: string;
}

/** The route a destination takes. */
export interface LookupResult {
  outcome: "local" | "route" | "no-route" | "drop" | "unreachable";
  /** The table looked up last. */
  table: string;
  /** The route used (with equal-cost ones in `routes`). */
  route?: Row;
  routes?: Row[];
  kind?: RouteKind;
  hops?: NextHop[];
  /** The policy rule that dropped or refused the packet. */
  rule?: Row;
  steps: LookupStep[];
}

/** Every active route of `table`, as given. */
function live(r: Row): boolean {
  if (isYes(r.disabled) || r.inactive === "true") return false;
  return r.active === undefined || isYes(r.active);
}

/** The routing table a route is in (`routing-table` on 7, `routing-mark` on 6, else main). */
export function routeTable(r: Row): string {
  return r["routing-table"] || r["routing-mark"] || "main";
}

/** A route's kind: RouterOS 7's `blackhole` flag, RouterOS 6's `type`. */
export function routeKind(r: Row): RouteKind {
  if (isYes(r.blackhole)) return "blackhole";
  const type = r.type ?? "unicast";
  return type === "blackhole" || type === "unreachable" || type === "prohibit" ? type : "unicast";
}

/** The prefix length of `10.0.0.0/8` (a bare address: its full length). */
export function prefixLength(dst: string | undefined): number {
  const text = dst ?? "";
  const m = /\/(\d+)$/.exec(text);
  if (m) return Number(m[1]);
  return text.includes(":") ? 128 : 32;
}

/** True when the text names an address rather than an interface. */
function isAddress(text: string): boolean {
  return isIpv4(text) || isIpv6(text);
}

/** The router's own live addresses. */
function ownAddresses(addresses: readonly Row[]): Row[] {
  return addresses.filter((a) => a.address && !isYes(a.disabled) && !isYes(a.invalid));
}

/** The router's own address that is `ip`, if any. */
export function ownAddress(addresses: readonly Row[], ip: string): Row | undefined {
  return ownAddresses(addresses).find((a) => sameAddress(addressOf(a.address!), ip));
}

/** The interface whose connected subnet holds `ip` (longest prefix first). */
export function connectedInterface(
  facts: Pick<RoutingFacts, "addresses" | "routes">,
  ip: string,
  table = "main",
): string | undefined {
  const connected = facts.routes.filter((r) =>
    live(r) && isYes(r.connect) && routeTable(r) === table && r["dst-address"] &&
    addressInSpec(r["dst-address"], ip) === true
  ).sort((a, b) => prefixLength(b["dst-address"]) - prefixLength(a["dst-address"]));
  const viaRoute = connected[0]?.gateway?.split(/[,;]/)[0]?.split("%")[0];
  if (viaRoute && !isAddress(viaRoute)) return viaRoute;
  const own = ownAddresses(facts.addresses).filter((a) => addressInSpec(a.address!, ip) === true)
    .sort((a, b) => prefixLength(b.address) - prefixLength(a.address));
  return own[0]?.interface;
}

/**
 * Each gateway of a route and the interface it goes out of: the
 * `%interface` written with it, an interface given as the gateway, the
 * connected subnet that holds the gateway, RouterOS 7's `immediate-gw`,
 * or RouterOS 6's `gateway-status` (`10.0.0.1 reachable via ether1`).
 */
export function nextHops(route: Row, facts: Pick<RoutingFacts, "addresses" | "routes">): NextHop[] {
  const immediate = (route["immediate-gw"] ?? "").split(/[,;]/).map((s) => s.trim());
  const status = route["gateway-status"] ?? "";
  const out: NextHop[] = [];
  for (const token of (route.gateway ?? "").split(/[,;]/).map((s) => s.trim()).filter(Boolean)) {
    const [hop, zone] = token.split("@")[0].split("%");
    if (!isAddress(hop)) {
      out.push({ interface: hop });
      continue;
    }
    let iface = zone || connectedInterface(facts, hop);
    if (!iface) {
      const imm = immediate.find((i) => i.startsWith(`${hop}%`));
      iface = imm?.split("%")[1];
    }
    if (!iface) {
      const m = new RegExp(`${hop.replaceAll(".", "\\.")}\\s+reachable\\s+via\\s+(\\S+)`).exec(
        status,
      );
      iface = m?.[1];
    }
    out.push({ gateway: hop, ...(iface ? { interface: iface } : {}) });
  }
  return out;
}

/** A route's `scope`, or RouterOS's default: 10 for a connected route, 30 for others. */
export function routeScope(r: Row): number {
  const n = Number(r.scope);
  return r.scope !== undefined && r.scope !== "" && Number.isInteger(n)
    ? n
    : isYes(r.connect)
    ? 10
    : 30;
}

/** A route's `target-scope`, or RouterOS's default, 10. */
export function routeTargetScope(r: Row): number {
  const n = Number(r["target-scope"]);
  return r["target-scope"] !== undefined && r["target-scope"] !== "" && Number.isInteger(n)
    ? n
    : 10;
}

/** How deep a recursive gateway is followed before it counts as not resolving. */
const MAX_RECURSION = 8;

/**
 * The connected routes of the router's own addresses that `routes` lacks
 * (the lock-out guard reads only the routes that hold the addresses it
 * looks up): scope 10, onto the address's interface.
 */
function addressRoutes(facts: Pick<RoutingFacts, "addresses" | "routes">): Row[] {
  const have = new Set(facts.routes.filter((r) => isYes(r.connect)).map((r) => r["dst-address"]));
  return ownAddresses(facts.addresses).flatMap((a) => {
    const [ip, len] = a.address!.split("/");
    const dst = len === undefined ? undefined : networkOf(`${a.network || ip}/${len}`);
    if (!dst || have.has(dst) || !a.interface) return [];
    return [{ "dst-address": dst, gateway: a.interface, connect: "true", scope: "10" }];
  });
}

/**
 * A resolver of gateways on `facts`: for a route, the routes its first
 * resolving gateway resolves through, nearest first (empty for a connected
 * route, a blackhole, an interface gateway or `address%interface`), or
 * undefined when no gateway resolves (RouterOS keeps the route inactive).
 * A route the router printed as `active` is taken at its word.
 */
export function gatewayResolver(
  facts: Pick<RoutingFacts, "addresses" | "routes">,
): (route: Row) => Row[] | undefined {
  const pool = [...facts.routes, ...addressRoutes(facts)];
  const memo = new Map<Row, Row[] | undefined>();
  const via = (route: Row, depth: number): Row[] | undefined => {
    if (memo.has(route)) return memo.get(route);
    if (routeKind(route) !== "unicast" || isYes(route.connect) || route.active !== undefined) {
      return isYes(route.disabled) || route.inactive === "true" ||
          (route.active !== undefined && !isYes(route.active))
        ? undefined
        : [];
    }
    if (depth > MAX_RECURSION) return undefined;
    memo.set(route, undefined); // a loop resolves nothing
    const target = routeTargetScope(route);
    let out: Row[] | undefined;
    for (const token of (route.gateway ?? "").split(/[,;]/).map((t) => t.trim()).filter(Boolean)) {
      const [gw, table = "main"] = token.split("@");
      const [hop, zone] = gw.split("%");
      if (zone || !isAddress(hop)) {
        out = [];
        break;
      }
      const held = pool.filter((r) =>
        r !== route && !isYes(r.disabled) && r.inactive !== "true" && routeTable(r) === table &&
        routeKind(r) === "unicast" && routeScope(r) <= target && r["dst-address"] !== undefined &&
        addressInSpec(r["dst-address"], hop) === true
      ).sort((a, b) =>
        prefixLength(b["dst-address"]) - prefixLength(a["dst-address"]) ||
        Number(a.distance ?? 0) - Number(b.distance ?? 0)
      );
      for (const r of held) {
        const further = via(r, depth + 1);
        if (further) {
          out = [r, ...further];
          break;
        }
      }
      if (out) break;
    }
    memo.set(route, out);
    return out;
  };
  return (route) => via(route, 0);
}

/** The routes of `table` that hold `dst`, best first (the ones used first, with equal ones). */
export function tableLookup(
  routes: readonly Row[],
  table: string,
  dst: string,
  minPrefix?: number,
  resolves: (route: Row) => boolean = () => true,
): Row[] {
  const held = routes.filter((r) =>
    live(r) && resolves(r) && routeTable(r) === table && r["dst-address"] !== undefined &&
    addressInSpec(r["dst-address"], dst) === true &&
    (minPrefix === undefined || prefixLength(r["dst-address"]) > minPrefix)
  ).sort((a, b) =>
    prefixLength(b["dst-address"]) - prefixLength(a["dst-address"]) ||
    Number(a.distance ?? 0) - Number(b.distance ?? 0)
  );
  if (!held.length) return [];
  const best = held[0];
  return held.filter((r) =>
    prefixLength(r["dst-address"]) === prefixLength(best["dst-address"]) &&
    Number(r.distance ?? 0) === Number(best.distance ?? 0)
  );
}

/** Whether a policy rule's matchers take the packet; undefined when one cannot be decided. */
function ruleTakes(rule: Row, q: LookupQuery): boolean | undefined {
  let unknown = false;
  const check = (value: string | undefined, test: (v: string) => boolean | undefined) => {
    if (!value) return true;
    const is = test(value);
    if (is === undefined) unknown = true;
    return is !== false;
  };
  const ok = check(rule["src-address"], (v) => q.src ? addressInSpec(v, q.src) : undefined) &&
    check(rule["dst-address"], (v) => addressInSpec(v, q.dst)) &&
    check(rule["routing-mark"], (v) => (q.routingMark ?? null) === v) &&
    check(rule.interface, (v) => q.inInterface === undefined ? undefined : q.inInterface === v);
  if (!ok) return false;
  return unknown ? undefined : true;
}

/** A rule as one line: `*3 src-address=10.0.0.0/8 action=lookup table=isp2`. */
export function describePolicyRule(rule: Row): string {
  const parts = [rule[".id"] ?? "(rule)"];
  for (const k of ["src-address", "dst-address", "routing-mark", "interface", "min-prefix"]) {
    if (rule[k]) parts.push(`${k}=${rule[k]}`);
  }
  parts.push(`action=${rule.action ?? "lookup"}`);
  if (rule.table) parts.push(`table=${rule.table}`);
  return parts.join(" ");
}

/** A route as one line: `*1 10.5.0.0/24 via 10.0.12.2 distance=1 table=main`. */
export function describeRoute(r: Row): string {
  const kind = routeKind(r);
  const via = kind === "unicast" ? `via ${r.gateway ?? "?"}` : kind;
  return `${r[".id"] ?? "(route)"} ${r["dst-address"]} ${via} distance=${r.distance ?? "?"} table=${
    routeTable(r)
  }`;
}

/** The VRF an interface belongs to (RouterOS 7 `/ip vrf interfaces`). */
function vrfOf(vrfs: readonly Row[], iface: string | null | undefined): Row | undefined {
  if (!iface) return undefined;
  return vrfs.find((v) =>
    !isYes(v.disabled) && (v.interfaces ?? "").split(/[,;]/).map((s) => s.trim()).includes(iface)
  );
}

/** The route `q` takes on a router with `facts` (the decision in the module's docs). */
export function lookupRoute(facts: RoutingFacts, q: LookupQuery): LookupResult {
  const steps: LookupStep[] = [];
  const own = ownAddress(facts.addresses, q.dst);
  if (own) {
    steps.push({ kind: "local", text: `${q.dst} is this router's address (on ${own.interface})` });
    return { outcome: "local", table: "local", steps };
  }
  const resolver = gatewayResolver(facts);
  const resolves = (r: Row) => r.active !== undefined || resolver(r) !== undefined;
  const found = (table: string, minPrefix?: number): LookupResult | undefined => {
    const routes = tableLookup(facts.routes, table, q.dst, minPrefix, resolves);
    if (!routes.length) return undefined;
    const route = routes[0];
    const kind = routeKind(route);
    const hops = kind === "unicast" ? routes.flatMap((r) => nextHops(r, facts)) : [];
    return { outcome: "route", table, route, routes, kind, hops, steps };
  };
  const vrf = vrfOf(facts.vrfs ?? [], q.inInterface);
  if (vrf?.name) {
    steps.push({
      kind: "vrf",
      id: vrf[".id"],
      text: `${q.inInterface} is in VRF ${vrf.name}: only its table is looked up`,
    });
    return found(vrf.name) ?? { outcome: "no-route", table: vrf.name, steps };
  }
  if (q.routingMark) {
    const hit = found(q.routingMark);
    if (hit) {
      steps.push({
        kind: "mark",
        text: `routing mark ${q.routingMark} selects table ${q.routingMark}`,
      });
      return hit;
    }
    steps.push({
      kind: "mark",
      text: `routing mark ${q.routingMark}: table ${q.routingMark} has no route to ${q.dst}`,
    });
  }
  for (const rule of facts.rules ?? []) {
    if (isYes(rule.disabled)) continue;
    const takes = ruleTakes(rule, q);
    if (takes === undefined) {
      steps.push({
        kind: "rule",
        id: rule[".id"],
        text: `rule ${describePolicyRule(rule)} may match (the packet's source is not known); ` +
          "counted as not matching",
      });
      continue;
    }
    if (!takes) continue;
    const action = rule.action ?? "lookup";
    if (action === "drop" || action === "unreachable") {
      steps.push({ kind: "rule", id: rule[".id"], text: `rule ${describePolicyRule(rule)}` });
      return { outcome: action, table: rule.table ?? "main", rule, steps };
    }
    if (action !== "lookup" && action !== "lookup-only-in-table") continue;
    const table = rule.table || "main";
    const min = rule["min-prefix"] ? Number(rule["min-prefix"]) : undefined;
    const hit = found(table, Number.isInteger(min) ? min : undefined);
    steps.push({
      kind: "rule",
      id: rule[".id"],
      text: `rule ${describePolicyRule(rule)}${hit ? "" : `: table ${table} has no route`}`,
    });
    if (hit) return hit;
    if (action === "lookup-only-in-table") return { outcome: "no-route", table, rule, steps };
  }
  steps.push({ kind: "main", text: "table main" });
  return found("main") ?? { outcome: "no-route", table: "main", steps };
}
