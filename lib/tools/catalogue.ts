/**
 * The tool catalogue: every menu's tools, the hand-written tools, and the
 * composites built over them. Built once per process; which of them a
 * server offers is its selection (toolsets, read-only, raw commands).
 *
 * @module
 */
import { MENU_SCHEMAS } from "../routeros/schema/registry.ts";
import { applyChanges } from "./changes/apply.ts";
import { commitChanges, listPendingChanges, rollbackChanges } from "./changes/pending.ts";
import { importScript } from "./changes/import_script.ts";
import { listDevices } from "./devices_tool.ts";
import { fleetQueryTool } from "./fleet_query.ts";
import { makeStaticLease } from "./handwritten/dhcp.ts";
import { dnsCacheStats, flushDnsCache, resolveDns } from "./handwritten/dns.ts";
import { createBackup, exportTool, listBackups, readFile } from "./handwritten/files.ts";
import { downloadFile, uploadFile } from "./handwritten/file_transfer.ts";
import { interfaceTraffic, poeMonitor } from "./handwritten/interfaces.ts";
import { getLogs } from "./handwritten/logs.ts";
import { ping } from "./handwritten/ping.ts";
import { printTool } from "./handwritten/print.ts";
import { addBlackholeRoute, checkRoute, getDefaultRoute } from "./handwritten/routing.ts";
import { runCommand } from "./handwritten/run_command.ts";
import { reboot, systemHealth } from "./handwritten/system.ts";
import { traceroute } from "./handwritten/traceroute.ts";
import { addUserSshKey, disconnectActiveUser } from "./handwritten/users.ts";
import { wireguardClientConfig } from "./handwritten/wireguard.ts";
import { menuTools } from "./menu_tools/menu_tools.ts";
import type { MenuTools } from "./menu_tools/spec.ts";
import { ethernetTools, interfacesTools, poeTools, vlansTools } from "./menus/interfaces.ts";
import { bridgePortsTools, bridgesTools, bridgeVlansTools } from "./menus/bridge.ts";
import { ipAddressTools, ipPoolTools, ipPoolUsedTools, ipv6AddressTools } from "./menus/ip.ts";
import { dhcpLeasesTools, dhcpNetworksTools, dhcpServersTools } from "./menus/dhcp.ts";
import { dnsCacheTools, dnsSettingsTools, dnsStaticTools } from "./menus/dns.ts";
import { ipRoutesTools, ipv6RoutesTools } from "./menus/routing.ts";
import {
  firewallAddressListTools,
  firewallFilterTools,
  firewallMangleTools,
  firewallNatTools,
  firewallRawTools,
  ipv6FirewallAddressListTools,
  ipv6FirewallFilterTools,
} from "./menus/firewall.ts";
import { activeUsersTools, sshKeysTools, userGroupsTools, usersTools } from "./menus/users.ts";
import {
  clockTools,
  healthTools,
  identityTools,
  ntpClientTools,
  packagesTools,
  resourceTools,
  routerboardTools,
} from "./menus/system.ts";
import {
  ipServicesTools,
  neighborsTools,
  netwatchTools,
  schedulerTools,
} from "./menus/services.ts";
import { MANAGEMENT_TOOLS } from "./menus/management.ts";
import { queueTreeTools, queueTypesTools, simpleQueuesTools } from "./menus/queues.ts";
import {
  wifiAccessListTools,
  wifiRegistrationsTools,
  wifiTools,
  wirelessAccessListTools,
  wirelessRegistrationsTools,
  wirelessSecurityProfilesTools,
  wirelessTools,
} from "./menus/wireless.ts";
import {
  capsManConfigurationsTools,
  capsManInterfacesTools,
  capsManManagerTools,
  capsManProvisioningTools,
  capsManRegistrationsTools,
  capsManRemoteCapsTools,
  wifiCapsmanTools,
  wifiConfigurationsTools,
  wifiProvisioningTools,
  wifiRemoteCapsTools,
} from "./menus/capsman.ts";
import { wireguardPeersTools, wireguardTools } from "./menus/wireguard.ts";
import { filesTools } from "./menus/files.ts";
import { bondingTools, eoipTools, greTools, ipipTools, vxlanTools } from "./menus/tunnels.ts";
import {
  l2tpClientsTools,
  l2tpServerTools,
  ovpnClientsTools,
  ovpnServerSettingsTools,
  ovpnServersTools,
  pppAaaTools,
  pppActiveTools,
  pppoeClientsTools,
  pppoeServersTools,
  pppProfilesTools,
  pppSecretsTools,
  sstpClientsTools,
  sstpServerTools,
} from "./menus/vpn.ts";
import {
  ipsecActivePeersTools,
  ipsecIdentitiesTools,
  ipsecInstalledSasTools,
  ipsecModeConfigsTools,
  ipsecPeersTools,
  ipsecPoliciesTools,
  ipsecProfilesTools,
  ipsecProposalsTools,
} from "./menus/ipsec.ts";
import {
  ipv6DhcpBindingsTools,
  ipv6DhcpClientsTools,
  ipv6DhcpServersTools,
  ipv6FirewallMangleTools,
  ipv6FirewallNatTools,
  ipv6FirewallRawTools,
  ipv6NdPrefixesTools,
  ipv6NdTools,
  ipv6PoolsTools,
} from "./menus/ipv6.ts";
import {
  bfdConfigurationsTools,
  bfdSessionsTools,
  bgpAdvertisementsTools,
  bgpConnectionsTools,
  bgpSessionsTools,
  bgpTemplatesTools,
  ospfAreasTools,
  ospfInstancesTools,
  ospfInterfaceTemplatesTools,
  ospfLsasTools,
  ospfNeighborsTools,
  routingFilterRulesTools,
  routingTablesTools,
  vrfsTools,
} from "./menus/dynamic_routing.ts";
import {
  certificatesTools,
  containerConfigTools,
  containerEnvsTools,
  containerMountsTools,
  containersTools,
  hotspotActiveTools,
  hotspotServersTools,
  hotspotUsersTools,
  loggingActionsTools,
  loggingRulesTools,
  radiusServersTools,
  scriptsTools,
  userManagerRoutersTools,
  userManagerUsersTools,
} from "./menus/platform.ts";
import { runScript } from "./handwritten/scripts.ts";
import { ipsecStatus } from "./handwritten/ipsec.ts";
import {
  exportCertificate,
  importCertificate,
  signCertificate,
} from "./handwritten/certificates.ts";
import { startContainer, stopContainer } from "./handwritten/containers.ts";
import type { ToolDef } from "./tool.ts";
import { disableToolsets, enableToolsets, listToolsets } from "./toolsets.ts";
import { OPERATIONS } from "./operations/mod.ts";
import { INSIGHT } from "./insight/mod.ts";

