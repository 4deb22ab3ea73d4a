/**
 * The tool catalogue: every menu's tools, the tools beyond CRUD, and the
 * composites built over them. Built once per process from the families'
 * lists (schema menus and their tool presentations, each family one spread
 * line); which of them a server offers is its selection (toolsets,
 * read-only, raw commands). {@linkcode buildCatalogue} builds one from other
 * lists (a test adds a family of its own).
 *
 * @module
 */
import type { MenuSchema } from "../routeros/schema/menu.ts";
import { MENU_SCHEMAS } from "../routeros/schema/registry.ts";
import { applyChanges } from "./changes/apply.ts";
import { commitChanges, listPendingChanges, rollbackChanges } from "./changes/pending.ts";
import { importScript } from "./changes/import_script.ts";
import { listDevices } from "./fleet/devices.ts";
import { fleetQueryTool } from "./fleet/query.ts";
import { makeStaticLease } from "./dhcp/static_lease.ts";
import { dnsCacheStats, flushDnsCache, resolveDns } from "./dns/resolver.ts";
import { createBackup, exportTool, listBackups, readFile } from "./files/backup_export.ts";
import { downloadFile, uploadFile } from "./files/transfer.ts";
import { interfaceTraffic, poeMonitor } from "./interfaces/monitors.ts";
import { getLogs } from "./logs/logs.ts";
import { ping } from "./diagnostics/ping.ts";
import { printTool } from "./diagnostics/print.ts";
import { addBlackholeRoute, checkRoute, getDefaultRoute } from "./routing/routes.ts";
import { runCommand } from "./diagnostics/run_command.ts";
import { reboot, systemHealth } from "./system/reboot_health.ts";
import { traceroute } from "./diagnostics/traceroute.ts";
import { torch } from "./diagnostics/torch.ts";
import { sniffPackets } from "./diagnostics/sniffer.ts";
import { ipScan } from "./diagnostics/ip_scan.ts";
import { wakeOnLan } from "./diagnostics/wake_on_lan.ts";
import { bandwidthTest } from "./diagnostics/bandwidth_test.ts";
import { addUserSshKey, disconnectActiveUser } from "./users/accounts.ts";
import { wireguardClientConfig } from "./wireguard/client_config.ts";
import { menuTools } from "./menu_tools/menu_tools.ts";
import type { MenuTools } from "./menu_tools/spec.ts";
import { INTERFACES_MENU_TOOLS } from "./interfaces/menus.ts";
import { INTERFACE_LISTS_MENU_TOOLS } from "./interfaces/interface_lists.ts";
import { BRIDGE_MENU_TOOLS } from "./bridge/menus.ts";
import { IP_MENU_TOOLS } from "./ip/menus.ts";
import { DHCP_MENU_TOOLS } from "./dhcp/menus.ts";
import { DNS_MENU_TOOLS } from "./dns/menus.ts";
import { ROUTING_MENU_TOOLS } from "./routing/menus.ts";
import { FIREWALL_MENU_TOOLS } from "./firewall/menus.ts";
import { USERS_MENU_TOOLS } from "./users/menus.ts";
import { SYSTEM_MENU_TOOLS } from "./system/menus.ts";
import { SERVICES_MENU_TOOLS } from "./services/menus.ts";
import { QUEUES_MENU_TOOLS } from "./queues/menus.ts";
import { WIRELESS_MENU_TOOLS } from "./wireless/menus.ts";
import { CAPSMAN_MENU_TOOLS } from "./wireless/capsman.ts";
import { WIREGUARD_MENU_TOOLS } from "./wireguard/menus.ts";
import { FILES_MENU_TOOLS } from "./files/menus.ts";
import { TUNNELS_MENU_TOOLS } from "./tunnels/menus.ts";
import { VPN_MENU_TOOLS } from "./vpn/menus.ts";
import { IPV6_MENU_TOOLS } from "./ipv6/menus.ts";
import { IPV6_FIREWALL_MENU_TOOLS } from "./firewall/ipv6_menus.ts";
import { DYNAMIC_ROUTING_MENU_TOOLS } from "./dynamic_routing/menus.ts";
import { PLATFORM_MENU_TOOLS } from "./platform/menus.ts";
import { VRRP_MENU_TOOLS } from "./interfaces/vrrp.ts";
import { SNMP_MENU_TOOLS } from "./services/snmp.ts";
import { ARP_MENU_TOOLS } from "./ip/arp.ts";
import { ROMON_MENU_TOOLS } from "./services/romon.ts";
import { TRAFFIC_FLOW_MENU_TOOLS } from "./services/traffic_flow.ts";
import { runScript } from "./platform/scripts.ts";
import { ipsecStatus } from "./vpn/ipsec_status.ts";
import { exportCertificate, importCertificate, signCertificate } from "./platform/certificates.ts";
import { startContainer, stopContainer } from "./platform/containers.ts";
import type { ToolDef } from "./tool.ts";
import { disableToolsets, enableToolsets, listToolsets } from "./fleet/toolsets.ts";
import { OPERATIONS } from "./operations/mod.ts";
import { INSIGHT } from "./insight/mod.ts";

