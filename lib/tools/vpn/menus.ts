/**
 * Tools of the PPP menus (secrets, profiles, sessions, the L2TP server and
 * the PPP client interfaces): toolset, names, verbs, columns, notes and
 * examples. The RouterOS facts are in lib/routeros/schema/menus/ppp.ts.
 *
 * @module
 */
import {
  l2tpClients,
  l2tpServer,
  ovpnClients,
  pppAaa,
  pppActive,
  pppoeClients,
  pppoeServers,
  pppProfiles,
  pppSecrets,
  sstpClients,
  sstpServer,
} from "../../routeros/schema/menus/ppp.ts";
import { ovpnServers, ovpnServerSettings } from "../../routeros/schema/menus/ovpn.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { IPSEC_MENU_TOOLS } from "./ipsec_menus.ts";

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;
const CLIENT_COLUMNS = ["name", "connect-to", "user", "profile", "running", "disabled", "comment"];
const CLIENT =
  "The password is write-only (masked in output). add_default_route sends all traffic through the tunnel once it is up.";

/** `/ppp/secret`. */
const pppSecretsTools: MenuTools = {
  schema: pppSecrets,
  toolset: "vpn",
  noun: noun("ppp_secret", "PPP secret (VPN user)", { many: "PPP secrets (VPN users)" }),
  verbs: VERBS,
  columns: ["name", "service", "profile", "local-address", "remote-address", "disabled", "comment"],
  notes:
    "Users of the router's PPP servers (L2TP, SSTP, OpenVPN, PPPoE, PPTP); service limits one to a server. The password is write-only: masked in all output. Addresses here override the profile's.",
  example: {
    "add": {
      "name": "vpn-example",
      "password": "Example-Pa55",
      "service": "l2tp",
      "profile": "default-encryption",
      "comment": "example",
    },
    "update": { "remote_address": "10.99.8.2" },
  },
};

/** `/ppp/profile`. */
const pppProfilesTools: MenuTools = {
  schema: pppProfiles,
  toolset: "vpn",
  noun: noun("ppp_profile", "PPP profile"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "local-address", "remote-address", "dns-server", "rate-limit", "only-one"],
  notes:
    "Session settings secrets and servers share: addresses (or pool names), DNS, rate limit, encryption, scripts. default and default-encryption are built in and cannot be removed.",
  example: {
    "add": {
      "name": "profile-example",
      "local_address": "10.99.8.1",
      "remote_address": "10.99.8.2",
      "dns_server": ["10.99.8.1"],
      "comment": "example",
    },
    "update": { "rate_limit": "10M/10M" },
  },
};

/** `/ppp/active`. */
const pppActiveTools: MenuTools = {
  schema: pppActive,
  toolset: "vpn",
  noun: noun("ppp_session", "active PPP session"),
  verbs: ["list"],
  columns: ["name", "service", "caller-id", "address", "uptime"],
  notes: "Read-only: PPP sessions connected now (VPN users and PPPoE clients), with their address.",
};

/** `/interface/l2tp-server/server`. */
const l2tpServerTools: MenuTools = {
  schema: l2tpServer,
  toolset: "vpn",
  noun: noun("l2tp_server", "L2TP server"),
  verbs: ["get", "update"],
  columns: ["enabled", "default-profile", "authentication", "use-ipsec", "max-mtu"],
  notes:
    "Accepts L2TP clients that log in with PPP secrets. use_ipsec=required with an ipsec_secret (masked) gives L2TP/IPsec, what phones offer; allow UDP 500, 4500 and 1701 in the input chain.",
  example: { "update": { "enabled": true, "use_ipsec": "yes", "ipsec_secret": "Example-Psk-1" } },
};

/** `/interface/l2tp-client`. */
const l2tpClientsTools: MenuTools = {
  schema: l2tpClients,
  toolset: "vpn",
  noun: noun("l2tp_client", "L2TP client"),
  verbs: VERBS,
  columns: CLIENT_COLUMNS,
  notes:
    `Outgoing L2TP tunnel to connect_to; use_ipsec with ipsec_secret for L2TP/IPsec. ${CLIENT}`,
  example: {
    "add": {
      "name": "l2tp-example",
      "connect_to": "192.0.2.20",
      "user": "example",
      "password": "Example-Pa55",
      "comment": "example",
    },
    "update": { "max_mtu": 1400 },
  },
};

/** `/interface/sstp-client`. */
const sstpClientsTools: MenuTools = {
  schema: sstpClients,
  toolset: "vpn",
  noun: noun("sstp_client", "SSTP client"),
  verbs: VERBS,
  columns: CLIENT_COLUMNS,
  notes: `Outgoing SSTP (PPP over TLS, TCP 443) tunnel; passes most firewalls. ${CLIENT}`,
  example: {
    "add": {
      "name": "sstp-example",
      "connect_to": "192.0.2.22",
      "user": "example",
      "password": "Example-Pa55",
      "comment": "example",
    },
    "update": { "port": 8443 },
  },
};

