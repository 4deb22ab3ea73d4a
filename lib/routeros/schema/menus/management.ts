/**
 * Schema of the management access settings MikroTik's "Securing your
 * router" page hardens (RouterOS facts only; tools live in lib/tools): the
 * MAC server (MAC-Telnet) and its WinBox and ping parts, neighbour
 * discovery, the bandwidth test server, the web and SOCKS proxies, UPnP,
 * IP Cloud, the SSH server and, on RouterOS 7, the password policy.
 *
 * Properties per release: the `set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24); a property that comes or goes
 * between two trees starts at the first tree that has it or ends at the
 * last. The MAC server menus, discovery, IP Cloud and the SSH server declare
 * every settable property of the trees, but those only the 7.24 tree has,
 * which no value list or capture describes yet (discovery's
 * `add-dns-entries`, `add-dns-entries-suffix`, `dying-gasp`, `lldp-med`);
 * the bandwidth test server, the proxies and UPnP declare only what a
 * hardening check reads or a fix writes. RouterOS 6 follows MikroTik's v6
 * manual (`allowed-interface-list` since 6.41; discovery without
 * `protocol`, `mode` or the LLDP settings; no `/user settings`; `/ip ssh`
 * without `host-key-type`).
 *
 * @module
 */
import { bool, duration, int, list, oneOf, text } from "../field.ts";
import { menu, type MenuSchema } from "../menu.ts";

const LIST_DOC = "Interface list it answers on: LAN, none, all, or another list";

/** `/tool/mac-server`: MAC-Telnet. */
export const macServer = menu({
  path: "/tool/mac-server",
  kind: "singleton",
  writes: ["set"],
  fields: {
    "allowed-interface-list": text(LIST_DOC, { ref: "/interface/list" }),
  },
});

/** `/tool/mac-server/mac-winbox`: WinBox over MAC. */
export const macWinbox = menu({
  path: "/tool/mac-server/mac-winbox",
  kind: "singleton",
  writes: ["set"],
  fields: {
    "allowed-interface-list": text(LIST_DOC, { ref: "/interface/list" }),
  },
});

/** `/tool/mac-server/ping`: answering MAC pings. */
export const macPing = menu({
  path: "/tool/mac-server/ping",
  kind: "singleton",
  writes: ["set"],
  fields: { enabled: bool("Answer MAC pings") },
});

/** `/ip/neighbor/discovery-settings`. */
export const neighborDiscovery = menu({
  path: "/ip/neighbor/discovery-settings",
  kind: "singleton",
  writes: ["set"],
  fields: {
    "discover-interface-list": text(
      "Interface list it announces on and listens to: LAN, none, all, or another list",
      { ref: "/interface/list" },
    ),
    protocol: list('Discovery protocols, e.g. ["mndp", "lldp"] (mndp, lldp, cdp)', {
      releases: { from: "7.0" },
    }),
    mode: oneOf(["rx-only", "tx-and-rx", "tx-only"], "Listen, announce, or both", {
      releases: { from: "7.0" },
    }),
    "discover-interval": duration("Time between announcements, e.g. 30s", {
      releases: { from: "7.16" },
    }),
    "lldp-med-net-policy-vlan": text(
      "VLAN id LLDP-MED tells phones to use, or disabled",
      { releases: { from: "7.0" } },
    ),
    "lldp-mac-phy-config": bool("Send LLDP's MAC/PHY configuration TLV", {
      releases: { from: "7.16" },
    }),
    "lldp-max-frame-size": bool("Send LLDP's maximum frame size TLV", {
      releases: { from: "7.16" },
    }),
    "lldp-vlan-info": bool("Send LLDP's VLAN TLVs", { releases: { from: "7.16" } }),
  },
});

/** `/tool/bandwidth-server`. */
export const bandwidthServer = menu({
  path: "/tool/bandwidth-server",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Answer bandwidth tests from other hosts"),
    authenticate: bool("Ask a client for a user name and password"),
    "max-sessions": int("Most tests at once", { min: 1, max: 1000 }),
  },
});

