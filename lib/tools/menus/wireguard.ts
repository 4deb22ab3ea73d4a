/**
 * WireGuard menus (RouterOS 7): interfaces and peers.
 *
 * @module
 */
import { list, num, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, FLAGS_X, FLAGS_XR, running } from "./common.ts";

const V7 = { min: "7.0" };

/** `/interface/wireguard`: WireGuard interfaces. */
export const wireguard: Menu = {
  path: "/interface/wireguard",
  toolset: "wireguard",
  singular: "wireguard_interface",
  plural: "wireguard_interfaces",
  noun: "WireGuard interfaces",
  notes: "RouterOS makes a private key when none is given; the private key is masked in all " +
    "output, public_key is what peers need. Give the interface an address with " +
    "router_add_ip_address and allow listen_port (UDP) in the firewall input chain.",
  key: "name",
  versions: V7,
  fields: {
    name: text("Interface name, e.g. wg0 (RouterOS picks wireguardN when not given)"),
    mtu: num("MTU in bytes (default 1420)"),
    "listen-port": num("UDP port to listen on"),
    "private-key": text("Private key, base64 (generated when not given)", { secret: true }),
    "public-key": state(text("Public key, base64, derived from the private key")),
    running: running(),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "listen-port", "mtu", "public-key", "running", "disabled", "comment"],
  flags: FLAGS_XR,
  example: {
    add: { name: "wg-example", listen_port: 13299, comment: "example" },
    update: { mtu: 1400 },
  },
};

/** `/interface/wireguard/peers`: WireGuard peers. */
export const wireguardPeers: Menu = {
  path: "/interface/wireguard/peers",
  toolset: "wireguard",
  singular: "wireguard_peer",
  plural: "wireguard_peers",
  noun: "WireGuard peers",
  notes: "allowed_address works both as the peer's routing table (what may be sent to it) " +
    "and as its source filter. Leave endpoint_address empty for peers that connect in. " +
    "persistent_keepalive (e.g. 25s) keeps NAT mappings open. The preshared key is masked " +
    "in all output.",
  versions: V7,
  fields: {
    interface: text("WireGuard interface the peer belongs to", {
      required: true,
      ref: "/interface/wireguard",
    }),
    name: text("Peer name", { versions: { min: "7.15" } }),
    "public-key": text("Peer's public key, base64 (44 characters)", { required: true }),
    "preshared-key": text("Optional preshared key, base64", { secret: true }),
    "endpoint-address": text("Peer's address or DNS name to send to (empty: wait for it)"),
    "endpoint-port": num("Peer's UDP port"),
    "allowed-address": list('Prefixes routed to and accepted from the peer, e.g. ["10.0.0.2/32"]', {
      required: true,
    }),
    "persistent-keepalive": text("Keepalive interval, e.g. 25s (0s: off)"),
    "current-endpoint-address": state(text("Address the peer was last seen from")),
    "current-endpoint-port": state(num("Port the peer was last seen from")),
    "last-handshake": state(text("Time since the last handshake")),
    rx: state(num("Bytes received from the peer")),
    tx: state(num("Bytes sent to the peer")),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: [
    "interface",
    "endpoint-address",
    "allowed-address",
    "last-handshake",
    "disabled",
    "comment",
  ],
  flags: FLAGS_X,
  example: {
    requires: ["/interface/wireguard"],
    add: {
      interface: "wg-example",
      public_key: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
      allowed_address: ["10.99.7.2/32"],
      comment: "example",
    },
    update: { persistent_keepalive: "25s", endpoint_address: "198.51.100.7", endpoint_port: 51820 },
  },
};
