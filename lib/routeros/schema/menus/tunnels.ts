/**
 * Schema of the tunnel and bonding interface menus: GRE, EoIP, IPIP, VXLAN
 * and bonds (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import {
  address,
  bool,
  duration,
  type Field,
  int,
  list,
  mac,
  oneOf,
  ref,
  state,
  text,
} from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const WRITES = ["add", "set", "remove", "enable", "disable"] as const;
const FLAGS = { "X": "disabled", "R": "running" };
const ARP = ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"];

/** What the point-to-point IP tunnels (GRE, IPIP, EoIP) share. */
function ipTunnel(kind: string): Record<string, Field> {
  return {
    name: text(`Interface name, e.g. ${kind}-1 (RouterOS picks one when not given)`),
    "remote-address": address("Address of the far end of the tunnel", {
      required: true,
      family: "ipv4",
    }),
    "local-address": address("Local address the tunnel is sent from (0.0.0.0: any)", {
      family: "ipv4",
    }),
    mtu: text("Layer-3 MTU in bytes, or auto"),
    "actual-mtu": state(int("MTU in effect, in bytes")),
    keepalive: text("Keepalive interval and retries, e.g. 10s,10 (empty: off)"),
    "ipsec-secret": text("Pre-shared key: RouterOS builds IPsec for the tunnel when set", {
      secret: true,
    }),
    "dont-fragment": oneOf(["inherit", "no"], "Set the don't-fragment bit of tunnel packets"),
    "clamp-tcp-mss": bool("Lower the TCP MSS of connections through the tunnel to fit its MTU"),
    "allow-fast-path": bool("Allow fast path (not with ipsec_secret)"),
    running: state(bool("Whether the interface is running")),
    disabled: disabled(),
    comment: comment(),
  };
}

/** `/interface/gre`. */
export const gre = menu({
  path: "/interface/gre",
  kind: "list",
  key: "name",
  writes: WRITES,
  flags: FLAGS,
  fields: ipTunnel("gre"),
});

/** `/interface/ipip`. */
export const ipip = menu({
  path: "/interface/ipip",
  kind: "list",
  key: "name",
  writes: WRITES,
  flags: FLAGS,
  fields: ipTunnel("ipip"),
});

/** `/interface/eoip`. */
export const eoip = menu({
  path: "/interface/eoip",
  kind: "list",
  key: "name",
  writes: WRITES,
  flags: FLAGS,
  fields: {
    ...ipTunnel("eoip"),
    "tunnel-id": int("Tunnel id, 0-65535: both ends must use the same one", {
      required: true,
      min: 0,
      max: 65535,
    }),
    "mac-address": mac("MAC address of the tunnel interface (RouterOS picks one)"),
    arp: oneOf(ARP, "ARP mode: enabled (normal), disabled, reply-only, proxy-arp, local-proxy-arp"),
  },
});

/** `/interface/vxlan`. */
export const vxlan = menu({
  path: "/interface/vxlan",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: { from: "7.0" },
  flags: FLAGS,
  fields: {
    name: text("Interface name, e.g. vxlan1 (RouterOS picks one when not given)"),
    vni: int("VXLAN network identifier, 1-16777215", { required: true, min: 1, max: 16777215 }),
    port: int("UDP port (default 8472)", { min: 1, max: 65535 }),
    interface: ref("/interface", "Interface multicast traffic uses (with group)"),
    group: address("Multicast group for flooding (or remote VTEPs in the vteps menu)"),
    "local-address": address("Local source address of the VXLAN packets"),
    "vteps-ip-version": oneOf(["ipv4", "ipv6"], "Address family of the VTEPs"),
    mtu: int("Layer-3 MTU in bytes (default 1500)"),
    "mac-address": mac("MAC address of the interface (RouterOS picks one)"),
    arp: oneOf(ARP, "ARP mode: enabled (normal), disabled, reply-only, proxy-arp, local-proxy-arp"),
    "dont-fragment": oneOf(
      ["auto", "disabled", "enabled", "inherit"],
      "Set the don't-fragment bit of VXLAN packets",
    ),
    "allow-fast-path": bool("Allow fast path"),
    running: state(bool("Whether the interface is running")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/bonding`. */
export const bonding = menu({
  path: "/interface/bonding",
  kind: "list",
  key: "name",
  writes: WRITES,
  flags: FLAGS,
  fields: {
    name: text("Interface name, e.g. bond1 (RouterOS picks one when not given)"),
    slaves: list('Member interfaces, e.g. ["ether4", "ether5"] (not in a bridge)', {
      required: true,
    }),
    mode: oneOf(
      [
        "802.3ad",
        "active-backup",
        "balance-alb",
        "balance-rr",
        "balance-tlb",
        "balance-xor",
        "broadcast",
      ],
      "How traffic is spread: 802.3ad (LACP, needs the switch too), active-backup, balance-*",
    ),
    "transmit-hash-policy": oneOf(
      [
        ["encap-2-and-3", { from: "7.0" }],
        ["encap-3-and-4", { from: "7.0" }],
        "layer-2",
        "layer-2-and-3",
        "layer-3-and-4",
      ],
      "Which headers pick the member link (802.3ad, balance-xor)",
    ),
    "lacp-rate": oneOf(["1sec", "30secs"], "How often LACP partners exchange frames (802.3ad)"),
    "link-monitoring": oneOf(["arp", "mii", "none"], "How a member's link is checked"),
    "mii-interval": duration("Link check interval with mii monitoring, e.g. 100ms"),
    "min-links": int("Members that must be up for the bond to be up", { min: 0 }),
    primary: text("Preferred member in active-backup mode (none: any)"),
    mtu: int("Layer-3 MTU in bytes"),
    "mac-address": state(mac("MAC address of the bond")),
    arp: oneOf(ARP, "ARP mode: enabled (normal), disabled, reply-only, proxy-arp, local-proxy-arp"),
    running: state(bool("Whether the interface is running")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const TUNNELS_SCHEMAS: readonly MenuSchema[] = [
  gre,
  ipip,
  eoip,
  vxlan,
  bonding,
];