/** `/interface/ovpn-client`. */
const ovpnClientsTools: MenuTools = {
  schema: ovpnClients,
  toolset: "vpn",
  noun: noun("ovpn_client", "OpenVPN client"),
  verbs: VERBS,
  columns: ["name", "connect-to", "port", "mode", "user", "running", "disabled"],
  notes: `Outgoing OpenVPN tunnel (mode ip: routed, ethernet: bridged). ${CLIENT}`,
  example: {
    "add": {
      "name": "ovpn-example",
      "connect_to": "192.0.2.21",
      "user": "example",
      "password": "Example-Pa55",
      "comment": "example",
    },
    "update": { "port": 1195 },
  },
};

/** `/interface/pppoe-client`. */
const pppoeClientsTools: MenuTools = {
  schema: pppoeClients,
  toolset: "vpn",
  noun: noun("pppoe_client", "PPPoE client"),
  verbs: VERBS,
  columns: ["name", "interface", "user", "service-name", "running", "disabled", "comment"],
  notes:
    `Internet uplink over PPPoE on interface (the provider's DSL/fibre line); use_peer_dns takes the provider's DNS. ${CLIENT}`,
  example: {
    "add": {
      "name": "pppoe-example",
      "interface": "ether1",
      "user": "example",
      "password": "Example-Pa55",
      "comment": "example",
    },
    "update": { "use_peer_dns": true },
  },
};

/** `/interface/sstp-server/server`. */
const sstpServerTools: MenuTools = {
  schema: sstpServer,
  toolset: "vpn",
  noun: noun("sstp_server", "SSTP server"),
  verbs: ["get", "update"],
  columns: ["enabled", "port", "certificate", "default-profile", "authentication"],
  notes:
    "Accepts SSTP clients (PPP over TLS) that log in with PPP secrets; needs a server certificate (router_list_certificates). Allow its TCP port in the input chain.",
  example: { "update": { "enabled": true, "port": 8443 } },
};

/** `/interface/ovpn-server/server` up to RouterOS 7.16. */
const ovpnServerSettingsTools: MenuTools = {
  schema: ovpnServerSettings,
  toolset: "vpn",
  noun: noun("ovpn_server_settings", "OpenVPN server (settings)"),
  verbs: ["get", "update"],
  columns: ["enabled", "port", "protocol", "mode", "certificate", "require-client-certificate"],
  notes:
    "The one OpenVPN server of RouterOS up to 7.16 (from 7.17: router_list_ovpn_servers). Clients log in with PPP secrets; needs a server certificate. Allow its port in the input chain.",
  example: { "update": { "enabled": true, "port": 1195, "require_client_certificate": false } },
};

/** `/interface/ovpn-server/server` from RouterOS 7.17. */
const ovpnServersTools: MenuTools = {
  schema: ovpnServers,
  toolset: "vpn",
  noun: noun("ovpn_server", "OpenVPN server"),
  verbs: VERBS,
  columns: ["name", "port", "protocol", "mode", "certificate", "disabled", "comment"],
  notes:
    "OpenVPN servers from RouterOS 7.17, each on its own port (up to 7.16: router_get_ovpn_server_settings). Clients log in with PPP secrets; each needs a server certificate.",
  example: {
    "add": { "name": "ovpn-example", "port": 1196, "protocol": "udp", "comment": "example" },
    "update": { "cipher": ["aes256-gcm"] },
  },
};

/** `/interface/pppoe-server/server`. */
const pppoeServersTools: MenuTools = {
  schema: pppoeServers,
  toolset: "vpn",
  noun: noun("pppoe_server", "PPPoE server"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["service-name", "interface", "default-profile", "max-mtu", "disabled"],
  notes:
    "Offers PPPoE on interface: subscribers log in with PPP secrets (service pppoe) and get the profile's addresses.",
  example: {
    "add": { "service_name": "pppoe-example", "interface": "bridge", "comment": "example" },
    "update": { "one_session_per_host": true },
  },
};

/** `/ppp/aaa`. */
const pppAaaTools: MenuTools = {
  schema: pppAaa,
  toolset: "vpn",
  noun: noun("ppp_aaa", "PPP AAA settings"),
  verbs: ["get", "update"],
  columns: ["use-radius", "accounting", "interim-update"],
  notes: "use_radius sends PPP logins without a local secret to the RADIUS servers.",
  example: { "update": { "interim_update": "5m" } },
};

/** The vpn toolset's menus (PPP, L2TP, SSTP, OpenVPN, PPPoE, IPsec), in catalogue order. */
export const VPN_MENU_TOOLS: readonly MenuTools[] = [
  pppSecretsTools,
  pppProfilesTools,
  pppActiveTools,
  l2tpServerTools,
  l2tpClientsTools,
  sstpClientsTools,
  ovpnClientsTools,
  pppoeClientsTools,
  ...IPSEC_MENU_TOOLS,
  sstpServerTools,
  ovpnServerSettingsTools,
  ovpnServersTools,
  pppoeServersTools,
  pppAaaTools,
];
