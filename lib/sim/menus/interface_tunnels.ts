/**
 * Tunnel and bonding interfaces (`/interface/gre`, `eoip`, `ipip`, `vxlan`,
 * `bonding`) and the PPP client interfaces (`l2tp-client`, `sstp-client`,
 * `ovpn-client`, `pppoe-client`). All live in the `/interface` table.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  F_DISABLED,
  F_RUNNING,
  ifaceRef,
  int,
  oneOf,
  ro,
  RUNNING,
  str,
} from "./common.ts";
import { nameUnique, nextName, renameCascade } from "./interface_common.ts";
import type { RouterState } from "../state.ts";

const ARP = ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"];
const AUTH = ["chap", "mschap1", "mschap2", "pap"];

/** A locally administered MAC for a virtual interface, from its name. */
function virtualMac(item: Item): string {
  let h = 7;
  for (const c of item.name ?? "") h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const b = [0xfe, (h >>> 24) & 255, (h >>> 16) & 255, (h >>> 8) & 255, h & 255, 0x01];
  return b.map((x) => x.toString(16).toUpperCase().padStart(2, "0")).join(":");
}

/** An interface menu of the shared table. */
function ifMenu(
  path: string,
  type: string,
  base: string,
  props: PropDef[],
  extra: Partial<MenuDef> = {},
): MenuDef {
  return {
    path,
    table: "/interface",
    match: { type },
    kind: "list",
    key: "name",
    props: [str("name", { default: (_i, st) => nextName(st, base) }), ...props],
    flags: [F_DISABLED, F_RUNNING],
    columns: ["name"],
    unique: [nameUnique],
    afterChange: renameCascade,
    ...extra,
  };
}

/** What GRE, IPIP and EoIP share. */
function ipTunnel(actualMtu: number): PropDef[] {
  return [
    { name: "remote-address", type: "ip", required: true },
    { name: "local-address", type: "ip", default: "0.0.0.0" },
    { name: "mtu", type: "int", values: ["auto"], default: "auto", min: 0, max: 65535 },
    ro("actual-mtu", "int", {
      compute: (i) => (i.mtu === "auto" || !i.mtu ? String(actualMtu) : i.mtu),
    }),
    str("keepalive", { default: "10s,10" }),
    str("ipsec-secret", { sensitive: true, default: "" }),
    oneOf("dont-fragment", ["inherit", "no"], "no"),
    bool("clamp-tcp-mss", true),
    bool("allow-fast-path", true),
    str("dscp", { default: "inherit" }),
    RUNNING,
    DISABLED,
    COMMENT,
  ];
}

const COLS = ["name", "mtu", "actual-mtu", "local-address", "remote-address"];

const GRE = ifMenu("/interface/gre", "gre-tunnel", "gre-tunnel", ipTunnel(1476), {
  columns: COLS,
});
const IPIP = ifMenu("/interface/ipip", "ipip-tunnel", "ipip-tunnel", ipTunnel(1480), {
  columns: COLS,
});
const EOIP = ifMenu("/interface/eoip", "eoip-tunnel", "eoip-tunnel", [
  ...ipTunnel(1458),
  int("tunnel-id", undefined, { required: true, min: 0, max: 65535 }),
  { name: "mac-address", type: "mac", default: virtualMac },
  oneOf("arp", ARP, "enabled"),
  oneOf("loop-protect", ["default", "off", "on"], "default"),
], { columns: [...COLS, "tunnel-id"] });

const VXLAN = ifMenu("/interface/vxlan", "vxlan", "vxlan", [
  int("vni", undefined, { required: true, min: 1, max: 16777215 }),
  int("port", 8472, { min: 1, max: 65535 }),
  ifaceRef("interface"),
  str("group"),
  str("local-address"),
  oneOf("vteps-ip-version", ["ipv4", "ipv6"], "ipv4"),
  int("mtu", 1500, { min: 0, max: 65535 }),
  { name: "mac-address", type: "mac", default: virtualMac },
  oneOf("arp", ARP, "enabled"),
  oneOf("dont-fragment", ["auto", "disabled", "enabled", "inherit"], "auto"),
  bool("allow-fast-path", true),
  RUNNING,
  DISABLED,
  COMMENT,
], { releases: V7, columns: ["name", "mtu", "vni", "port"] });

/** Every slave must be an interface of the router. */
function slavesExist(v: string, _i: Item, st: RouterState): string | undefined {
  const names = new Set(st.table("/interface").items.map((i) => i.name));
  return v.split(",").every((n) => names.has(n))
    ? undefined
    : "input does not match any value of slaves";
}

