/**
 * The proper singular and plural names of every menu's items, and the stems
 * of their tool names: titles come from here, never from trimming an "s".
 *
 * @module
 */
import type { Noun } from "./menu_tools/spec.ts";
import { FAMILY_NOUNS } from "./nouns_families.ts";
import { MANAGEMENT_NOUNS } from "./menus/management.ts";

/** Nouns by stem. */
export const NOUNS = {
  interface: { one: "interface", many: "interfaces", stem: "interface", stems: "interfaces" },
  ethernet_port: {
    one: "Ethernet port",
    many: "Ethernet ports",
    stem: "ethernet_port",
    stems: "ethernet_ports",
  },
  vlan: { one: "VLAN interface", many: "VLAN interfaces", stem: "vlan", stems: "vlans" },
  poe_port: { one: "PoE port", many: "PoE ports", stem: "poe_port", stems: "poe_ports" },
  bridge: { one: "bridge", many: "bridges", stem: "bridge", stems: "bridges" },
  bridge_port: {
    one: "bridge port",
    many: "bridge ports",
    stem: "bridge_port",
    stems: "bridge_ports",
  },
  bridge_vlan: {
    one: "bridge VLAN entry",
    many: "bridge VLAN entries",
    stem: "bridge_vlan",
    stems: "bridge_vlans",
  },
  ip_address: {
    one: "IPv4 address",
    many: "IPv4 addresses",
    stem: "ip_address",
    stems: "ip_addresses",
  },
  ipv6_address: {
    one: "IPv6 address",
    many: "IPv6 addresses",
    stem: "ipv6_address",
    stems: "ipv6_addresses",
  },
  ip_pool: { one: "IP address pool", many: "IP address pools", stem: "ip_pool", stems: "ip_pools" },
  ip_pool_used_address: {
    one: "used pool address",
    many: "used pool addresses",
    stem: "ip_pool_used_address",
    stems: "ip_pool_used_addresses",
  },
  dhcp_server: {
    one: "DHCP server",
    many: "DHCP servers",
    stem: "dhcp_server",
    stems: "dhcp_servers",
  },
  dhcp_network: {
    one: "DHCP network",
    many: "DHCP networks",
    stem: "dhcp_network",
    stems: "dhcp_networks",
  },
  dhcp_lease: { one: "DHCP lease", many: "DHCP leases", stem: "dhcp_lease", stems: "dhcp_leases" },
  dns_settings: {
    one: "DNS resolver",
    many: "DNS resolver settings",
    stem: "dns_settings",
    stems: "dns_settings",
  },
  dns_static_entry: {
    one: "static DNS entry",
    many: "static DNS entries",
    stem: "dns_static_entry",
    stems: "dns_static_entries",
  },
  dns_cache_entry: {
    one: "DNS cache entry",
    many: "DNS cache entries",
    stem: "dns_cache_entry",
    stems: "dns_cache_entries",
  },
  route: { one: "IPv4 route", many: "IPv4 routes", stem: "route", stems: "routes" },
  ipv6_route: { one: "IPv6 route", many: "IPv6 routes", stem: "ipv6_route", stems: "ipv6_routes" },
  firewall_filter_rule: {
    one: "IPv4 firewall filter rule",
    many: "IPv4 firewall filter rules",
    stem: "firewall_filter_rule",
    stems: "firewall_filter_rules",
  },
  firewall_nat_rule: {
    one: "IPv4 NAT rule",
    many: "IPv4 NAT rules",
    stem: "firewall_nat_rule",
    stems: "firewall_nat_rules",
  },
  firewall_mangle_rule: {
    one: "IPv4 mangle rule",
    many: "IPv4 mangle rules",
    stem: "firewall_mangle_rule",
    stems: "firewall_mangle_rules",
  },
  firewall_raw_rule: {
    one: "IPv4 raw firewall rule",
    many: "IPv4 raw firewall rules",
    stem: "firewall_raw_rule",
    stems: "firewall_raw_rules",
  },
  firewall_address_list_entry: {
    one: "IPv4 firewall address list entry",
    many: "IPv4 firewall address list entries",
    stem: "firewall_address_list_entry",
    stems: "firewall_address_list_entries",
  },
  ipv6_firewall_filter_rule: {
    one: "IPv6 firewall filter rule",
    many: "IPv6 firewall filter rules",
    stem: "ipv6_firewall_filter_rule",
    stems: "ipv6_firewall_filter_rules",
  },
  ipv6_firewall_address_list_entry: {
    one: "IPv6 firewall address list entry",
    many: "IPv6 firewall address list entries",
    stem: "ipv6_firewall_address_list_entry",
    stems: "ipv6_firewall_address_list_entries",
  },
  user: { one: "router user", many: "router users", stem: "user", stems: "users" },
  user_group: { one: "user group", many: "user groups", stem: "user_group", stems: "user_groups" },
  active_user: {
    one: "active user session",
    many: "active user sessions",
    stem: "active_user",
    stems: "active_users",
  },
  ssh_key: {
    one: "user SSH public key",
    many: "user SSH public keys",
    stem: "ssh_key",
    stems: "ssh_keys",
  },
  identity: {
    one: "router identity",
    many: "router identity",
    stem: "identity",
    stems: "identity",
  },
  clock: { one: "system clock", many: "system clock", stem: "clock", stems: "clock" },
  ntp_client: {
    one: "NTP client",
    many: "NTP client settings",
    stem: "ntp_client",
    stems: "ntp_client",
  },
  system_resource: {
    one: "system resources",
    many: "system resources",
    stem: "system_resource",
    stems: "system_resource",
  },
  routerboard: {
    one: "RouterBOARD",
    many: "RouterBOARD details",
    stem: "routerboard",
    stems: "routerboard",
  },
  package: {
    one: "installed package",
    many: "installed packages",
    stem: "package",
    stems: "packages",
  },
  health_sensor: {
    one: "health sensor",
    many: "health sensors",
    stem: "health_sensor",
    stems: "health_sensors",
  },
  ip_service: {
    one: "IP management service",
    many: "IP management services",
    stem: "ip_service",
    stems: "ip_services",
  },
  netwatch: {
    one: "netwatch host monitor",
    many: "netwatch host monitors",
    stem: "netwatch",
    stems: "netwatches",
  },
  scheduled_task: {
    one: "scheduled task",
    many: "scheduled tasks",
    stem: "scheduled_task",
    stems: "scheduled_tasks",
  },
  neighbor: {
    one: "discovered neighbour",
    many: "discovered neighbours",
    stem: "neighbor",
    stems: "neighbors",
  },
  simple_queue: {
    one: "simple queue",
    many: "simple queues",
    stem: "simple_queue",
    stems: "simple_queues",
  },
  queue_tree_entry: {
    one: "queue tree entry",
    many: "queue tree entries",
    stem: "queue_tree_entry",
    stems: "queue_tree_entries",
  },
  queue_type: { one: "queue type", many: "queue types", stem: "queue_type", stems: "queue_types" },
  wifi_interface: {
    one: "wifi interface",
    many: "wifi interfaces",
    stem: "wifi_interface",
    stems: "wifi_interfaces",
  },
  wifi_client: {
    one: "connected wifi client",
    many: "connected wifi clients",
    stem: "wifi_client",
    stems: "wifi_clients",
  },
  wifi_access_rule: {
    one: "wifi access list rule",
    many: "wifi access list rules",
    stem: "wifi_access_rule",
    stems: "wifi_access_rules",
  },
  wireless_interface: {
    one: "legacy wireless interface",
    many: "legacy wireless interfaces",
    stem: "wireless_interface",
    stems: "wireless_interfaces",
  },
  wireless_security_profile: {
    one: "legacy wireless security profile",
    many: "legacy wireless security profiles",
    stem: "wireless_security_profile",
    stems: "wireless_security_profiles",
  },
  wireless_client: {
    one: "connected legacy wireless client",
    many: "connected legacy wireless clients",
    stem: "wireless_client",
    stems: "wireless_clients",
  },
  wireless_access_rule: {
    one: "legacy wireless access list rule",
    many: "legacy wireless access list rules",
    stem: "wireless_access_rule",
    stems: "wireless_access_rules",
  },
  wireguard_interface: {
    one: "WireGuard interface",
    many: "WireGuard interfaces",
    stem: "wireguard_interface",
    stems: "wireguard_interfaces",
  },
  wireguard_peer: {
    one: "WireGuard peer",
    many: "WireGuard peers",
    stem: "wireguard_peer",
    stems: "wireguard_peers",
  },
  file: { one: "file", many: "files", stem: "file", stems: "files" },
  ...FAMILY_NOUNS,
  ...MANAGEMENT_NOUNS,
} as const satisfies Record<string, Noun>;
