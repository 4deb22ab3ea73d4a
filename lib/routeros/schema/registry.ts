/**
 * Every declared RouterOS menu, by path.
 *
 * @module
 */
import type { Release } from "../release.ts";
import { declarationOn, type MenuSchema } from "./menu.ts";
import { bridgePorts, bridges, bridgeVlans } from "./menus/bridge.ts";
import { dhcpLeases, dhcpNetworks, dhcpServers } from "./menus/dhcp.ts";
import { dnsCache, dnsSettings, dnsStatic } from "./menus/dns.ts";
import { files } from "./menus/files.ts";
import {
  firewallAddressList,
  firewallFilter,
  firewallMangle,
  firewallNat,
  firewallRaw,
  ipv6FirewallAddressList,
  ipv6FirewallFilter,
} from "./menus/firewall.ts";
import { ethernet, interfaces, poe, vlans } from "./menus/interfaces.ts";
import { logEntries } from "./menus/logs.ts";
import { ipAddress, ipPool, ipPoolUsed, ipv6Address } from "./menus/ip.ts";
import { queueTree, queueTypes, simpleQueues } from "./menus/queues.ts";
import { ipRoutes, ipv6Routes } from "./menus/routing.ts";
import { ipServices, neighbors, netwatch, scheduler } from "./menus/services.ts";
import { MANAGEMENT_MENUS } from "./menus/management.ts";
import {
  clock,
  health,
  identity,
  ntpClient,
  packages,
  resource,
  routerboard,
} from "./menus/system.ts";
import { activeUsers, sshKeys, userGroups, users } from "./menus/users.ts";
import { wireguard, wireguardPeers } from "./menus/wireguard.ts";
import { bonding, eoip, gre, ipip, vxlan } from "./menus/tunnels.ts";
import {
  l2tpClients,
  l2tpServer,
  ovpnClients,
  pppActive,
  pppoeClients,
  pppoeServers,
  pppProfiles,
  pppSecrets,
  sstpClients,
  sstpServer,
} from "./menus/ppp.ts";
import { ovpnServers, ovpnServerSettings } from "./menus/ovpn.ts";
import {
  ipsecActivePeers,
  ipsecIdentities,
  ipsecInstalledSas,
  ipsecModeConfigs,
  ipsecPeers,
  ipsecPolicies,
  ipsecProfiles,
  ipsecProposals,
} from "./menus/ipsec.ts";
import {
  ipv6DhcpBindings,
  ipv6DhcpClients,
  ipv6DhcpServers,
  ipv6Nd,
  ipv6NdPrefixes,
  ipv6Pools,
} from "./menus/ipv6.ts";
import { ipv6FirewallMangle, ipv6FirewallNat, ipv6FirewallRaw } from "./menus/ipv6_firewall.ts";
import {
  bfdConfigurations,
  bfdSessions,
  bgpAdvertisements,
  bgpConnections,
  bgpSessions,
  bgpTemplates,
  ospfAreas,
  ospfInstances,
  ospfInterfaceTemplates,
  ospfLsas,
  ospfNeighbors,
  routingFilterRules,
  routingTables,
  vrfs,
} from "./menus/dynamic_routing.ts";
import {
  certificates,
  containerConfig,
  containerEnvs,
  containerMounts,
  containers,
  hotspotActive,
  hotspotServers,
  hotspotUsers,
  loggingActions,
  loggingRules,
  radiusServers,
  scripts,
  userManagerRouters,
  userManagerUsers,
} from "./menus/platform.ts";
import {
  wifi,
  wifiAccessList,
  wifiRegistrations,
  wireless,
  wirelessAccessList,
  wirelessRegistrations,
  wirelessSecurityProfiles,
} from "./menus/wireless.ts";
import {
  capsManConfigurations,
  capsManInterfaces,
  capsManManager,
  capsManProvisioning,
  capsManRegistrations,
  capsManRemoteCaps,
  wifiCapsman,
  wifiConfigurations,
  wifiProvisioning,
  wifiRemoteCaps,
} from "./menus/capsman.ts";

/** Every declared menu. */
export const MENU_SCHEMAS: readonly MenuSchema[] = [
  logEntries,
  bridges,
  bridgePorts,
  bridgeVlans,
  dhcpServers,
  dhcpNetworks,
  dhcpLeases,
  dnsSettings,
  dnsStatic,
  dnsCache,
  files,
  firewallFilter,
  firewallNat,
  firewallMangle,
  firewallRaw,
  firewallAddressList,
  ipv6FirewallFilter,
  ipv6FirewallAddressList,
  interfaces,
  ethernet,
  vlans,
  poe,
  ipAddress,
  ipv6Address,
  ipPool,
  ipPoolUsed,
  simpleQueues,
  queueTree,
  queueTypes,
  ipRoutes,
  ipv6Routes,
  ipServices,
  netwatch,
  scheduler,
  neighbors,
  identity,
  clock,
  ntpClient,
  resource,
  routerboard,
  packages,
  health,
  users,
  userGroups,
  activeUsers,
  sshKeys,
  wireguard,
  wireguardPeers,
  wifi,
  wifiRegistrations,
  wifiAccessList,
  wireless,
  wirelessSecurityProfiles,
  wirelessRegistrations,
  wirelessAccessList,
  capsManManager,
  capsManConfigurations,
  capsManProvisioning,
  capsManRemoteCaps,
  capsManRegistrations,
  capsManInterfaces,
  wifiCapsman,
  wifiRemoteCaps,
  wifiConfigurations,
  wifiProvisioning,
  gre,
  eoip,
  ipip,
  vxlan,
  bonding,
  pppSecrets,
  pppProfiles,
  pppActive,
  l2tpServer,
  l2tpClients,
  sstpClients,
  ovpnClients,
  pppoeClients,
  ipsecProfiles,
  ipsecPeers,
  ipsecIdentities,
  ipsecProposals,
  ipsecPolicies,
  ipsecActivePeers,
  sstpServer,
  pppoeServers,
  ipsecInstalledSas,
  ipsecModeConfigs,
  ovpnServerSettings,
  ovpnServers,
  ipv6Pools,
  ipv6Nd,
  ipv6NdPrefixes,
  ipv6DhcpClients,
  ipv6DhcpServers,
  ipv6DhcpBindings,
  ipv6FirewallNat,
  ipv6FirewallMangle,
  ipv6FirewallRaw,
  routingTables,
  vrfs,
  routingFilterRules,
  ospfInstances,
  ospfAreas,
  ospfInterfaceTemplates,
  ospfNeighbors,
  ospfLsas,
  bgpTemplates,
  bgpConnections,
  bgpSessions,
  bgpAdvertisements,
  bfdConfigurations,
  bfdSessions,
  certificates,
  scripts,
  loggingActions,
  loggingRules,
  containers,
  containerConfig,
  containerEnvs,
  containerMounts,
  radiusServers,
  userManagerUsers,
  userManagerRouters,
  hotspotServers,
  hotspotUsers,
  hotspotActive,
  ...MANAGEMENT_MENUS,
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
