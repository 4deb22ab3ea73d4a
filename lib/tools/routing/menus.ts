/**
 * Tools of the routing menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/routing.ts.
 *
 * @module
 */
import { ipRoutes, ipv6Routes } from "../../routeros/schema/menus/routing.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { routeLockout } from "../guard/lockout_routes.ts";

/** `/ip/route`. */
const ipRoutesTools: MenuTools = {
  schema: ipRoutes,
  toolset: "routing",
  noun: noun("route", "IPv4 route"),
  core: ["list"],
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["dst-address", "gateway", "distance", "routing-table", "active", "disabled", "comment"],
  notes:
    "A default route is dst_address 0.0.0.0/0. gateway is an address or an interface name. A lower distance wins. Blackhole: blackhole=true on RouterOS 7, type=blackhole on RouterOS 6. Routing tables: routing_table (RouterOS 7; routing-mark on RouterOS 6, same argument). Dynamic routes (connected, DHCP, OSPF...) cannot be edited.",
  example: {
    "add": {
      "dst_address": "10.99.4.0/24",
      "gateway": "192.168.88.254",
      "distance": 5,
      "comment": "example",
    },
    "update": { "distance": 10 },
  },
  lockout: routeLockout(ipRoutes),
};

/** `/ipv6/route`. */
const ipv6RoutesTools: MenuTools = {
  schema: ipv6Routes,
  toolset: "routing",
  noun: noun("ipv6_route", "IPv6 route"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["dst-address", "gateway", "distance", "active", "disabled", "comment"],
  notes:
    "A default route is dst_address ::/0. gateway is an address, or a link-local address with %interface (fe80::1%ether1). A lower distance wins.",
  example: {
    "add": { "dst_address": "2001:db8:99::/48", "gateway": "2001:db8:1::1", "comment": "example" },
    "update": { "distance": 10 },
  },
  lockout: routeLockout(ipv6Routes),
};

/** The menus of this family, in catalogue order. */
export const ROUTING_MENU_TOOLS: readonly MenuTools[] = [
  ipRoutesTools,
  ipv6RoutesTools,
];
