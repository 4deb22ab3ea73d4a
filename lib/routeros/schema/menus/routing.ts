/**
 * Schema of the routing menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, int, ipv4, ipv4Prefix, ipv6Prefix, oneOf, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/**
 * Terse flags of routes: v7 prints the origin in lowercase (`DAc`, `As`),
 * v6 in capitals (`ADC`, `A S`); `B` marks a blackhole.
 */
const ROUTE_FLAGS = {
  X: "disabled",
  I: "inactive",
  D: "dynamic",
  A: "active",
  B: "blackhole",
  C: "connect",
  c: "connect",
  S: "static",
  s: "static",
};

/** Read-only facts of every route. */
const ROUTE_STATE = {
  connect: state(bool("Whether it is a connected network's route")),
  static: state(bool("Whether the route is static (configured)")),
  "vrf-interface": state(text("VRF interface", { releases: { from: "7.0" } })),
};

/** `/ip/route`. */
export const ipRoutes = menu({
  path: "/ip/route",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: ROUTE_FLAGS,
  fields: {
    "dst-address": ipv4Prefix("Destination prefix, e.g. 10.0.0.0/8 or 0.0.0.0/0 (default route)"),
    gateway: text("Next hop address or interface, e.g. 192.168.88.254 or ether1"),
    distance: int("Administrative distance 1-255; lower wins"),
    scope: int("Scope (default 30)"),
    "target-scope": int("Largest scope of routes the gateway may resolve through (default 10)"),
    "routing-table": text("Routing table, e.g. main (RouterOS 6: routing-mark)", {
      v6Name: "routing-mark",
    }),
    "pref-src": ipv4("Preferred source address for traffic the router sends"),
    "check-gateway": oneOf(
      ["arp", "ping", "none"],
      "Probe the gateway and deactivate the route when it fails",
    ),
    blackhole: bool("Drop traffic to the destination silently", { releases: { from: "7.0" } }),
    type: oneOf(
      ["unicast", "blackhole", "prohibit", "unreachable"],
      "Route type (blackhole, prohibit and unreachable drop traffic)",
      { releases: { until: "6.99" } },
    ),
    "immediate-gw": state(text("Resolved next hop and interface", { releases: { from: "7.0" } })),
    active: state(bool("Whether the route is in use")),
    inactive: state(
      bool("Whether the route is inactive (gateway unreachable)", { releases: { from: "7.0" } }),
    ),
    ...ROUTE_STATE,
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/ipv6/route`. */
export const ipv6Routes = menu({
  path: "/ipv6/route",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: ROUTE_FLAGS,
  fields: {
    "dst-address": ipv6Prefix("Destination prefix, e.g. 2001:db8::/32 or ::/0 (default route)"),
    gateway: text("Next hop address or interface, e.g. fe80::1%ether1"),
    distance: int("Administrative distance 1-255; lower wins"),
    scope: int("Scope (default 30)"),
    "target-scope": int("Largest scope of routes the gateway may resolve through"),
    "routing-table": text("Routing table, e.g. main", { releases: { from: "7.0" } }),
    blackhole: bool("Drop traffic to the destination silently", { releases: { from: "7.0" } }),
    "check-gateway": oneOf(["arp", "ping", "none"], "Probe the gateway"),
    active: state(bool("Whether the route is in use")),
    ...ROUTE_STATE,
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const ROUTING_SCHEMAS: readonly MenuSchema[] = [
  ipRoutes,
  ipv6Routes,
];
