/**
 * The tool catalogue: every menu declaration plus the hand-written tools.
 *
 * @module
 */
import { changeTools } from "./changes/tools.ts";
import { listDevices } from "./devices_tool.ts";
import { fleetQueryTool } from "./fleet_query.ts";
import { toolErrorMessage } from "./tool_errors.ts";
import { menuTools } from "./engine.ts";
import type { Menu } from "./menu.ts";
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
import { ipAddress, ipPool, ipPoolUsed, ipv6Address } from "./menus/ip.ts";
import { queueTree, queueTypes, simpleQueues } from "./menus/queues.ts";
import { ipRoutes, ipv6Routes } from "./menus/routing.ts";
import { ipServices, neighbors, netwatch, scheduler } from "./menus/services.ts";
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
import {
  wifi,
  wifiAccessList,
  wifiRegistrations,
  wireless,
  wirelessAccessList,
  wirelessRegistrations,
  wirelessSecurityProfiles,
} from "./menus/wireless.ts";
import type { ToolDef } from "./tool.ts";
import { makeStaticLease } from "./handwritten/dhcp.ts";
import {
  ping,
  PRINT_EXTRAS,
  printTool,
  runCommand,
  traceroute,
} from "./handwritten/diagnostics.ts";
import { dnsCacheStats, flushDnsCache, resolveDns } from "./handwritten/dns.ts";
import {
  createBackup,
  exportTool,
  listBackups,
  readFile,
  uploadFile,
} from "./handwritten/files.ts";
import { interfaceTraffic, poeMonitor } from "./handwritten/interfaces.ts";
import { getLogs } from "./handwritten/logs.ts";
import { addBlackholeRoute, checkRoute, getDefaultRoute } from "./handwritten/routing.ts";
import { reboot, systemHealth } from "./handwritten/system.ts";
import { addUserSshKey, disconnectActiveUser } from "./handwritten/users.ts";
import { wireguardClientConfig } from "./handwritten/wireguard.ts";

/** Every declared menu. */
export const MENUS: readonly Menu[] = [
  // interfaces
  interfaces,
  ethernet,
  vlans,
  poe,
  // bridge
  bridges,
  bridgePorts,
  bridgeVlans,
  // ip
  ipAddress,
  ipv6Address,
  ipPool,
  ipPoolUsed,
  // dhcp
  dhcpServers,
  dhcpNetworks,
  dhcpLeases,
  // dns
  dnsSettings,
  dnsStatic,
  dnsCache,
  // routing
  ipRoutes,
  ipv6Routes,
  // firewall
  firewallFilter,
  firewallNat,
  firewallMangle,
  firewallRaw,
  firewallAddressList,
  ipv6FirewallFilter,
  ipv6FirewallAddressList,
  // users
  users,
  userGroups,
  activeUsers,
  sshKeys,
  // system
  identity,
  clock,
  ntpClient,
  resource,
  routerboard,
  packages,
  health,
  // services
  ipServices,
  netwatch,
  scheduler,
  neighbors,
  // queues
  simpleQueues,
  queueTree,
  queueTypes,
  // wireless
  wifi,
  wifiRegistrations,
  wifiAccessList,
  wireless,
  wirelessSecurityProfiles,
  wirelessRegistrations,
  wirelessAccessList,
  // wireguard
  wireguard,
  wireguardPeers,
  // files
  files,
];

/** The hand-written tools (what is not plain CRUD), in a stable order. */
export const HANDWRITTEN: readonly ToolDef[] = [
  interfaceTraffic,
  poeMonitor,
  makeStaticLease,
  dnsCacheStats,
  flushDnsCache,
  resolveDns,
  getDefaultRoute,
  addBlackholeRoute,
  checkRoute,
  disconnectActiveUser,
  addUserSshKey,
  reboot,
  systemHealth,
  createBackup,
  listBackups,
  exportTool(MENUS, PRINT_EXTRAS.map((e) => e.path)),
  readFile,
  uploadFile,
  getLogs,
  wireguardClientConfig,
  ping,
  traceroute,
  printTool(MENUS),
];

/** Catalogue switches. */
export interface CatalogueOptions {
  /** Include `router_run_command` (raw commands). */
  allowRawCommands?: boolean;
}

/**
 * Every tool of the catalogue, in a stable order: the device list, the
 * menus' tools, the hand-written ones, then the tools built over them (fleet
 * queries over the reads, confirm-or-revert changes over the menu writes).
 */
export function catalogue(options: CatalogueOptions = {}): ToolDef[] {
  const base = [
    listDevices,
    ...MENUS.flatMap(menuTools),
    ...HANDWRITTEN,
    ...(options.allowRawCommands ? [runCommand] : []),
  ];
  return [...base, fleetQueryTool(base, toolErrorMessage), ...changeTools(base)];
}
