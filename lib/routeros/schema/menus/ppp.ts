/**
 * Schema of the PPP menus: secrets, profiles, active sessions, the L2TP
 * server and the PPP client interfaces (L2TP, SSTP, OpenVPN, PPPoE).
 * RouterOS facts only; tools live in lib/tools.
 *
 * @module
 */
import {
  bool,
  duration,
  type Field,
  int,
  list,
  oneOf,
  ref,
  scriptText,
  state,
  text,
} from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const SERVICES = ["any", "async", "l2tp", "ovpn", "pppoe", "pptp", "sstp"];
const TRI = ["default", "no", "yes"];
const TRI_REQUIRED = ["default", "no", "required", "yes"];

/** `/ppp/secret`. */
export const pppSecrets = menu({
  path: "/ppp/secret",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    name: text("User name the client logs in with", { required: true }),
    password: text("Password (write-only: masked in all output)", { secret: true }),
    service: oneOf(SERVICES, "Service the secret is for (any: every PPP server)"),
    profile: ref("/ppp/profile", "Profile with the session settings (default: default)"),
    "local-address": text("Router-side tunnel address (overrides the profile)"),
    "remote-address": text("Address given to the client, or a pool name (overrides the profile)"),
    routes: text("Routes added while the session is up, e.g. 10.1.0.0/24 10.0.0.2 1"),
    "caller-id": text("Only accept this caller id (PPPoE: MAC, L2TP/SSTP: address)"),
    "limit-bytes-in": int("Disconnect after this many bytes received (0: no limit)", { min: 0 }),
    "limit-bytes-out": int("Disconnect after this many bytes sent (0: no limit)", { min: 0 }),
    "last-logged-out": state(text("When the user last logged out", { releases: { from: "7.0" } })),
    "last-caller-id": state(text("Caller id of the last login", { releases: { from: "7.0" } })),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ppp/profile`. */
export const pppProfiles = menu({
  path: "/ppp/profile",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  fields: {
    name: text("Profile name", { required: true }),
    "local-address": text("Router-side tunnel address, or a pool name"),
    "remote-address": text("Address given to clients, or a pool name"),
    "dns-server": list('DNS servers given to clients, e.g. ["192.168.88.1"]', { item: "address" }),
    "rate-limit": text("Speed limit rx/tx, e.g. 10M/10M (empty: none)"),
    "only-one": oneOf(TRI, "Allow only one session per user"),
    "use-encryption": oneOf(TRI_REQUIRED, "Encrypt the PPP session (MPPE)"),
    "change-tcp-mss": oneOf(TRI, "Lower the TCP MSS of connections to fit the tunnel"),
    bridge: text("Bridge the session's interface joins (BCP, for layer-2 tunnels)"),
    "address-list": text("Firewall address list the client's address is added to"),
    "interface-list": text("Interface list the session's interface joins"),
    "idle-timeout": text("Disconnect after this long without traffic (empty: never)"),
    "session-timeout": text("Disconnect after this long (empty: never)"),
    "on-up": scriptText("Script run when a session comes up"),
    "on-down": scriptText("Script run when a session goes down"),
    default: state(bool("Built-in profile (default, default-encryption)", {
      releases: { from: "7.0" },
    })),
    comment: comment(),
  },
});

/** `/ppp/active`. */
export const pppActive = menu({
  path: "/ppp/active",
  kind: "list",
  key: "name",
  writes: ["remove"],
  exports: false,
  flags: { "R": "radius" },
  fields: {
    name: state(text("User name of the session")),
    service: state(text("Service: l2tp, pppoe, sstp, ovpn, pptp...")),
    "caller-id": state(text("Where the client connected from")),
    address: state(text("Address given to the client")),
    uptime: state(text("How long the session has been up")),
    encoding: state(text("Encryption in use")),
    "session-id": state(text("Session id")),
    radius: state(bool("Authenticated by RADIUS")),
    comment: state(text("Comment")),
  },
});

/** `/interface/l2tp-server/server`. */
export const l2tpServer = menu({
  path: "/interface/l2tp-server/server",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Whether the L2TP server accepts connections"),
    "default-profile": ref("/ppp/profile", "PPP profile of sessions (default-encryption)"),
    authentication: list('Accepted methods, e.g. ["mschap2"] (pap, chap, mschap1, mschap2)'),
    "use-ipsec": oneOf(["no", "required", "yes"], "Protect L2TP with IPsec (yes: offer)"),
    "ipsec-secret": text("IPsec pre-shared key of L2TP/IPsec clients (write-only)", {
      secret: true,
    }),
    "max-mtu": int("Largest MTU offered to clients"),
    "max-mru": int("Largest MRU offered to clients"),
    "keepalive-timeout": text("Seconds without keepalive answers before disconnecting"),
    "max-sessions": text("Most sessions at once (unlimited or a number)"),
    "one-session-per-host": bool("Allow one session per client address"),
    "caller-id-type": oneOf(["ip-address", "number"], "What caller_id holds for L2TP sessions"),
  },
});

/** What the PPP client interfaces share. */
function pppClient(kind: string): Record<string, Field> {
  return {
    name: text(`Interface name, e.g. ${kind}-out1 (RouterOS picks one when not given)`),
    user: text("User name to log in with", { required: true }),
    password: text("Password (write-only: masked in all output)", { secret: true }),
    profile: ref("/ppp/profile", "PPP profile of the session (default-encryption)"),
    "add-default-route": bool("Add a default route through the tunnel when it comes up"),
    "max-mtu": int("Largest MTU to use"),
    running: state(bool("Whether the tunnel is up")),
    disabled: disabled(),
    comment: comment(),
  };
}

const AUTH = 'Accepted methods, e.g. ["mschap2"] (pap, chap, mschap1, mschap2)';
const CLIENT_FLAGS = { "X": "disabled", "R": "running" };

/** `/interface/l2tp-client`. */
export const l2tpClients = menu({
  path: "/interface/l2tp-client",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: CLIENT_FLAGS,
  fields: {
    ...pppClient("l2tp"),
    "connect-to": text("Server address to connect to", { required: true }),
    "max-mru": int("Largest MRU to use"),
    "use-ipsec": bool("Protect the tunnel with IPsec (needs ipsec_secret)"),
    "ipsec-secret": text("IPsec pre-shared key (write-only)", { secret: true }),
    allow: list(AUTH),
    "use-peer-dns": bool("Use the DNS servers the server offers"),
    "default-route-distance": int("Distance of the default route", { min: 0, max: 255 }),
  },
});

/** `/interface/sstp-client`. */
export const sstpClients = menu({
  path: "/interface/sstp-client",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: CLIENT_FLAGS,
  fields: {
    ...pppClient("sstp"),
    "connect-to": text("Server address or name to connect to", { required: true }),
    port: int("TCP port of the server (default 443)", { min: 1, max: 65535 }),
    "max-mru": int("Largest MRU to use"),
    "verify-server-certificate": bool("Check the server's certificate"),
    authentication: list(AUTH),
    "tls-version": oneOf(["any", "only-1.2"], "TLS versions accepted"),
    "default-route-distance": int("Distance of the default route", { min: 0, max: 255 }),
  },
});

/** `/interface/ovpn-client`. */
export const ovpnClients = menu({
  path: "/interface/ovpn-client",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: CLIENT_FLAGS,
  fields: {
    ...pppClient("ovpn"),
    "connect-to": text("Server address or name to connect to", { required: true }),
    port: int("Port of the server (default 1194)", { min: 1, max: 65535 }),
    mode: oneOf(["ethernet", "ip"], "ip (routed, tun) or ethernet (bridged, tap)"),
    protocol: oneOf(["tcp", ["udp", { from: "7.0" }]], "Transport (udp needs RouterOS 7)"),
    certificate: text("Client certificate name (none: password only)"),
    "verify-server-certificate": bool("Check the server's certificate"),
    "use-peer-dns": bool("Use the DNS servers the server pushes", { releases: { from: "7.0" } }),
    "route-nopull": bool("Ignore routes the server pushes", { releases: { from: "7.0" } }),
  },
});

/** `/interface/pppoe-client`. */
export const pppoeClients = menu({
  path: "/interface/pppoe-client",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "R": "running", "I": "invalid" },
  fields: {
    ...pppClient("pppoe"),
    interface: ref("/interface", "Ethernet interface facing the provider, e.g. ether1", {
      required: true,
    }),
    "max-mru": int("Largest MRU to use"),
    "service-name": text("PPPoE service name to ask for (empty: any)"),
    "ac-name": text("Access concentrator name to accept (empty: any)"),
    "use-peer-dns": bool("Use the DNS servers the provider offers"),
    "default-route-distance": int("Distance of the default route", { min: 0, max: 255 }),
    "dial-on-demand": bool("Connect only when traffic needs the link"),
    allow: list(AUTH),
  },
});

/** `/interface/sstp-server/server`. */
export const sstpServer = menu({
  path: "/interface/sstp-server/server",
  kind: "singleton",
  writes: ["set"],
  fields: {
    enabled: bool("Whether the SSTP server accepts connections"),
    port: int("TCP port (default 443)", { min: 1, max: 65535 }),
    certificate: text("Server certificate name (clients verify it)"),
    "default-profile": ref("/ppp/profile", "PPP profile of sessions"),
    authentication: list(AUTH),
    "verify-client-certificate": bool("Require and check client certificates"),
    "tls-version": oneOf(["any", "only-1.2"], "TLS versions accepted"),
    pfs: oneOf(["no", "required", "yes"], "Perfect forward secrecy"),
    "max-mtu": int("Largest MTU offered to clients"),
    "max-mru": int("Largest MRU offered to clients"),
  },
});

/** `/interface/pppoe-server/server`. */
export const pppoeServers = menu({
  path: "/interface/pppoe-server/server",
  kind: "list",
  key: "service-name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid" },
  fields: {
    "service-name": text("Service name clients ask for", { required: true }),
    interface: ref("/interface", "Interface (or VLAN) the clients are on", { required: true }),
    "default-profile": ref("/ppp/profile", "PPP profile of sessions"),
    authentication: list(AUTH),
    "one-session-per-host": bool("Allow one session per client MAC address"),
    "max-mtu": int("Largest MTU offered to clients"),
    "max-mru": int("Largest MRU offered to clients"),
    "max-sessions": text("Most sessions at once (unlimited or a number)"),
    "pado-delay": int("Delay before offering, in ms (to let another server answer first)", {
      min: 0,
    }),
    invalid: state(bool("Invalid (its interface is gone)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ppp/aaa`. */
export const pppAaa = menu({
  path: "/ppp/aaa",
  kind: "singleton",
  writes: ["set"],
  fields: {
    "use-radius": bool("Authenticate PPP users with RADIUS when no local secret matches"),
    accounting: bool("Send accounting records (RADIUS, or the local log)"),
    "interim-update": duration("Interval of interim accounting updates, e.g. 5m (0s: none)"),
  },
});

/** The menus of this family. */
export const PPP_SCHEMAS: readonly MenuSchema[] = [
  pppSecrets,
  pppProfiles,
  pppActive,
  l2tpServer,
  l2tpClients,
  sstpClients,
  ovpnClients,
  pppoeClients,
  sstpServer,
  pppoeServers,
  pppAaa,
];
