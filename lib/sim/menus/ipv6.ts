/**
 * IPv6 services: `/ipv6/pool`, `/ipv6/nd` (+ prefix), `/ipv6/dhcp-client`,
 * `/ipv6/dhcp-server`, and the IPv6 NAT, mangle and raw rule tables.
 *
 * @module
 */
import type { MenuDef, PropDef } from "../menu_types.ts";
import { fail } from "../errors.ts";
import { V7 } from "../releases.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_INVALID,
  ifaceRef,
  int,
  INVALID,
  oneOf,
  ro,
  str,
} from "./common.ts";
import { rules } from "./firewall.ts";

const missingInterface = (name = "interface"): PropDef => ({
  ...INVALID,
  compute: (i, st) => String(i[name] !== "all" && !st.findByKey("/interface", i[name])),
});

/** `/ipv6/pool`. */
const POOL: MenuDef = {
  path: "/ipv6/pool",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    { name: "prefix", type: "prefix6", required: true },
    int("prefix-length", undefined, { required: true, min: 1, max: 128 }),
    DYNAMIC,
    COMMENT,
  ],
  flags: [F_DYNAMIC],
  columns: ["name", "prefix", "prefix-length"],
  unique: [{ props: ["name"], error: "failure: pool with such name already exists" }],
  check: (i) => {
    const len = Number(i.prefix.split("/")[1] ?? 128);
    if (Number(i["prefix-length"]) < len) {
      throw fail("failure: prefix length must be larger than pool prefix length");
    }
  },
};

/** `/ipv6/nd`. */
const ND: MenuDef = {
  path: "/ipv6/nd",
  kind: "list",
  props: [
    ifaceRef("interface", { required: true, refAllow: ["all"] }),
    str("ra-interval", { default: "3m20s-10m" }),
    { name: "ra-lifetime", type: "time", values: ["none"], default: "30m" },
    str("hop-limit", { default: "unspecified" }),
    str("mtu", { default: "unspecified" }),
    bool("advertise-mac-address", true),
    oneOf("advertise-dns", ["no", "self", "yes"], "yes"),
    bool("managed-address-configuration", false),
    bool("other-configuration", false),
    str("dns", { releases: V7, default: "" }),
    oneOf("ra-preference", ["high", "low", "medium"], "medium", { releases: V7 }),
    ro("default", "bool", { releases: V7, default: "false" }),
    missingInterface(),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, {
    ch: "*",
    name: "default",
    group: 1,
    test: (i) => isTrue(i.default),
  }],
  columns: ["interface", "ra-interval", "ra-lifetime", "hop-limit"],
  unique: [{ props: ["interface"], error: "failure: entry for this interface already exists" }],
  exportSkip: (i) => isTrue(i.default),
  defaults: () => [{
    interface: "all",
    "ra-interval": "3m20s-10m",
    "ra-lifetime": "30m",
    "hop-limit": "unspecified",
    mtu: "unspecified",
    "advertise-mac-address": "true",
    "advertise-dns": "yes",
    "managed-address-configuration": "false",
    "other-configuration": "false",
    dns: "",
    "ra-preference": "medium",
    default: "true",
    disabled: "false",
  }],
};

