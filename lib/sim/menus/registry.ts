/**
 * Every simulated menu, family by family (each family module exports one
 * list, spread here), plus the loose commands (`/ping`,
 * `/system/reboot`...): {@linkcode SIM_MENUS}, the menus a router's state
 * holds unless it is given others. Only the router's assembly imports this
 * module; menus reach each other through the state.
 *
 * @module
 */
import type { MenuDef, Menus } from "../menu_types.ts";
import { MenuIndex } from "../menu_index.ts";
import { INTERFACE_MENUS } from "./interface.ts";
import { IP_MENUS } from "./ip.ts";
import { SYSTEM_MENUS } from "./system.ts";
import { USER_MENUS } from "./user.ts";
import { FIREWALL_MENUS } from "./firewall.ts";
import { MISC_MENUS } from "./misc.ts";
import { LOOSE_COMMANDS } from "./loose.ts";
import { TUNNEL_MENUS } from "./interface_tunnels.ts";
import { PPP_MENUS } from "./ppp.ts";
import { IPSEC_MENUS } from "./ipsec.ts";
import { OVPN_MENUS } from "./ovpn.ts";
import { IPV6_MENUS } from "./ipv6.ts";
import { DYNAMIC_ROUTING_MENUS } from "./routing_dynamic.ts";
import { PLATFORM_MENUS } from "./platform.ts";
import { PACKAGE_UPDATE } from "./package_update.ts";
import { CAPSMAN_MENUS } from "./capsman.ts";
import { CONNECTION_MENUS } from "./firewall_connection.ts";
import { MANAGEMENT_MENUS } from "./management.ts";
import { SYSTEM_RECORD_MENUS } from "./system_records.ts";
import { MANAGEMENT_ACCESS_MENUS } from "./management_access.ts";
import { ROUTING_RULE_MENUS } from "./routing_rules.ts";
import { VRRP_MENUS } from "./vrrp.ts";
import { SNMP_MENUS } from "./snmp.ts";
import { ROMON_MENUS } from "./romon.ts";
import { TRAFFIC_FLOW_MENUS } from "./traffic_flow.ts";

/** Every menu. */
export const ALL_MENUS: readonly MenuDef[] = [
  ...INTERFACE_MENUS,
  ...IP_MENUS,
  ...FIREWALL_MENUS,
  ...SYSTEM_MENUS,
  ...USER_MENUS,
  ...MISC_MENUS,
  ...TUNNEL_MENUS,
  ...PPP_MENUS,
  ...IPSEC_MENUS,
  ...OVPN_MENUS,
  ...IPV6_MENUS,
  ...DYNAMIC_ROUTING_MENUS,
  ...PLATFORM_MENUS,
  ...CAPSMAN_MENUS,
  PACKAGE_UPDATE,
  ...CONNECTION_MENUS,
  ...MANAGEMENT_MENUS,
  ...SYSTEM_RECORD_MENUS,
  ...MANAGEMENT_ACCESS_MENUS,
  ...ROUTING_RULE_MENUS,
  ...VRRP_MENUS,
  ...SNMP_MENUS,
  ...ROMON_MENUS,
  ...TRAFFIC_FLOW_MENUS,
];

/** The full simulator's menus: every family's menus and the loose commands. */
export const SIM_MENUS: Menus = new MenuIndex(ALL_MENUS, LOOSE_COMMANDS);
