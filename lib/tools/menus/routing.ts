/**
 * Routing menus: IPv4 and IPv6 routes.
 *
 * @module
 */
import { flag, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic } from "./common.ts";

const V7 = { min: "7.0" };
const V6 = { max: "6.99" };

/** `/ip/route`: the IPv4 routing table. */
export const ipRoutes: Menu = {
  path: "/ip/route",
  toolset: "routing",
  singular: "route",
  plural: "routes",
  noun: "IPv4 routes",
  notes: "A default route is dst_address 0.0.0.0/0. gateway is an address or an interface " +
    "name. A lower distance wins. Blackhole: blackhole=true on RouterOS 7, type=blackhole on " +
    "RouterOS 6. Routing tables: routing_table (RouterOS 7; routing-mark on RouterOS 6, same " +
    "argument). Dynamic routes (connected, DHCP, OSPF...) cannot be edited.",
  fields: {
    "dst-address": text("Destination prefix, e.g. 10.0.0.0/8 or 0.0.0.0/0 (default route)"),
    gateway: text("Next hop address or interface, e.g. 192.168.88.254 or ether1"),
    distance: num("Administrative distance 1-255; lower wins"),
    scope: num("Scope (default 30)"),
    "target-scope": num("Largest scope of routes the gateway may resolve through (default 10)"),
    "routing-table": text("Routing table, e.g. main (RouterOS 6: routing-mark)"),
    "pref-src": text("Preferred source address for traffic the router sends"),
    "check-gateway": oneOf(
      ["arp", "bfd", "ping", "none"],
      "Probe the gateway and deactivate the route when it fails",
    ),
    blackhole: flag("Drop traffic to the destination silently", { versions: V7 }),
    type: oneOf(
      ["unicast", "blackhole", "prohibit", "unreachable"],
      "Route type (blackhole, prohibit and unreachable drop traffic)",
      { versions: V6 },
    ),
    "immediate-gw": state(text("Resolved next hop and interface", { versions: V7 })),
    active: state(flag("Whether the route is in use")),
    inactive: state(flag("Whether the route is inactive (gateway unreachable)", { versions: V7 })),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["dst-address", "gateway", "distance", "routing-table", "active", "disabled", "comment"],
  flags: { X: "disabled", I: "inactive", D: "dynamic", A: "active" },
  v6Names: { "routing-table": "routing-mark" },
  example: {
    add: {
      dst_address: "10.99.4.0/24",
      gateway: "192.168.88.254",
      distance: 5,
      comment: "example",
    },
    update: { distance: 10 },
  },
};

/** `/ipv6/route`: the IPv6 routing table. */
export const ipv6Routes: Menu = {
  path: "/ipv6/route",
  toolset: "routing",
  singular: "ipv6_route",
  plural: "ipv6_routes",
  noun: "IPv6 routes",
  notes: "A default route is dst_address ::/0. gateway is an address, or a link-local " +
    "address with %interface (fe80::1%ether1). A lower distance wins.",
  fields: {
    "dst-address": text("Destination prefix, e.g. 2001:db8::/32 or ::/0 (default route)"),
    gateway: text("Next hop address or interface, e.g. fe80::1%ether1"),
    distance: num("Administrative distance 1-255; lower wins"),
    scope: num("Scope (default 30)"),
    "target-scope": num("Largest scope of routes the gateway may resolve through"),
    "routing-table": text("Routing table, e.g. main", { versions: V7 }),
    blackhole: flag("Drop traffic to the destination silently", { versions: V7 }),
    "check-gateway": oneOf(["bfd", "ping", "none"], "Probe the gateway"),
    active: state(flag("Whether the route is in use")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["dst-address", "gateway", "distance", "active", "disabled", "comment"],
  flags: { X: "disabled", I: "inactive", D: "dynamic", A: "active" },
  example: {
    add: { dst_address: "2001:db8:99::/48", gateway: "2001:db8:1::1", comment: "example" },
    update: { distance: 10 },
  },
};