/** `/ip/proxy`: the web proxy. */
export const webProxy = menu({
  path: "/ip/proxy",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Run the HTTP proxy"),
    port: int("TCP port it listens on", { min: 1, max: 65535 }),
    anonymous: bool("Hide the client's address from servers"),
  },
});

/** `/ip/socks`. */
export const socksProxy = menu({
  path: "/ip/socks",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Run the SOCKS proxy"),
    port: int("TCP port it listens on", { min: 1, max: 65535 }),
    version: oneOf(["4", "5"], "SOCKS version"),
    "auth-method": oneOf(["none", "password"], "Ask SOCKS5 clients for a password"),
  },
});

/** `/ip/upnp`. */
export const upnp = menu({
  path: "/ip/upnp",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Let LAN hosts open port forwards themselves (UPnP)"),
    "allow-disable-external-interface": bool("Let UPnP clients turn the external interface off"),
  },
});

/** `/ip/cloud`: MikroTik's DDNS and time service. */
export const ipCloud = menu({
  path: "/ip/cloud",
  kind: "singleton",
  writes: ["set"],
  fields: {
    // MikroTik's IP/Cloud manual: with update-time (default yes) "router clock will be set to
    // time provided by cloud server if there is no NTP or SNTP client enabled".
    "ddns-enabled": bool(
      "Publish the router's address under its cloud name (a newer router's auto is not shown)",
      { movesClockWith: "update-time" },
    ),
    "update-time": bool("Set the clock from the cloud service", { movesClock: true }),
    "ddns-update-interval": duration("How often the DDNS name is refreshed, or none", {
      words: ["none"],
    }),
  },
});

/** `/ip/ssh`: the SSH server. */
export const sshServer = menu({
  path: "/ip/ssh",
  kind: "singleton",
  writes: ["set"],
  fields: {
    "strong-crypto": bool(
      "Only strong ciphers, MACs and key exchange (no SHA-1, no 3DES or CBC)",
    ),
    "allow-none-crypto": bool("Allow the none cipher (RouterOS 7.0 to 7.19)", {
      releases: { from: "7.0", until: "7.19" },
    }),
    ciphers: list(
      'Ciphers offered: auto (the strong ones), or some of aes-gcm, aes-ctr, aes-cbc, 3des-cbc, null, e.g. ["aes-gcm"]',
      { releases: { from: "7.20" } },
    ),
    "host-key-size": oneOf(["1024", "1536", "2048", "4096", "8192"], "RSA host key size in bits"),
    "host-key-type": oneOf(["ed25519", "rsa"], "Host key type", { releases: { from: "7.0" } }),
    "forwarding-enabled": oneOf(["both", "local", "no", "remote"], "TCP forwarding allowed"),
    "always-allow-password-login": bool(
      "Accept a password even from a user with an SSH key (up to RouterOS 7.21)",
      { releases: { until: "7.21" } },
    ),
    "password-authentication": oneOf(
      ["no", "yes", "yes-if-no-key"],
      "Password logins: yes, no, or only for users without an SSH key",
      { releases: { from: "7.22" } },
    ),
    "publickey-authentication-options": oneOf(
      ["none", "touch-required", "verify-required"],
      "What a security-key (FIDO) login must prove",
      { releases: { from: "7.22" } },
    ),
  },
});

/** `/user/settings`: the password policy (RouterOS 7). */
export const userSettings = menu({
  path: "/user/settings",
  kind: "singleton",
  releases: { from: "7.0" },
  writes: ["set"],
  fields: {
    "minimum-password-length": int("Shortest password accepted (0: any, even empty)", {
      min: 0,
      max: 4294967295,
    }),
    "minimum-categories": int(
      "Character categories a password needs (lower, upper, digit, symbol), 0 to 4",
      { min: 0, max: 4 },
    ),
  },
});

/** The menus of this family (the management access settings). */
export const MANAGEMENT_SCHEMAS: readonly MenuSchema[] = [
  macServer,
  macWinbox,
  macPing,
  neighborDiscovery,
  bandwidthServer,
  webProxy,
  socksProxy,
  upnp,
  ipCloud,
  sshServer,
  userSettings,
];
