/**
 * Schema of the OpenVPN server: one server's settings up to RouterOS 7.16,
 * a list of named servers (each on its own port) from 7.17. RouterOS facts
 * only; tools live in lib/tools.
 *
 * @module
 */
import { bool, type Field, int, list, mac, oneOf, ref, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** What the settings (up to 7.16) and the servers (7.17 on) share. */
function server(): Record<string, Field> {
  return {
    port: int("TCP or UDP port (default 1194)", { min: 1, max: 65535 }),
    protocol: oneOf(["tcp", "udp"], "Transport", { releases: V7 }),
    mode: oneOf(["ethernet", "ip"], "ip: routed tunnel (tun); ethernet: bridged (tap)"),
    netmask: int("Prefix length of the client addresses", { min: 0, max: 32 }),
    "mac-address": mac("MAC address of the server interface (ethernet mode)"),
    "max-mtu": int("Largest MTU offered to clients"),
    "keepalive-timeout": text("Seconds without traffic before disconnecting (or disabled)"),
    "default-profile": ref("/ppp/profile", "PPP profile of sessions"),
    certificate: text("Server certificate name (clients verify it)"),
    "require-client-certificate": bool("Clients must present a certificate the router trusts"),
    auth: list('HMAC digests accepted, e.g. ["sha256"] (md5, sha1, sha256, sha512, null)'),
    cipher: list('Ciphers accepted, e.g. ["aes256-gcm"] (aes128-cbc... aes256-gcm, null)'),
    "tls-version": oneOf(["any", "only-1.2"], "TLS versions accepted", { releases: V7 }),
    "redirect-gateway": list(
      'Tell clients to route through the tunnel: ["def1"], ["ipv6"] or ["disabled"]',
      { releases: V7 },
    ),
    "enable-tun-ipv6": bool("Give clients IPv6 addresses too (ip mode)", { releases: V7 }),
    "ipv6-prefix-len": int("Prefix length of the clients' IPv6 addresses", { releases: V7 }),
    "tun-server-ipv6": text("IPv6 address of the server end of the tunnel", { releases: V7 }),
    "reneg-sec": int("Seconds between TLS key renegotiations", { releases: V7 }),
  };
}

/** `/interface/ovpn-server/server` up to 7.16: the settings of the one server. */
export const ovpnServerSettings = menu({
  path: "/interface/ovpn-server/server",
  kind: "singleton",
  writes: ["set"],
  releases: { until: "7.16" },
  fields: {
    enabled: bool("Whether the OpenVPN server accepts connections"),
    ...server(),
    "push-routes": text("Routes pushed to clients (comma-separated)", {
      releases: { from: "7.16" },
    }),
  },
});

/** `/interface/ovpn-server/server` from 7.17: named servers, each on its own port. */
export const ovpnServers = menu({
  path: "/interface/ovpn-server/server",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  releases: { from: "7.17" },
  flags: { "X": "disabled", "I": "inactive" },
  fields: {
    name: text("Server name, e.g. ovpn-server1 (RouterOS picks one when not given)"),
    ...server(),
    "push-routes": text("Routes pushed to clients (comma-separated)"),
    "push-routes-ipv6": text("IPv6 routes pushed to clients (comma-separated)", {
      releases: { from: "7.22" },
    }),
    "user-auth-method": oneOf(["mschap2", "pap"], "How clients' PPP passwords are checked"),
    vrf: ref("/ip/vrf", "VRF the server listens in"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const OVPN_SCHEMAS: readonly MenuSchema[] = [
  ovpnServerSettings,
  ovpnServers,
];