/** Every menu's tool presentation, in catalogue order. */
export const MENU_TOOLS: readonly MenuTools[] = [
  interfacesTools,
  ethernetTools,
  vlansTools,
  poeTools,
  bridgesTools,
  bridgePortsTools,
  bridgeVlansTools,
  ipAddressTools,
  ipv6AddressTools,
  ipPoolTools,
  ipPoolUsedTools,
  dhcpServersTools,
  dhcpNetworksTools,
  dhcpLeasesTools,
  dnsSettingsTools,
  dnsStaticTools,
  dnsCacheTools,
  ipRoutesTools,
  ipv6RoutesTools,
  firewallFilterTools,
  firewallNatTools,
  firewallMangleTools,
  firewallRawTools,
  firewallAddressListTools,
  ipv6FirewallFilterTools,
  ipv6FirewallAddressListTools,
  usersTools,
  userGroupsTools,
  activeUsersTools,
  sshKeysTools,
  identityTools,
  clockTools,
  ntpClientTools,
  resourceTools,
  routerboardTools,
  packagesTools,
  healthTools,
  ipServicesTools,
  netwatchTools,
  schedulerTools,
  neighborsTools,
  ...MANAGEMENT_TOOLS,
  simpleQueuesTools,
  queueTreeTools,
  queueTypesTools,
  wifiTools,
  wifiRegistrationsTools,
  wifiAccessListTools,
  wirelessTools,
  wirelessSecurityProfilesTools,
  wirelessRegistrationsTools,
  wirelessAccessListTools,
  capsManManagerTools,
  capsManConfigurationsTools,
  capsManProvisioningTools,
  capsManRemoteCapsTools,
  capsManRegistrationsTools,
  capsManInterfacesTools,
  wifiCapsmanTools,
  wifiRemoteCapsTools,
  wifiConfigurationsTools,
  wifiProvisioningTools,
  wireguardTools,
  wireguardPeersTools,
  filesTools,
  greTools,
  eoipTools,
  ipipTools,
  vxlanTools,
  bondingTools,
  pppSecretsTools,
  pppProfilesTools,
  pppActiveTools,
  l2tpServerTools,
  l2tpClientsTools,
  sstpClientsTools,
  ovpnClientsTools,
  pppoeClientsTools,
  ipsecProfilesTools,
  ipsecPeersTools,
  ipsecIdentitiesTools,
  ipsecProposalsTools,
  ipsecPoliciesTools,
  ipsecModeConfigsTools,
  ipsecActivePeersTools,
  ipsecInstalledSasTools,
  sstpServerTools,
  ovpnServerSettingsTools,
  ovpnServersTools,
  pppoeServersTools,
  pppAaaTools,
  ipv6PoolsTools,
  ipv6NdTools,
  ipv6NdPrefixesTools,
  ipv6DhcpClientsTools,
  ipv6DhcpServersTools,
  ipv6DhcpBindingsTools,
  ipv6FirewallNatTools,
  ipv6FirewallMangleTools,
  ipv6FirewallRawTools,
  routingTablesTools,
  vrfsTools,
  routingFilterRulesTools,
  ospfInstancesTools,
  ospfAreasTools,
  ospfInterfaceTemplatesTools,
  ospfNeighborsTools,
  ospfLsasTools,
  bgpTemplatesTools,
  bgpConnectionsTools,
  bgpSessionsTools,
  bgpAdvertisementsTools,
  bfdConfigurationsTools,
  bfdSessionsTools,
  certificatesTools,
  scriptsTools,
  loggingActionsTools,
  loggingRulesTools,
  containersTools,
  containerConfigTools,
  containerEnvsTools,
  containerMountsTools,
  radiusServersTools,
  userManagerUsersTools,
  userManagerRoutersTools,
  hotspotServersTools,
  hotspotUsersTools,
  hotspotActiveTools,
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
  exportTool(MENU_SCHEMAS),
  readFile,
  uploadFile,
  downloadFile,
  getLogs,
  wireguardClientConfig,
  ping,
  traceroute,
  printTool(MENU_SCHEMAS),
  runCommand,
  runScript,
  ipsecStatus,
  signCertificate,
  exportCertificate,
  importCertificate,
  startContainer,
  stopContainer,
  ...OPERATIONS,
  ...INSIGHT,
];

/** Discovery tools for sessions that start with a subset of toolsets. */
export const DISCOVERY: readonly ToolDef[] = [listToolsets, enableToolsets, disableToolsets];

let built: readonly ToolDef[] | undefined;

/**
 * Every tool of the product, built once per process and shared by every
 * session: the device list, the menus' tools, the hand-written ones, then
 * the composites (fleet queries over the reads, confirm-or-revert changes).
 */
export function catalogue(): readonly ToolDef[] {
  if (built) return built;
  const base = [listDevices, ...MENU_TOOLS.flatMap(menuTools), ...HANDWRITTEN];
  built = [
    ...base,
    fleetQueryTool(base),
    applyChanges,
    importScript,
    commitChanges,
    rollbackChanges,
    listPendingChanges,
    ...DISCOVERY,
  ];
  return built;
}
