/**
 * Tools of the management access settings (MAC server, neighbour
 * discovery, bandwidth test server, proxies, UPnP, IP Cloud, SSH server,
 * password policy): toolset, nouns, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/management.ts; the
 * security audit (`router_audit_security`) suggests these tools as fixes.
 *
 * @module
 */
import {
  bandwidthServer,
  ipCloud,
  macPing,
  macServer,
  macWinbox,
  neighborDiscovery,
  socksProxy,
  sshServer,
  upnp,
  userSettings,
  webProxy,
} from "../../routeros/schema/menus/management.ts";
import type { MenuTools, Noun } from "../menu_tools/spec.ts";

/** A settings menu's noun: one name, one stem. */
function settingsNoun(one: string, stem: string): Noun {
  return { one, many: `${one} settings`, stem, stems: stem };
}

/** The nouns of these menus, by stem (`NOUNS` of nouns.ts includes them). */
export const MANAGEMENT_NOUNS = {
  mac_server: settingsNoun("MAC server (MAC-Telnet)", "mac_server"),
  mac_winbox_server: settingsNoun("MAC WinBox server", "mac_winbox_server"),
  mac_ping_server: settingsNoun("MAC ping server", "mac_ping_server"),
  neighbor_discovery: settingsNoun("neighbour discovery", "neighbor_discovery"),
  bandwidth_server: settingsNoun("bandwidth test server", "bandwidth_server"),
  web_proxy: settingsNoun("web proxy", "web_proxy"),
  socks_proxy: settingsNoun("SOCKS proxy", "socks_proxy"),
  upnp: settingsNoun("UPnP", "upnp"),
  ip_cloud: settingsNoun("IP Cloud (DDNS)", "ip_cloud"),
  ssh_server: settingsNoun("SSH server", "ssh_server"),
  user_settings: settingsNoun("password policy", "user_settings"),
};

const LISTS =
  "An interface list name: LAN limits it to the inside (the default configuration's choice), none turns it off.";

/** The management access settings menus' tools, in catalogue order. */
export const MANAGEMENT_TOOLS: readonly MenuTools[] = [
  {
    schema: macServer,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.mac_server,
    verbs: ["get", "update"],
    columns: ["allowed-interface-list"],
    notes: `Layer-2 console access by MAC address. ${LISTS}`,
    example: { update: { allowed_interface_list: "LAN" } },
  },
  {
    schema: macWinbox,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.mac_winbox_server,
    verbs: ["get", "update"],
    columns: ["allowed-interface-list"],
    notes: `WinBox by MAC address. ${LISTS}`,
    example: { update: { allowed_interface_list: "LAN" } },
  },
  {
    schema: macPing,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.mac_ping_server,
    verbs: ["get", "update"],
    columns: ["enabled"],
    example: { update: { enabled: false } },
  },
  {
    schema: neighborDiscovery,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.neighbor_discovery,
    verbs: ["get", "update"],
    columns: ["discover-interface-list", "protocol", "mode"],
    notes:
      `MNDP/LLDP/CDP announcements (what router_list_neighbors and the topology read). ${LISTS}`,
    example: { update: { discover_interface_list: "LAN" } },
  },
  {
    schema: bandwidthServer,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.bandwidth_server,
    verbs: ["get", "update"],
    columns: ["enabled", "authenticate"],
    example: { update: { enabled: false } },
  },
  {
    schema: webProxy,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.web_proxy,
    verbs: ["get", "update"],
    columns: ["enabled", "port"],
    notes: "An enabled proxy reachable from the internet is an open proxy: firewall it first.",
    example: { update: { enabled: false } },
  },
  {
    schema: socksProxy,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.socks_proxy,
    verbs: ["get", "update"],
    columns: ["enabled", "port", "version", "auth-method"],
    notes: "An enabled proxy reachable from the internet is an open proxy: firewall it first.",
    example: { update: { enabled: false } },
  },
  {
    schema: upnp,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.upnp,
    verbs: ["get", "update"],
    columns: ["enabled"],
    notes: "UPnP lets any LAN host open port forwards from the internet to itself.",
    example: { update: { enabled: false } },
  },
  {
    schema: ipCloud,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.ip_cloud,
    verbs: ["get", "update"],
    columns: ["ddns-enabled", "update-time"],
    example: { update: { ddns_enabled: false } },
  },
  {
    schema: sshServer,
    toolset: "services",
    noun: MANAGEMENT_NOUNS.ssh_server,
    verbs: ["get", "update"],
    columns: ["strong-crypto", "host-key-type", "host-key-size"],
    notes:
      "This server logs in over SSH: a setting its client cannot meet cuts it off (strong_crypto is safe for it).",
    example: { update: { strong_crypto: true } },
  },
  {
    schema: userSettings,
    toolset: "users",
    noun: MANAGEMENT_NOUNS.user_settings,
    verbs: ["get", "update"],
    columns: ["minimum-password-length", "minimum-categories"],
    notes: "RouterOS 7. Applies to passwords set from now on; existing ones are not checked.",
    example: { update: { minimum_password_length: 12 } },
  },
];
