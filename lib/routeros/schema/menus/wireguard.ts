/**
 * Schema of the wireguard menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, duration, int, list, ref, state, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/interface/wireguard`. */
export const wireguard = menu({
  path: "/interface/wireguard",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  releases: { from: "7.0" },
  flags: { "X": "disabled", "R": "running" },
  fields: {
    name: text("Interface name, e.g. wg0 (RouterOS picks wireguardN when not given)"),
    mtu: int("MTU in bytes (default 1420)"),
    "listen-port": int("UDP port to listen on", { min: 1, max: 65535 }),
    "private-key": text("Private key, base64 (generated when not given)", { secret: true }),
    "public-key": state(text("Public key, base64, derived from the private key")),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** Client-config properties of peers (every RouterOS 7 tree from 7.12.2 on has them). */
const CLIENT = { releases: { from: "7.12" } };

/** `/interface/wireguard/peers`. */
export const wireguardPeers = menu({
  path: "/interface/wireguard/peers",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  releases: { from: "7.0" },
  flags: { "X": "disabled" },
  fields: {
    interface: ref("/interface/wireguard", "WireGuard interface the peer belongs to", {
      required: true,
    }),
    name: text("Peer name", { releases: { from: "7.16" } }),
    "public-key": text("Peer's public key, base64 (44 characters)", { required: true }),
    "preshared-key": text("Optional preshared key, base64", { secret: true }),
    "endpoint-address": text("Peer's address or DNS name to send to (empty: wait for it)"),
    "endpoint-port": int("Peer's UDP port", { min: 0, max: 65535 }),
    "allowed-address": list('Prefixes routed to and accepted from the peer, e.g. ["10.0.0.2/32"]', {
      item: "address",
      required: true,
    }),
    "persistent-keepalive": duration("Keepalive interval, e.g. 25s (0s: off)"),
    "client-address": text("Tunnel address written into client configs", CLIENT),
    "client-dns": text("DNS servers written into client configs", CLIENT),
    "client-endpoint": text("Router endpoint written into client configs", CLIENT),
    "current-endpoint-address": state(text("Address the peer was last seen from")),
    "current-endpoint-port": state(int("Port the peer was last seen from")),
    "last-handshake": state(text("Time since the last handshake")),
    rx: state(int("Bytes received from the peer")),
    tx: state(int("Bytes sent to the peer")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const WIREGUARD_SCHEMAS: readonly MenuSchema[] = [
  wireguard,
  wireguardPeers,
];
