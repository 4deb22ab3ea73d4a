/**
 * Tools of the ip menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/ip.ts.
 *
 * @module
 */
import { ipAddress, ipPool, ipPoolUsed, ipv6Address } from "../../routeros/schema/menus/ip.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { addressLockout } from "../guard/lockout_addresses.ts";

/** `/ip/address`. */
const ipAddressTools: MenuTools = {
  schema: ipAddress,
  toolset: "ip",
  noun: noun("ip_address", "IPv4 address"),
  core: ["list"],
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "network", "interface", "disabled", "dynamic", "comment"],
  notes: "Addresses are in CIDR form (192.168.88.1/24).",
  example: {
    "add": { "address": "10.99.0.1/24", "interface": "ether2", "comment": "example" },
    "update": { "comment": "changed" },
  },
  lockout: addressLockout(ipAddress),
};

/** `/ipv6/address`. */
const ipv6AddressTools: MenuTools = {
  schema: ipv6Address,
  toolset: "ip",
  noun: noun("ipv6_address", "IPv6 address"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "interface", "advertise", "disabled", "dynamic", "comment"],
  notes:
    "Addresses are in prefix form (2001:db8::1/64). Link-local (fe80::) addresses are dynamic and cannot be removed. With eui_64 the interface id comes from the MAC address.",
  example: {
    "add": {
      "address": "2001:db8:99::1/64",
      "interface": "ether2",
      "advertise": false,
      "comment": "example",
    },
    "update": { "comment": "changed" },
  },
  lockout: addressLockout(ipv6Address),
};

/** `/ip/pool`. */
const ipPoolTools: MenuTools = {
  schema: ipPool,
  toolset: "ip",
  noun: noun("ip_pool", "IP address pool"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "ranges", "next-pool", "comment"],
  notes:
    "Ranges are first-last addresses (10.0.0.10-10.0.0.100) or prefixes (10.0.0.0/24). A DHCP server hands out addresses from the pool named in its address_pool. See router_list_ip_pool_used_addresses for what is handed out.",
  example: {
    "add": { "name": "pool-example", "ranges": ["10.99.1.10-10.99.1.100"], "comment": "example" },
    "update": { "ranges": ["10.99.1.10-10.99.1.200"] },
  },
};

/** `/ip/pool/used`. */
const ipPoolUsedTools: MenuTools = {
  schema: ipPoolUsed,
  toolset: "ip",
  noun: noun("ip_pool_used_address", "used pool address"),
  verbs: ["list"],
  columns: ["pool", "address", "owner", "info"],
  notes: "Read-only: addresses handed out from pools and who holds them.",
};

/** The menus of this family, in catalogue order. */
export const IP_MENU_TOOLS: readonly MenuTools[] = [
  ipAddressTools,
  ipv6AddressTools,
  ipPoolTools,
  ipPoolUsedTools,
];