/** `/ipv6/nd/prefix`. */
const ND_PREFIX: MenuDef = {
  path: "/ipv6/nd/prefix",
  kind: "list",
  props: [
    { name: "prefix", type: "prefix6", required: true },
    ifaceRef("interface", { required: true }),
    bool("on-link", true),
    bool("autonomous", true),
    str("valid-lifetime", { default: "4w2d" }),
    str("preferred-lifetime", { default: "1w" }),
    DYNAMIC,
    missingInterface(),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["prefix", "interface", "valid-lifetime", "preferred-lifetime"],
};

/** `/ipv6/dhcp-client`. */
const DHCP_CLIENT: MenuDef = {
  path: "/ipv6/dhcp-client",
  kind: "list",
  props: [
    ifaceRef("interface", { required: true }),
    { name: "request", type: "list", values: ["address", "info", "prefix"], required: true },
    str("pool-name", { default: "" }),
    int("pool-prefix-length", 64, { min: 1, max: 128 }),
    str("prefix-hint", { default: "::/0" }),
    bool("add-default-route", false),
    int("default-route-distance", 1, { min: 0, max: 255, releases: V7 }),
    bool("use-peer-dns", true),
    bool("rapid-commit", true, { releases: V7 }),
    str("script", { default: "", releases: V7 }),
    ro("status", "str", { compute: (i) => (isTrue(i.disabled) ? "stopped" : "searching...") }),
    ro("prefix", "str"),
    ro("address", "str"),
    DYNAMIC,
    missingInterface(),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["interface", "status", "prefix"],
  unique: [{
    props: ["interface"],
    error: "failure: dhcpv6-client on that interface already exists",
  }],
};

/** `/ipv6/dhcp-server`. */
const DHCP_SERVER: MenuDef = {
  path: "/ipv6/dhcp-server",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `server${st.stored(DHCP_SERVER).length + 1}` }),
    ifaceRef("interface", { required: true }),
    {
      name: "address-pool",
      type: "ref",
      ref: "/ipv6/pool",
      refAllow: ["static-only"],
      default: "static-only",
    },
    { name: "lease-time", type: "time", default: "1d" },
    int("preference", 255, { min: 0, max: 255 }),
    bool("rapid-commit", false, { releases: V7 }),
    int("route-distance", 1, { releases: V7, min: 0, max: 255 }),
    str("binding-script", { default: "", releases: V7 }),
    DYNAMIC,
    missingInterface(),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["name", "interface", "address-pool", "lease-time"],
  unique: [
    { props: ["name"], error: "failure: server with such name already exists" },
    { props: ["interface"], error: "failure: server for such interface already exists" },
  ],
};

/** `/ipv6/dhcp-server/binding`. */
const DHCP_BINDING: MenuDef = {
  path: "/ipv6/dhcp-server/binding",
  kind: "list",
  props: [
    { name: "address", type: "prefix6", required: true },
    str("duid", { required: true }),
    int("iaid", 0, { min: 0 }),
    { name: "server", type: "ref", ref: "/ipv6/dhcp-server", refAllow: ["all"], default: "all" },
    { name: "life-time", type: "time", default: "3d" },
    ro("status", "str", { compute: (i) => (isTrue(i.disabled) ? "" : "waiting") }),
    ro("expires-after", "str", { releases: V7 }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["address", "duid", "iaid", "server", "status"],
  unique: [{ props: ["address"], error: "failure: binding for this prefix already exists" }],
};

/** A v4 rule table reshaped for IPv6: its own actions, `to-address` for NAT. */
function rules6(table: string, actions: string[], extra: Partial<MenuDef> = {}): MenuDef {
  const base = rules(`/ipv6/firewall/${table}`, table, [], true);
  const props = base.props.map((p) => (p.name === "action" ? { ...p, values: actions } : p));
  if (table === "nat") {
    props.splice(props.findIndex((p) => p.name === "to-ports"), 0, str("to-address"));
  }
  return { ...base, props, ...extra };
}

const NAT6 = rules6("nat", [
  "accept",
  "add-dst-to-address-list",
  "add-src-to-address-list",
  "dst-nat",
  "jump",
  "log",
  "masquerade",
  "netmap",
  "passthrough",
  "redirect",
  "return",
  "src-nat",
], { releases: V7 });

const MANGLE6 = rules6("mangle", [
  "accept",
  "add-dst-to-address-list",
  "add-src-to-address-list",
  "change-dscp",
  "change-hop-limit",
  "change-mss",
  "dnpt",
  "jump",
  "log",
  "mark-connection",
  "mark-packet",
  "mark-routing",
  "passthrough",
  "return",
  "set-priority",
  "sniff-pc",
  "sniff-tzsp",
  "snpt",
]);

const RAW6 = rules6("raw", [
  "accept",
  "add-dst-to-address-list",
  "add-src-to-address-list",
  "drop",
  "jump",
  "log",
  "notrack",
  "passthrough",
  "return",
]);

/** IPv6 service and rule-table menus. */
export const IPV6_MENUS: MenuDef[] = [
  POOL,
  ND,
  ND_PREFIX,
  DHCP_CLIENT,
  DHCP_SERVER,
  DHCP_BINDING,
  NAT6,
  MANGLE6,
  RAW6,
];