const BONDING = ifMenu("/interface/bonding", "bond", "bonding", [
  str("slaves", { required: true, validate: slavesExist }),
  oneOf("mode", [
    "802.3ad",
    "active-backup",
    "balance-alb",
    "balance-rr",
    "balance-tlb",
    "balance-xor",
    "broadcast",
  ], "balance-rr"),
  oneOf("transmit-hash-policy", [
    "encap-2-and-3",
    "encap-3-and-4",
    "layer-2",
    "layer-2-and-3",
    "layer-3-and-4",
  ], "layer-2"),
  oneOf("lacp-rate", ["1sec", "30secs"], "30secs"),
  oneOf("link-monitoring", ["arp", "mii", "none"], "mii"),
  { name: "mii-interval", type: "time", default: "100ms" },
  int("min-links", 0, { min: 0 }),
  str("primary", { default: "none" }),
  int("mtu", 1500, { min: 0, max: 65535 }),
  { name: "mac-address", type: "mac", ro: true, compute: virtualMac },
  oneOf("arp", ARP, "enabled"),
  RUNNING,
  DISABLED,
  COMMENT,
], { columns: ["name", "mtu", "mode", "slaves"] });

/** What the PPP client interfaces share: a client is down until a server answers. */
function pppClient(mtu: number): PropDef[] {
  return [
    str("user", { required: true }),
    str("password", { sensitive: true, default: "" }),
    { name: "profile", type: "ref", ref: "/ppp/profile", default: "default-encryption" },
    bool("add-default-route", false),
    int("max-mtu", mtu, { min: 0, max: 65535 }),
    ro("running", "bool", { default: "false" }),
    DISABLED,
    COMMENT,
  ];
}

const CLIENT_COLS = ["name", "max-mtu", "connect-to", "user"];

const L2TP_CLIENT = ifMenu("/interface/l2tp-client", "l2tp-out", "l2tp-out", [
  ...pppClient(1450),
  str("connect-to", { required: true }),
  int("max-mru", 1450, { min: 0, max: 65535 }),
  bool("use-ipsec", false),
  str("ipsec-secret", { sensitive: true, default: "" }),
  { name: "allow", type: "list", values: AUTH, default: "pap,chap,mschap1,mschap2" },
  bool("use-peer-dns", false),
  int("default-route-distance", 1, { min: 0, max: 255 }),
], { columns: CLIENT_COLS });

const SSTP_CLIENT = ifMenu("/interface/sstp-client", "sstp-out", "sstp-out", [
  ...pppClient(1500),
  str("connect-to", { required: true }),
  int("port", 443, { min: 1, max: 65535 }),
  int("max-mru", 1500, { min: 0, max: 65535 }),
  bool("verify-server-certificate", false),
  { name: "authentication", type: "list", values: AUTH, default: "pap,chap,mschap1,mschap2" },
  oneOf("tls-version", ["any", "only-1.2"], "any"),
  int("default-route-distance", 1, { min: 0, max: 255 }),
], { columns: CLIENT_COLS });

const OVPN_CLIENT = ifMenu("/interface/ovpn-client", "ovpn-out", "ovpn-out", [
  ...pppClient(1500),
  str("connect-to", { required: true }),
  int("port", 1194, { min: 1, max: 65535 }),
  oneOf("mode", ["ethernet", "ip"], "ip"),
  oneOf("protocol", ["tcp", "udp"], "tcp", {
    validate: (
      v,
      _i,
      st,
    ) => (v === "udp" && st.v6 ? "input does not match any value of protocol" : undefined),
  }),
  str("certificate", { default: "none" }),
  bool("verify-server-certificate", false),
  bool("use-peer-dns", true, { releases: V7 }),
  bool("route-nopull", false, { releases: V7 }),
], { columns: CLIENT_COLS });

// `disabled=no` is in every export of a PPPoE client, 6.x and 7.x (`add
// add-default-route=yes disabled=no interface=vlan6 name=pppoe-out1` in
// real-output/export-show-sensitive-v7.15.2-exec-oxidized.txt; kaihendry/mikrotik-configs
// praze.rsc, 6.48.3).
const PPPOE_CLIENT = ifMenu("/interface/pppoe-client", "pppoe-out", "pppoe-out", [
  ...pppClient(1480).map((
    p,
  ) => (p.name === "disabled" ? { ...p, exportAlways: true as const } : p)),
  ifaceRef("interface", { required: true }),
  int("max-mru", 1480, { min: 0, max: 65535 }),
  str("service-name", { default: "" }),
  str("ac-name", { default: "" }),
  bool("use-peer-dns", false),
  int("default-route-distance", 1, { min: 0, max: 255 }),
  bool("dial-on-demand", false),
  { name: "allow", type: "list", values: AUTH, default: "pap,chap,mschap1,mschap2" },
], {
  columns: ["name", "max-mtu", "interface", "user"],
  flags: [F_DISABLED, F_RUNNING, {
    ch: "I",
    name: "invalid",
    group: 0,
    test: (i, st) => !st.findByKey("/interface", i.interface) && !isTrue(i.disabled),
  }],
});

/** Tunnel, bonding and PPP client interface menus. */
export const TUNNEL_MENUS: MenuDef[] = [
  GRE,
  IPIP,
  EOIP,
  VXLAN,
  BONDING,
  L2TP_CLIENT,
  SSTP_CLIENT,
  OVPN_CLIENT,
  PPPOE_CLIENT,
];
