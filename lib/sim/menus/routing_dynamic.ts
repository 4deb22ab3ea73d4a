/**
 * RouterOS 7 dynamic routing: `/routing/table`, `/ip/vrf`,
 * `/routing/filter/rule`, OSPF (instance, area, interface-template,
 * neighbor) and BGP (template, connection, session). A simulated router
 * has no neighbours: the neighbour and session tables stay empty.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
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
  int,
  oneOf,
  ro,
  statusTable,
  str,
} from "./common.ts";

const INACTIVE = ro("inactive", "bool", { default: "false" });
const F_INACTIVE = { ch: "I", name: "inactive", group: 0, test: (i: Item) => isTrue(i.inactive) };
const REDISTRIBUTE = [
  "bgp",
  "bgp-mpls-vpn",
  "connected",
  "dhcp",
  "fantasy",
  "modem",
  "ospf",
  "rip",
  "static",
  "vpn",
];
const uniqueName = (error: string) => ({ props: ["name"], error });

/** Every interface named in a comma list exists. */
function interfacesExist(name: string) {
  return (v: string, _i: Item, st: { findByKey(p: string, v: string): Item | undefined }) =>
    v === "" || v.split(",").every((n) => st.findByKey("/interface", n))
      ? undefined
      : `input does not match any value of ${name}`;
}

