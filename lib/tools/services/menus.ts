/**
 * Tools of the services menus and of the management access settings (MAC
 * server, neighbour discovery, bandwidth test server, proxies, UPnP, IP
 * Cloud, SSH server): toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/services.ts and
 * management.ts; the security audit (`router_audit_security`) suggests the
 * management settings' tools as fixes.
 *
 * @module
 */
import {
  ipServices,
  neighbors,
  netwatch,
  scheduler,
} from "../../routeros/schema/menus/services.ts";
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
  webProxy,
} from "../../routeros/schema/menus/management.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { eitherRule, sshServer as sshServerLockout, sshService } from "../guard/lockout.ts";
import { sshLogins } from "../guard/lockout_ssh_login.ts";

/** `/ip/service`. */
const ipServicesTools: MenuTools = {
  schema: ipServices,
  toolset: "services",
  noun: noun("ip_service", "IP management service"),
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "port", "address", "certificate", "disabled"],
  notes:
    "Services: telnet, ftp, www, ssh, www-ssl, api, winbox, api-ssl. They cannot be added or removed. address limits who may connect. Disabling ssh or changing its port or address cuts this server's own access.",
  example: { "target": { "name": "telnet" }, "update": { "address": ["192.168.88.0/24"] } },
  lockout: sshService,
};

