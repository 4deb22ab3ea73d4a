/**
 * The tool catalogue: every menu's tools, the hand-written tools, and the
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
import { INTERFACES_MENU_TOOLS } from "./menus/interfaces.ts";
import { BRIDGE_MENU_TOOLS } from "./menus/bridge.ts";
import { IP_MENU_TOOLS } from "./menus/ip.ts";
import { DHCP_MENU_TOOLS } from "./menus/dhcp.ts";
import { DNS_MENU_TOOLS } from "./menus/dns.ts";
import { ROUTING_MENU_TOOLS } from "./menus/routing.ts";
import { FIREWALL_MENU_TOOLS } from "./menus/firewall.ts";
import { USERS_MENU_TOOLS } from "./menus/users.ts";
import { SYSTEM_MENU_TOOLS } from "./menus/system.ts";
import { SERVICES_MENU_TOOLS } from "./menus/services.ts";
import { QUEUES_MENU_TOOLS } from "./menus/queues.ts";
import { WIRELESS_MENU_TOOLS } from "./menus/wireless.ts";
import { CAPSMAN_MENU_TOOLS } from "./menus/capsman.ts";
import { WIREGUARD_MENU_TOOLS } from "./menus/wireguard.ts";
import { FILES_MENU_TOOLS } from "./menus/files.ts";
import { TUNNELS_MENU_TOOLS } from "./menus/tunnels.ts";
import { VPN_MENU_TOOLS } from "./menus/vpn.ts";
import { IPV6_MENU_TOOLS } from "./menus/ipv6.ts";
import { DYNAMIC_ROUTING_MENU_TOOLS } from "./menus/dynamic_routing.ts";
import { PLATFORM_MENU_TOOLS } from "./menus/platform.ts";
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

/** Every menu's tool presentation, in catalogue order. */
export const MENU_TOOLS: readonly MenuTools[] = [
  ...INTERFACES_MENU_TOOLS,
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
  ...DYNAMIC_ROUTING_MENU_TOOLS,
  ...PLATFORM_MENU_TOOLS,
];

/** The hand-written tools (what is not plain CRUD) over these schema menus, in a stable order. */
function handwritten(schemas: readonly MenuSchema[]): ToolDef[] {
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
 * hand-written ones (`router_print` and `router_export_config` over the
 * schema menus), then the composites (fleet queries over the reads,
 * confirm-or-revert changes) and the discovery tools.
 */
export function buildCatalogue(families: Families): readonly ToolDef[] {
  const base = [
    listDevices,
    ...families.menus.flatMap(menuTools),
    ...handwritten(families.schemas),
  ];
  return [
    ...base,
    fleetQueryTool(base),
    applyChanges,
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