/** `/routing/table`. */
const TABLE: MenuDef = {
  path: "/routing/table",
  kind: "list",
  key: "name",
  releases: V7,
  props: [
    str("name", { required: true }),
    bool("fib", false),
    DYNAMIC,
    ro("invalid", "bool", { default: "false" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["name", "fib"],
  unique: [uniqueName("failure: table with such name already exists")],
  exportSkip: (i) => isTrue(i.dynamic),
  defaults: () => [{ name: "main", fib: "true", dynamic: "true", disabled: "false" }],
};

/** `/ip/vrf`. */
const VRF: MenuDef = {
  path: "/ip/vrf",
  kind: "list",
  key: "name",
  ordered: true,
  releases: V7,
  props: [
    str("name", { required: true }),
    str("interfaces", { required: true, validate: interfacesExist("interfaces") }),
    ro("builtin", "bool", { default: "false" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, { ch: "*", name: "builtin", group: 1, test: (i) => isTrue(i.builtin) }],
  columns: ["name", "interfaces"],
  unique: [uniqueName("failure: vrf with such name already exists")],
  checkRemove: (i) => {
    if (isTrue(i.builtin)) throw fail("failure: can not remove builtin vrf");
  },
  exportSkip: (i) => isTrue(i.builtin),
  defaults: () => [{ name: "main", interfaces: "all", builtin: "true", disabled: "false" }],
};

/** `/routing/filter/rule`. */
const FILTER_RULE: MenuDef = {
  path: "/routing/filter/rule",
  kind: "list",
  ordered: true,
  releases: V7,
  props: [
    str("chain", { required: true }),
    str("rule", { required: true }),
    INACTIVE,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INACTIVE],
  columns: ["chain", "rule"],
};

/** `/routing/ospf/instance`. */
const OSPF_INSTANCE: MenuDef = {
  path: "/routing/ospf/instance",
  kind: "list",
  key: "name",
  releases: V7,
  props: [
    str("name", { required: true }),
    oneOf("version", ["2", "3"], "2"),
    str("router-id", { default: "main" }),
    { name: "redistribute", type: "list", values: REDISTRIBUTE, default: "" },
    oneOf("originate-default", ["always", "if-installed", "never"], "never"),
    str("routing-table", { default: "main" }),
    str("vrf", { default: "main" }),
    str("in-filter-chain"),
    str("out-filter-chain"),
    INACTIVE,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INACTIVE],
  columns: ["name", "version", "vrf", "router-id"],
  unique: [uniqueName("failure: instance with such name already exists")],
};

/** `/routing/ospf/area`. */
const OSPF_AREA: MenuDef = {
  path: "/routing/ospf/area",
  kind: "list",
  key: "name",
  releases: V7,
  props: [
    str("name", { required: true }),
    { name: "instance", type: "ref", ref: "/routing/ospf/instance", required: true },
    { name: "area-id", type: "ip", default: "0.0.0.0" },
    oneOf("type", ["default", "nssa", "stub"], "default"),
    int("default-cost", undefined, { min: 0 }),
    bool("no-summaries", false),
    INACTIVE,
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INACTIVE, F_DYNAMIC],
  columns: ["name", "instance", "area-id", "type"],
  unique: [uniqueName("failure: area with such name already exists")],
  check: (i) => {
    if (i["area-id"] === "0.0.0.0" && i.type !== "default") {
      throw fail("failure: backbone area must be of type default");
    }
  },
};

/** `/routing/ospf/interface-template`. */
const OSPF_TEMPLATE: MenuDef = {
  path: "/routing/ospf/interface-template",
  kind: "list",
  ordered: true,
  releases: V7,
  props: [
    { name: "area", type: "ref", ref: "/routing/ospf/area", required: true },
    str("interfaces", { validate: interfacesExist("interfaces") }),
    str("networks"),
    oneOf("type", [
      "broadcast",
      "nbma",
      "ptmp",
      "ptmp-broadcast",
      "ptp",
      "ptp-unnumbered",
      "virtual-link",
    ], "broadcast"),
    int("cost", 1, { min: 1, max: 65535 }),
    int("priority", 128, { min: 0, max: 255 }),
    bool("passive", false),
    oneOf("auth", ["md5", "sha1", "sha256", "sha384", "sha512", "simple"]),
    str("auth-key", { sensitive: true }),
    int("auth-id", undefined, { min: 0, max: 255 }),
    { name: "hello-interval", type: "time", default: "10s" },
    { name: "dead-interval", type: "time", default: "40s" },
    INACTIVE,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INACTIVE],
  columns: ["area", "interfaces", "networks", "type", "cost"],
};

/** `/routing/ospf/neighbor`: none on a simulated router. */
const OSPF_NEIGHBOR = statusTable({
  path: "/routing/ospf/neighbor",
  releases: V7,
  props: [
    ro("instance", "str"),
    ro("area", "str"),
    ro("address", "str"),
    ro("interface", "str"),
    ro("router-id", "str"),
    ro("state", "str"),
    ro("state-changes", "int"),
    ro("comment", "str"),
  ],
  columns: ["instance", "area", "address", "state"],
});

/** `/routing/ospf/lsa`: none on a simulated router. */
const OSPF_LSA = statusTable({
  path: "/routing/ospf/lsa",
  releases: V7,
  props: [
    ro("instance", "str"),
    ro("area", "str"),
    ro("type", "str"),
    ro("originator", "str"),
    ro("age", "int"),
    ro("sequence", "str"),
    ro("self-originated", "bool"),
  ],
  columns: ["instance", "area", "type", "originator", "age"],
});

/** What BGP connections and templates share. */
function bgpCommon(): PropDef[] {
  return [
    str("name", { required: true }),
    str("as"),
    str("routing-table"),
    str("vrf"),
    { name: "hold-time", type: "time", values: ["infinity"], default: "3m" },
    { name: "keepalive-time", type: "time", values: ["infinity"], default: "1m" },
    bool("multihop", false),
    str("output.network"),
    { name: "output.redistribute", type: "list", values: REDISTRIBUTE },
    oneOf("output.default-originate", ["always", "if-installed", "never"], "never"),
    str("output.filter-chain"),
    bool("output.keep-sent-attributes", false),
    str("input.filter"),
    bool("use-bfd", false),
    DISABLED,
    COMMENT,
  ];
}

/** `/routing/bgp/template`. */
const BGP_TEMPLATE: MenuDef = {
  path: "/routing/bgp/template",
  kind: "list",
  key: "name",
  releases: V7,
  props: [...bgpCommon(), ro("default", "bool", { default: "false" })],
  flags: [F_DISABLED, { ch: "*", name: "default", group: 1, test: (i) => isTrue(i.default) }],
  columns: ["name", "as"],
  unique: [uniqueName("failure: template with such name already exists")],
  exportSkip: (i) => isTrue(i.default),
  defaults: () => [{
    name: "default",
    "hold-time": "3m",
    "keepalive-time": "1m",
    multihop: "false",
    "output.default-originate": "never",
    "use-bfd": "false",
    default: "true",
    disabled: "false",
  }],
};

/** `/routing/bgp/connection`. */
const BGP_CONNECTION: MenuDef = {
  path: "/routing/bgp/connection",
  kind: "list",
  key: "name",
  releases: V7,
  props: [
    ...bgpCommon(),
    str("remote.address", { required: true }),
    str("remote.as"),
    oneOf(
      "local.role",
      [
        "ebgp",
        "ebgp-customer",
        "ebgp-peer",
        "ebgp-provider",
        "ebgp-rs",
        "ebgp-rs-client",
        "ibgp",
        "ibgp-rr",
      ],
      undefined,
      { required: true },
    ),
    str("local.address"),
    { name: "templates", type: "ref", ref: "/routing/bgp/template" },
    bool("connect", true),
    bool("listen", true),
    str("tcp-md5-key", { sensitive: true }),
    INACTIVE,
    DYNAMIC,
  ],
  flags: [F_DISABLED, F_INACTIVE, F_DYNAMIC],
  columns: ["name", "remote.address", "remote.as", "local.role"],
  unique: [uniqueName("failure: connection with such name already exists")],
};

/** `/routing/bgp/session`: none on a simulated router (it has no peers). */
const BGP_SESSION = statusTable({
  path: "/routing/bgp/session",
  releases: V7,
  props: [
    ro("name", "str"),
    ro("remote.address", "str"),
    ro("remote.as", "str"),
    ro("local.address", "str"),
    ro("established", "bool"),
    ro("uptime", "time"),
    ro("prefix-count", "int"),
    ro("input.last-notification", "str"),
  ],
  columns: ["name", "remote.address", "remote.as"],
});

/** `/routing/bfd/configuration`. */
const BFD_CONFIGURATION: MenuDef = {
  path: "/routing/bfd/configuration",
  kind: "list",
  ordered: true,
  releases: V7,
  props: [
    str("interfaces", { validate: interfacesExist("interfaces") }),
    str("addresses"),
    { name: "min-rx", type: "time", default: "200ms" },
    { name: "min-tx", type: "time", default: "200ms" },
    int("multiplier", 5, { min: 1, max: 255 }),
    bool("forbid-bfd", false),
    str("vrf", { default: "main" }),
    INACTIVE,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INACTIVE],
  columns: ["interfaces", "addresses", "min-rx", "min-tx", "multiplier"],
};

/** `/routing/bfd/session`: none on a simulated router. */
const BFD_SESSION = statusTable({
  path: "/routing/bfd/session",
  releases: V7,
  props: [
    ro("remote-address", "str"),
    ro("local-address", "str"),
    ro("state", "str"),
    ro("up", "bool"),
    ro("uptime", "time"),
    ro("state-changes", "int"),
    ro("multihop", "bool"),
  ],
  columns: ["remote-address", "state", "uptime"],
});

/** `/routing/bgp/advertisements`: none on a simulated router (no session is up). */
const BGP_ADVERTISEMENTS = statusTable({
  path: "/routing/bgp/advertisements",
  releases: V7,
  props: [
    ro("peer", "str"),
    ro("dst", "str"),
    ro("afi", "str"),
    ro("nexthop", "str"),
    ro("origin", "str"),
    ro("as-path", "str"),
    ro("local-pref", "int"),
    ro("med", "int"),
    ro("communities", "str"),
    ro("large-communities", "str"),
    ro("withdrawn", "bool"),
  ],
  columns: ["peer", "dst", "nexthop", "as-path"],
});

/** Dynamic routing menus (RouterOS 7). */
export const DYNAMIC_ROUTING_MENUS: MenuDef[] = [
  TABLE,
  VRF,
  FILTER_RULE,
  OSPF_INSTANCE,
  OSPF_AREA,
  OSPF_TEMPLATE,
  OSPF_NEIGHBOR,
  OSPF_LSA,
  BGP_TEMPLATE,
  BGP_CONNECTION,
  BGP_SESSION,
  BFD_CONFIGURATION,
  BFD_SESSION,
  BGP_ADVERTISEMENTS,
];
