/**
 * What an interface address does to the routing table: RouterOS gives each
 * address a connected route (its network, `gateway=<interface>`, distance
 * 0, `connect` flag, `pref-src` the address), which goes when the address
 * goes (removed or disabled) unless another address of that interface keeps
 * the same network; a route whose gateway address was reached only through
 * a connected subnet that is gone becomes inactive (its gateway is
 * unreachable).
 *
 * {@linkcode withAddressChange} turns the routing facts as read into the
 * facts after an address change, so a route lookup (`route_lookup.ts`) can
 * compare the two: the lock-out guard's `/ip/address` rule uses it to decide
 * the route back to this server as the route rule does.
 *
 * Not modelled: a connected route that stays inactive because its
 * interface's link is down (a new address counts as if its link were up),
 * and the VRF an interface is in (its connected route goes to that VRF's
 * table; here, the main one).
 *
 * @module
 */
import { addressInSpec, addressOf, networkOf, prefixContains } from "./prefix.ts";
import { connectedInterface, routeKind, type RoutingFacts, type Row } from "./route_lookup.ts";
import { isYes } from "./rule_match.ts";
import { isIpv4, isIpv6 } from "./ip_address.ts";

/**
 * An address taken away and one put in its place (`address`, `interface`
 * it is bound to, `network` when given, `.id`).
 */
export interface AddressChange {
  removed?: Row;
  added?: Row;
}

function live(a: Row): boolean {
  return !isYes(a.disabled) && !isYes(a.invalid) && !!a.address && !!a.interface;
}

/** True when two `address/len` texts are the same network (same length, same network bits). */
function sameNetwork(a: string, b: string): boolean {
  const la = a.split("/")[1], lb = b.split("/")[1];
  return la !== undefined && la === lb && prefixContains(a, addressOf(b));
}

/**
 * The prefix of an address's connected route: its network (given, as a
 * point-to-point /32 names its peer, or derived) with its prefix length.
 */
function routePrefix(address: Row): string | undefined {
  const [ip, len] = (address.address ?? "").split("/");
  if (!ip || len === undefined) return undefined;
  return networkOf(`${address.network || ip}/${len}`);
}

/** The route is the connected route of `address` (its network, onto its interface). */
export function isConnectedRouteOf(route: Row, address: Row): boolean {
  const dst = route["dst-address"], net = routePrefix(address), iface = address.interface;
  if (!dst || !net || !iface) return false;
  const gateway = (route.gateway ?? "").split(/[,;]/)[0].trim();
  const connected = isYes(route.connect) || (route.distance === "0" && isYes(route.dynamic));
  return connected && gateway === iface && sameNetwork(dst, net);
}

/** The connected route a live address makes. */
function connectedRoute(address: Row): Row | undefined {
  const net = routePrefix(address);
  if (!net || !address.interface) return undefined;
  return {
    "dst-address": net,
    gateway: address.interface,
    "immediate-gw": address.interface,
    "pref-src": addressOf(address.address!),
    distance: "0",
    connect: "true",
    dynamic: "true",
  };
}

function isAddress(text: string): boolean {
  return isIpv4(text) || isIpv6(text);
}

/** A unicast route whose gateway addresses were reachable before and none is after. */
function lostGateway(route: Row, before: RoutingFacts, after: RoutingFacts): boolean {
  if (routeKind(route) !== "unicast" || isYes(route.connect)) return false;
  const hops = (route.gateway ?? "").split(/[,;]/).map((s) => s.trim().split("@")[0])
    .filter(Boolean);
  if (!hops.length || hops.some((h) => h.includes("%") || !isAddress(h))) return false;
  const reached = (facts: RoutingFacts, hop: string) =>
    connectedInterface(facts, hop) !== undefined ||
    facts.addresses.some((a) => live(a) && addressInSpec(a.address!, hop) === true);
  return hops.some((h) => reached(before, h)) && !hops.some((h) => reached(after, h));
}

/** The interface an address is bound to (a bridge port's address: the bridge). */
function boundTo(a: Row): string | undefined {
  return a["actual-interface"] || a.interface;
}

/** The same address item (by id when both have one, else by address and interface). */
function sameItem(a: Row, b: Row): boolean {
  if (a[".id"] && b[".id"]) return a[".id"] === b[".id"];
  return a.address === b.address && boundTo(a) === boundTo(b);
}

/**
 * The routing facts after `change`: the addresses with it applied, the
 * connected route of the removed address gone (unless another address of
 * its interface keeps that network), the added one's connected route there,
 * and the routes whose gateways only the removed subnet reached taken out.
 */
export function withAddressChange(facts: RoutingFacts, change: AddressChange): RoutingFacts {
  const { removed, added } = change;
  const addresses = [
    ...facts.addresses.filter((a) => !removed || !sameItem(a, removed)),
    ...(added && live(added) ? [added] : []),
  ];
  let routes = [...facts.routes];
  if (removed && live(removed)) {
    const net = routePrefix(removed);
    const kept = addresses.some((a) => {
      const other = routePrefix(a);
      return live(a) && boundTo(a) === removed.interface && !!net && !!other &&
        sameNetwork(other, net);
    });
    if (!kept) routes = routes.filter((r) => !isConnectedRouteOf(r, removed));
  }
  if (added && live(added) && !routes.some((r) => isConnectedRouteOf(r, added))) {
    const route = connectedRoute(added);
    if (route) routes.push(route);
  }
  const after: RoutingFacts = { ...facts, routes, addresses };
  return { ...after, routes: routes.filter((r) => !lostGateway(r, facts, after)) };
}
