/**
 * IP menus: IPv4 and IPv6 addresses, IP pools and their used addresses.
 *
 * @module
 */
import { flag, list, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, invalid } from "./common.ts";

/** `/ip/address`: IPv4 addresses on interfaces. */
export const ipAddress: Menu = {
  path: "/ip/address",
  toolset: "ip",
  singular: "ip_address",
  plural: "ip_addresses",
  noun: "IPv4 addresses",
  notes: "Addresses are in CIDR form (192.168.88.1/24).",
  fields: {
    address: text("IPv4 address with prefix length, e.g. 192.168.88.1/24", { required: true }),
    network: text("Network address; RouterOS derives it from address when not given"),
    interface: text("Interface the address is on, e.g. ether1 or bridge", {
      required: true,
      ref: "/interface",
    }),
    "actual-interface": state(
      text("Interface the address is really bound to (a bridge for a port)"),
    ),
    disabled: flag("Whether the address is disabled"),
    dynamic: state(flag("Whether the address was added by a service (DHCP client, PPP)")),
    invalid: state(flag("Whether RouterOS considers the address invalid (interface gone)")),
    comment: text("Free-text comment"),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "network", "interface", "disabled", "dynamic", "comment"],
  example: {
    add: { address: "10.99.0.1/24", interface: "ether2", comment: "example" },
    update: { comment: "changed" },
  },
};

/** `/ipv6/address`: IPv6 addresses on interfaces. */
export const ipv6Address: Menu = {
  path: "/ipv6/address",
  toolset: "ip",
  singular: "ipv6_address",
  plural: "ipv6_addresses",
  noun: "IPv6 addresses",
  notes: "Addresses are in prefix form (2001:db8::1/64). Link-local (fe80::) addresses are " +
    "dynamic and cannot be removed. With eui_64 the interface id comes from the MAC address.",
  fields: {
    address: text("IPv6 address with prefix length, e.g. 2001:db8::1/64", { required: true }),
    "from-pool": text("IPv6 pool to take the prefix from (instead of a fixed address)"),
    interface: text("Interface the address is on, e.g. ether1 or bridge", {
      required: true,
      ref: "/interface",
    }),
    "actual-interface": state(text("Interface the address is really bound to")),
    "eui-64": flag("Derive the interface id (last 64 bits) from the MAC address"),
    advertise: flag("Advertise the prefix in router advertisements (SLAAC)"),
    "no-dad": flag("Skip duplicate address detection"),
    "link-local": state(flag("Whether it is a link-local (fe80::/10) address")),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "interface", "advertise", "disabled", "dynamic", "comment"],
  flags: { X: "disabled", I: "invalid", D: "dynamic", L: "link-local" },
  example: {
    add: {
      address: "2001:db8:99::1/64",
      interface: "ether2",
      advertise: false,
      comment: "example",
    },
    update: { comment: "changed" },
  },
};

/** `/ip/pool`: address pools for DHCP, PPP and hotspot. */
export const ipPool: Menu = {
  path: "/ip/pool",
  toolset: "ip",
  singular: "ip_pool",
  plural: "ip_pools",
  noun: "IP address pools",
  notes: "Ranges are first-last addresses (10.0.0.10-10.0.0.100) or prefixes (10.0.0.0/24). " +
    "A DHCP server hands out addresses from the pool named in its address_pool. See " +
    "router_list_ip_pool_used_addresses for what is handed out.",
  key: "name",
  fields: {
    name: text("Pool name, e.g. dhcp-lan", { required: true }),
    ranges: list('Address ranges, e.g. ["10.0.0.10-10.0.0.100"]', { required: true }),
    "next-pool": text("Pool to take addresses from when this one is exhausted, or none"),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "ranges", "next-pool", "comment"],
  flags: {},
  example: {
    add: { name: "pool-example", ranges: ["10.99.1.10-10.99.1.100"], comment: "example" },
    update: { ranges: ["10.99.1.10-10.99.1.200"] },
  },
};

/** `/ip/pool/used`: addresses currently taken from pools. */
export const ipPoolUsed: Menu = {
  path: "/ip/pool/used",
  toolset: "ip",
  singular: "ip_pool_used_address",
  plural: "ip_pool_used_addresses",
  noun: "used pool addresses",
  notes: "Read-only: addresses handed out from pools and who holds them.",
  fields: {
    pool: state(text("Pool the address was taken from", { ref: "/ip/pool" })),
    address: state(text("The address handed out")),
    owner: state(text("Service holding it (e.g. DHCP server name)")),
    info: state(text("Holder details, e.g. the client MAC address")),
  },
  verbs: ["list"],
  columns: ["pool", "address", "owner", "info"],
  flags: {},
};
