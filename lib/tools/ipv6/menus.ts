/**
 * Tools of the IPv6 service menus (prefix pools, router advertisements,
 * DHCPv6 client, server and bindings): toolset, names, verbs, columns,
 * notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/ipv6.ts; the IPv6 NAT, mangle and raw tables
 * are in the firewall toolset (../firewall/ipv6_menus.ts).
 *
 * @module
 */
import {
  ipv6DhcpBindings,
  ipv6DhcpClients,
  ipv6DhcpServers,
  ipv6Nd,
  ipv6NdPrefixes,
  ipv6Pools,
} from "../../routeros/schema/menus/ipv6.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;

/** `/ipv6/pool`. */
const ipv6PoolsTools: MenuTools = {
  schema: ipv6Pools,
  toolset: "ipv6",
  noun: noun("ipv6_pool", "IPv6 prefix pool"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "prefix", "prefix-length", "dynamic", "comment"],
  notes:
    "Hands out prefix_length-sized prefixes of prefix: to DHCPv6 prefix delegation, or to addresses added with from_pool. A DHCPv6 client fills its pool_name pool with the provider's prefix.",
  example: {
    "add": { "name": "pool6-example", "prefix": "2001:db8:99::/48", "prefix_length": 64 },
    "update": { "prefix_length": 60 },
  },
};

/** `/ipv6/nd`. */
const ipv6NdTools: MenuTools = {
  schema: ipv6Nd,
  toolset: "ipv6",
  noun: noun("ipv6_nd", "IPv6 router advertisement entry", { stems: "ipv6_nd_entries" }),
  verbs: VERBS,
  columns: ["interface", "ra-interval", "advertise-dns", "managed-address-configuration"],
  notes:
    "Router advertisements per interface (interface all: the built-in default): hosts take their prefix (router_list_ipv6_nd_prefixes), default route and DNS from them. M/O flags send hosts to DHCPv6.",
  example: {
    "add": { "interface": "ether2", "ra_interval": "30s-60s", "comment": "example" },
    "update": { "advertise_dns": "yes" },
  },
};

/** `/ipv6/nd/prefix`. */
const ipv6NdPrefixesTools: MenuTools = {
  schema: ipv6NdPrefixes,
  toolset: "ipv6",
  noun: noun("ipv6_nd_prefix", "advertised IPv6 prefix"),
  verbs: VERBS,
  columns: ["prefix", "interface", "autonomous", "valid-lifetime", "dynamic", "disabled"],
  notes:
    "Prefixes in router advertisements; RouterOS adds them itself for IPv6 addresses with advertise=yes (dynamic). autonomous lets hosts make addresses (SLAAC).",
  example: {
    "add": { "prefix": "2001:db8:98::/64", "interface": "ether2", "comment": "example" },
    "update": { "autonomous": false },
  },
};

/** `/ipv6/dhcp-client`. */
const ipv6DhcpClientsTools: MenuTools = {
  schema: ipv6DhcpClients,
  toolset: "ipv6",
  noun: noun("ipv6_dhcp_client", "DHCPv6 client"),
  verbs: VERBS,
  columns: ["interface", "request", "pool-name", "status", "prefix", "disabled"],
  notes:
    'Gets IPv6 from the provider: request ["prefix"] puts the delegated prefix in pool_name, from which LAN addresses are made (router_add_ipv6_address with from_pool).',
  example: {
    "add": {
      "interface": "ether1",
      "request": ["prefix"],
      "pool_name": "isp6",
      "pool_prefix_length": 64,
      "comment": "example",
    },
    "update": { "add_default_route": true },
  },
};

/** `/ipv6/dhcp-server`. */
const ipv6DhcpServersTools: MenuTools = {
  schema: ipv6DhcpServers,
  toolset: "ipv6",
  noun: noun("ipv6_dhcp_server", "DHCPv6 server"),
  verbs: VERBS,
  columns: ["name", "interface", "address-pool", "lease-time", "disabled"],
  notes: "Delegates prefixes from address_pool to downstream routers on interface.",
  example: {
    "requires": ["/ipv6/pool"],
    "add": {
      "name": "dhcp6-example",
      "interface": "bridge",
      "address_pool": "pool6-example",
      "comment": "example",
    },
    "update": { "lease_time": "1d" },
  },
};

/** `/ipv6/dhcp-server/binding`. */
const ipv6DhcpBindingsTools: MenuTools = {
  schema: ipv6DhcpBindings,
  toolset: "ipv6",
  noun: noun("ipv6_dhcp_binding", "DHCPv6 binding"),
  verbs: VERBS,
  columns: ["address", "duid", "server", "status", "dynamic", "disabled"],
  notes: "Prefixes delegated to clients; a static binding pins a prefix to a client DUID.",
  example: {
    "add": {
      "address": "2001:db8:96::/56",
      "duid": "0x000300010cc47a0b1c2d",
      "comment": "example",
    },
    "update": { "life_time": "1d" },
  },
};

/** The menus of the ipv6 toolset, in catalogue order. */
export const IPV6_MENU_TOOLS: readonly MenuTools[] = [
  ipv6PoolsTools,
  ipv6NdTools,
  ipv6NdPrefixesTools,
  ipv6DhcpClientsTools,
  ipv6DhcpServersTools,
  ipv6DhcpBindingsTools,
];