/** Every menu's tool presentation, in catalogue order. */
export const MENU_TOOLS: readonly MenuTools[] = [
  ...INTERFACES_MENU_TOOLS,
  ...INTERFACE_LISTS_MENU_TOOLS,
  ...BRIDGE_MENU_TOOLS,
  ...IP_MENU_TOOLS,
  ...DHCP_MENU_TOOLS,
  ...DNS_MENU_TOOLS,
  ...ROUTING_MENU_TOOLS,
  ...FIREWALL_MENU_TOOLS,
  ...USERS_MENU_TOOLS,
  ...SYSTEM_MENU_TOOLS,
  ...SERVICES_MENU_TOOLS,
  ...QUEUES_MENU_TOOLS,
  ...WIRELESS_MENU_TOOLS,
  ...CAPSMAN_MENU_TOOLS,
  ...WIREGUARD_MENU_TOOLS,
  ...FILES_MENU_TOOLS,
  ...TUNNELS_MENU_TOOLS,
  ...VPN_MENU_TOOLS,
  ...IPV6_MENU_TOOLS,
  ...IPV6_FIREWALL_MENU_TOOLS,
  ...DYNAMIC_ROUTING_MENU_TOOLS,
  ...PLATFORM_MENU_TOOLS,
  ...VRRP_MENU_TOOLS,
  ...SNMP_MENU_TOOLS,
  ...ARP_MENU_TOOLS,
  ...ROMON_MENU_TOOLS,
  ...TRAFFIC_FLOW_MENU_TOOLS,
];

/**
 * The tools beyond plain CRUD (each written by hand in its toolset's
 * directory), over these schema menus, in a stable order.
 */
function beyondCrud(schemas: readonly MenuSchema[]): ToolDef[] {
  return [
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
    exportTool(schemas),
    readFile,
    uploadFile,
    downloadFile,
    getLogs,
    wireguardClientConfig,
    ping,
    traceroute,
    torch,
    sniffPackets,
    ipScan,
    wakeOnLan,
    bandwidthTest,
    printTool(schemas),
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
}

/** Discovery tools for sessions that start with a subset of toolsets. */
export const DISCOVERY: readonly ToolDef[] = [listToolsets, enableToolsets, disableToolsets];

/** What a catalogue is built from: every family's schema menus and tool presentations. */
export interface Families {
  schemas: readonly MenuSchema[];
  menus: readonly MenuTools[];
}

/**
 * A catalogue of these families: the device list, the menus' tools, the
 * tools beyond CRUD (`router_print` and `router_export_config` over the
 * schema menus), then the composites (fleet queries over the reads,
 * confirm-or-revert changes) and the discovery tools.
 */
export function buildCatalogue(families: Families): readonly ToolDef[] {
  const base = [
    listDevices,
    ...families.menus.flatMap(menuTools),
    ...beyondCrud(families.schemas),
  ];
  return [
    ...base,
    fleetQueryTool(base),
    applyChanges,
    importScript,
    commitChanges,
    rollbackChanges,
    listPendingChanges,
    ...DISCOVERY,
  ];
}

let built: readonly ToolDef[] | undefined;

/** The product's catalogue, built once per process and shared by every session. */
export function catalogue(): readonly ToolDef[] {
  return built ??= buildCatalogue({ schemas: MENU_SCHEMAS, menus: MENU_TOOLS });
}
