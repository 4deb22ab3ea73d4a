/**
 * Every declared RouterOS menu, by path.
 *
 * @module
 */
import type { Release } from "../release.ts";
import { declarationOn, type MenuSchema } from "./menu.ts";
import { INTERFACES_SCHEMAS } from "./menus/interfaces.ts";
import { INTERFACE_LISTS_SCHEMAS } from "./menus/interface_lists.ts";
import { BRIDGE_SCHEMAS } from "./menus/bridge.ts";
import { IP_SCHEMAS } from "./menus/ip.ts";
import { DHCP_SCHEMAS } from "./menus/dhcp.ts";
import { DNS_SCHEMAS } from "./menus/dns.ts";
import { ROUTING_SCHEMAS } from "./menus/routing.ts";
import { FIREWALL_SCHEMAS } from "./menus/firewall.ts";
import { USERS_SCHEMAS } from "./menus/users.ts";
import { SYSTEM_SCHEMAS } from "./menus/system.ts";
import { SERVICES_SCHEMAS } from "./menus/services.ts";
import { QUEUES_SCHEMAS } from "./menus/queues.ts";
import { WIRELESS_SCHEMAS } from "./menus/wireless.ts";
import { CAPSMAN_SCHEMAS } from "./menus/capsman.ts";
import { WIREGUARD_SCHEMAS } from "./menus/wireguard.ts";
import { FILES_SCHEMAS } from "./menus/files.ts";
import { LOGS_SCHEMAS } from "./menus/logs.ts";
import { TUNNELS_SCHEMAS } from "./menus/tunnels.ts";
import { PPP_SCHEMAS } from "./menus/ppp.ts";
import { IPSEC_SCHEMAS } from "./menus/ipsec.ts";
import { OVPN_SCHEMAS } from "./menus/ovpn.ts";
import { IPV6_SCHEMAS } from "./menus/ipv6.ts";
import { IPV6_FIREWALL_SCHEMAS } from "./menus/ipv6_firewall.ts";
import { DYNAMIC_ROUTING_SCHEMAS } from "./menus/dynamic_routing.ts";
import { PLATFORM_SCHEMAS } from "./menus/platform.ts";
import { MANAGEMENT_SCHEMAS } from "./menus/management.ts";
import { VRRP_SCHEMAS } from "./menus/vrrp.ts";
import { SNMP_SCHEMAS } from "./menus/snmp.ts";
import { ARP_SCHEMAS } from "./menus/arp.ts";
import { ROMON_SCHEMAS } from "./menus/romon.ts";
import { TRAFFIC_FLOW_SCHEMAS } from "./menus/traffic_flow.ts";

/** Every declared menu, family by family. */
export const MENU_SCHEMAS: readonly MenuSchema[] = [
  ...INTERFACES_SCHEMAS,
  ...INTERFACE_LISTS_SCHEMAS,
  ...BRIDGE_SCHEMAS,
  ...IP_SCHEMAS,
  ...DHCP_SCHEMAS,
  ...DNS_SCHEMAS,
  ...ROUTING_SCHEMAS,
  ...FIREWALL_SCHEMAS,
  ...USERS_SCHEMAS,
  ...SYSTEM_SCHEMAS,
  ...SERVICES_SCHEMAS,
  ...QUEUES_SCHEMAS,
  ...WIRELESS_SCHEMAS,
  ...CAPSMAN_SCHEMAS,
  ...WIREGUARD_SCHEMAS,
  ...FILES_SCHEMAS,
  ...LOGS_SCHEMAS,
  ...TUNNELS_SCHEMAS,
  ...PPP_SCHEMAS,
  ...IPSEC_SCHEMAS,
  ...OVPN_SCHEMAS,
  ...IPV6_SCHEMAS,
  ...IPV6_FIREWALL_SCHEMAS,
  ...DYNAMIC_ROUTING_SCHEMAS,
  ...PLATFORM_SCHEMAS,
  ...MANAGEMENT_SCHEMAS,
  ...VRRP_SCHEMAS,
  ...SNMP_SCHEMAS,
  ...ARP_SCHEMAS,
  ...ROMON_SCHEMAS,
  ...TRAFFIC_FLOW_SCHEMAS,
];

const byPath = new Map<string, MenuSchema[]>();
for (const m of MENU_SCHEMAS) byPath.set(m.path, [...(byPath.get(m.path) ?? []), m]);

/**
 * The menu declared at `path` (`/ip/address`), if any. A menu that changed
 * shape (settings up to one release, a list after) has one declaration per
 * shape: the one `release` has, else the first.
 */
export function menuAt(path: string, release?: Release): MenuSchema | undefined {
  return declarationOn(byPath.get(path) ?? [], release);
}
