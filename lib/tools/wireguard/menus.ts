/**
 * Tools of the wireguard menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/wireguard.ts.
 *
 * @module
 */
import { wireguard, wireguardPeers } from "../../routeros/schema/menus/wireguard.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/interface/wireguard`. */
const wireguardTools: MenuTools = {
  schema: wireguard,
  toolset: "wireguard",
  noun: noun("wireguard_interface", "WireGuard interface"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "listen-port", "mtu", "public-key", "running", "disabled", "comment"],
  notes:
    "RouterOS makes a private key when none is given; the private key is masked in all output, public_key is what peers need. Give the interface an address with router_add_ip_address and allow listen_port (UDP) in the firewall input chain.",
  example: {
    "add": { "name": "wg-example", "listen_port": 13299, "comment": "example" },
    "update": { "mtu": 1400 },
  },
};

/** `/interface/wireguard/peers`. */
const wireguardPeersTools: MenuTools = {
  schema: wireguardPeers,
  toolset: "wireguard",
  noun: noun("wireguard_peer", "WireGuard peer"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: [
    "interface",
    "endpoint-address",
    "allowed-address",
    "last-handshake",
    "disabled",
    "comment",
  ],
  notes:
    "allowed_address works both as the peer's routing table (what may be sent to it) and as its source filter. Leave endpoint_address empty for peers that connect in. persistent_keepalive (e.g. 25s) keeps NAT mappings open. The preshared key is masked in all output.",
  example: {
    "requires": ["/interface/wireguard"],
    "add": {
      "interface": "wg-example",
      "public_key": "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
      "allowed_address": ["10.99.7.2/32"],
      "comment": "example",
    },
    "update": {
      "persistent_keepalive": "25s",
      "endpoint_address": "198.51.100.7",
      "endpoint_port": 51820,
    },
  },
};

/** The menus of this family, in catalogue order. */
export const WIREGUARD_MENU_TOOLS: readonly MenuTools[] = [
  wireguardTools,
  wireguardPeersTools,
];