/** `/tool/netwatch`. */
const netwatchTools: MenuTools = {
  schema: netwatch,
  writeRole: "admin",
  toolset: "services",
  noun: noun("netwatch", "netwatch host monitor"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["host", "interval", "status", "since", "disabled", "comment"],
  notes:
    "Each entry probes a host every interval and runs up_script or down_script (RouterOS script text, run with the rights of the netwatch) when the state changes. Times are RouterOS durations such as 10s or 1m.",
  example: {
    "add": { "host": "10.99.5.1", "interval": "30s", "comment": "example" },
    "update": { "interval": "1m" },
  },
};

/** `/system/scheduler`. */
const schedulerTools: MenuTools = {
  schema: scheduler,
  writeRole: "admin",
  toolset: "services",
  noun: noun("scheduled_task", "scheduled task"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "start-time", "interval", "next-run", "run-count", "disabled", "comment"],
  notes:
    "on_event is RouterOS script text (or a /system script name) run with the rights in policy. start_time is HH:MM:SS or startup; interval 0s means run once.",
  example: {
    "add": {
      "name": "example-task",
      "interval": "1d",
      "on_event": ':log info "example"',
      "comment": "example",
    },
    "update": { "interval": "12h" },
  },
};

/** `/ip/neighbor`. */
const neighborsTools: MenuTools = {
  schema: neighbors,
  toolset: "services",
  noun: noun("neighbor", "discovered neighbour"),
  verbs: ["list"],
  columns: ["interface", "address", "mac-address", "identity", "platform", "version"],
  notes:
    "Read-only: devices on directly connected segments that announce themselves (MikroTik MNDP, CDP, LLDP).",
};

const LISTS =
  "An interface list name: LAN limits it to the inside (the default configuration's choice), none turns it off.";

/** `/tool/mac-server`. */
const macServerTools: MenuTools = {
  schema: macServer,
  toolset: "services",
  noun: noun("mac_server", "MAC server (MAC-Telnet)"),
  verbs: ["get", "update"],
  columns: ["allowed-interface-list"],
  notes: `Layer-2 console access by MAC address. ${LISTS}`,
  example: { update: { allowed_interface_list: "LAN" } },
};

/** `/tool/mac-server/mac-winbox`. */
const macWinboxTools: MenuTools = {
  schema: macWinbox,
  toolset: "services",
  noun: noun("mac_winbox_server", "MAC WinBox server"),
  verbs: ["get", "update"],
  columns: ["allowed-interface-list"],
  notes: `WinBox by MAC address. ${LISTS}`,
  example: { update: { allowed_interface_list: "LAN" } },
};

/** `/tool/mac-server/ping`. */
const macPingTools: MenuTools = {
  schema: macPing,
  toolset: "services",
  noun: noun("mac_ping_server", "MAC ping server"),
  verbs: ["get", "update"],
  columns: ["enabled"],
  example: { update: { enabled: false } },
};

/** `/ip/neighbor/discovery-settings`. */
const neighborDiscoveryTools: MenuTools = {
  schema: neighborDiscovery,
  toolset: "services",
  noun: noun("neighbor_discovery", "neighbour discovery"),
  verbs: ["get", "update"],
  columns: ["discover-interface-list", "protocol", "mode"],
  notes: `MNDP/LLDP/CDP announcements (what router_list_neighbors and the topology read). ${LISTS}`,
  example: { update: { discover_interface_list: "LAN" } },
};

/** `/tool/bandwidth-server`. */
const bandwidthServerTools: MenuTools = {
  schema: bandwidthServer,
  toolset: "services",
  noun: noun("bandwidth_server", "bandwidth test server"),
  verbs: ["get", "update"],
  columns: ["enabled", "authenticate"],
  // On, with logins: how a bandwidth test server is run (router_bandwidth_test needs one).
  example: { update: { enabled: true, authenticate: true } },
};

/** `/ip/proxy`. */
const webProxyTools: MenuTools = {
  schema: webProxy,
  toolset: "services",
  noun: noun("web_proxy", "web proxy"),
  verbs: ["get", "update"],
  columns: ["enabled", "port"],
  notes: "An enabled proxy reachable from the internet is an open proxy: firewall it first.",
  example: { update: { enabled: false } },
};

/** `/ip/socks`. */
const socksProxyTools: MenuTools = {
  schema: socksProxy,
  toolset: "services",
  noun: noun("socks_proxy", "SOCKS proxy"),
  verbs: ["get", "update"],
  columns: ["enabled", "port", "version", "auth-method"],
  notes: "An enabled proxy reachable from the internet is an open proxy: firewall it first.",
  example: { update: { enabled: false } },
};

/** `/ip/upnp`. */
const upnpTools: MenuTools = {
  schema: upnp,
  toolset: "services",
  noun: noun("upnp", "UPnP"),
  verbs: ["get", "update"],
  columns: ["enabled"],
  notes: "UPnP lets any LAN host open port forwards from the internet to itself.",
  example: { update: { enabled: false } },
};

/** `/ip/cloud`. */
const ipCloudTools: MenuTools = {
  schema: ipCloud,
  toolset: "services",
  noun: noun("ip_cloud", "IP Cloud (DDNS)"),
  verbs: ["get", "update"],
  columns: ["ddns-enabled", "update-time"],
  example: { update: { ddns_enabled: false } },
};

/** `/ip/ssh`. */
const sshServerTools: MenuTools = {
  schema: sshServer,
  toolset: "services",
  noun: noun("ssh_server", "SSH server"),
  verbs: ["get", "update"],
  columns: ["strong-crypto", "host-key-type", "host-key-size"],
  notes:
    "This server logs in over SSH: a setting its client cannot meet cuts it off (strong_crypto is safe for it). Ciphers it cannot use, password logins ended while it logs in with a password, a new host key (host_key_type, host_key_size) and forwarding turned off on a bastion of other devices need confirm.",
  example: { update: { strong_crypto: true } },
  lockout: eitherRule(sshServerLockout, sshLogins),
};

/** The menus of this family, in catalogue order. */
export const SERVICES_MENU_TOOLS: readonly MenuTools[] = [
  ipServicesTools,
  netwatchTools,
  schedulerTools,
  neighborsTools,
  macServerTools,
  macWinboxTools,
  macPingTools,
  neighborDiscoveryTools,
  bandwidthServerTools,
  webProxyTools,
  socksProxyTools,
  upnpTools,
  ipCloudTools,
  sshServerTools,
];
