/**
 * Tools of the tunnel and bonding menus: toolset, names, verbs, columns,
 * notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/tunnels.ts.
 *
 * @module
 */
import { bonding, eoip, gre, ipip, vxlan } from "../../routeros/schema/menus/tunnels.ts";
import { takesMembers } from "../guard/lockout_members.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;
const COLUMNS = [
  "name",
  "local-address",
  "remote-address",
  "mtu",
  "running",
  "disabled",
  "comment",
];
const IP_TUNNEL =
  "Give it an address (router_add_ip_address) and route through it. keepalive (e.g. 10s,10) marks it down when the far end stops answering; ipsec_secret adds IPsec (masked in output).";

/** `/interface/gre`. */
const greTools: MenuTools = {
  schema: gre,
  toolset: "tunnels",
  noun: noun("gre_tunnel", "GRE tunnel"),
  verbs: VERBS,
  columns: COLUMNS,
  notes: `Routed point-to-point tunnel (IP protocol 47) to remote_address. ${IP_TUNNEL}`,
  example: {
    "add": { "name": "gre-example", "remote_address": "192.0.2.10", "comment": "example" },
    "update": { "keepalive": "10s,10" },
  },
};

/** `/interface/ipip`. */
const ipipTools: MenuTools = {
  schema: ipip,
  toolset: "tunnels",
  noun: noun("ipip_tunnel", "IPIP tunnel"),
  verbs: VERBS,
  columns: COLUMNS,
  notes: `Routed IPv4-in-IPv4 tunnel (IP protocol 4), the lightest kind. ${IP_TUNNEL}`,
  example: {
    "add": { "name": "ipip-example", "remote_address": "192.0.2.12", "comment": "example" },
    "update": { "mtu": "1400" },
  },
};

/** `/interface/eoip`. */
const eoipTools: MenuTools = {
  schema: eoip,
  toolset: "tunnels",
  noun: noun("eoip_tunnel", "EoIP tunnel"),
  verbs: VERBS,
  columns: ["name", "remote-address", "tunnel-id", "mac-address", "running", "disabled", "comment"],
  notes:
    "MikroTik's Ethernet-over-IP (layer 2) tunnel: bridge it with local ports to join two LANs. Both ends need the same tunnel_id and each other's remote_address.",
  example: {
    "add": {
      "name": "eoip-example",
      "remote_address": "192.0.2.11",
      "tunnel_id": 99,
      "comment": "example",
    },
    "update": { "tunnel_id": 100 },
  },
};

/** `/interface/vxlan`. */
const vxlanTools: MenuTools = {
  schema: vxlan,
  toolset: "tunnels",
  noun: noun("vxlan", "VXLAN interface"),
  verbs: VERBS,
  columns: ["name", "vni", "port", "group", "interface", "running", "disabled", "comment"],
  notes:
    "Layer-2 segment over UDP identified by vni; remote endpoints are VTEPs (or a multicast group with interface). Bridge it with local ports.",
  example: {
    "add": { "name": "vxlan-example", "vni": 99, "comment": "example" },
    "update": { "port": 4789 },
  },
};

/** `/interface/bonding`. */
const bondingTools: MenuTools = {
  schema: bonding,
  toolset: "tunnels",
  noun: noun("bond", "bonding interface"),
  verbs: VERBS,
  lockout: takesMembers("slaves", "bond"),
  columns: ["name", "mode", "slaves", "transmit-hash-policy", "running", "disabled", "comment"],
  notes:
    "Joins ports into one link (LACP with mode 802.3ad, which the switch must match; active-backup for failover). Moving the port you manage the router through cuts the session.",
  example: {
    "add": {
      "name": "bond-example",
      "slaves": ["ether4", "ether5"],
      "mode": "active-backup",
      "comment": "example",
    },
    "update": { "mode": "802.3ad", "transmit_hash_policy": "layer-2-and-3" },
  },
};

/** The menus of this family, in catalogue order. */
export const TUNNELS_MENU_TOOLS: readonly MenuTools[] = [
  greTools,
  eoipTools,
  ipipTools,
  vxlanTools,
  bondingTools,
];
