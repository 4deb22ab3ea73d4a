/**
 * `/ip/route` and `/ipv6/route`: static routes plus the connected routes of
 * every address; and `/routing/route` (RouterOS 7), the routing table
 * itself, where both show.
 *
 * @module
 */
import type { FlagDef, Item, MenuDef } from "../menu_types.ts";
import { onRelease, V6, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import { fmtIp4, isPrefix6, network4, parseIp4, parsePrefix4 } from "../ipaddr.ts";
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
import { ifaceUsable } from "./interface_common.ts";

function isGateway(v: string, st: RouterState): boolean {
  return v.split(",").every((g) =>
    parseIp4(g.split("%")[0]) !== null || !!st.findByKey("/interface", g)
  );
}

const static_ = (i: Item) => !isTrue(i.dynamic) && !isTrue(i.connect);

/**
 * Route flags, one column per group. v7: `D - dynamic; X - disabled, I - inactive,
 * A - active; c - connect, s - static, ...; H - hw-offloaded; + - ecmp`
 * (real-output/print-ip-route-detail-v7-policy-routing-docs.txt: five columns,
 * `   DAd   dst-address=`, ` 0  As   dst-address=`), with `B - blackhole` beside
 * `+` as `/routing/route` lists it (print-ipv6-route-detail-v7-docs.txt).
 * v6: `X - disabled, A - active, D - dynamic, C - connect, S - static, ...,
 * B - blackhole, U - unreachable, P - prohibit` in four columns (` 0 A S  dst-address=`,
 * ` 1  Db  dst-address=`, ` 4 A SB dst-address=` in terse-ip-route-mixed-v6-v7.txt
 * and terse-ip-route-v6-comment-recursive.txt).
 */
const ROUTE_FLAGS: FlagDef[] = [
  { ...F_DYNAMIC, group: 0, releases: V7 },
  { ...F_DISABLED, group: 1, releases: V7 },
  {
    ch: "A",
    name: "active",
    group: 1,
    releases: V7,
    test: (i) => isTrue(i.active) && !isTrue(i.disabled),
  },
  { ch: "c", name: "connect", group: 2, releases: V7, test: (i) => isTrue(i.connect) },
  { ch: "s", name: "static", group: 2, releases: V7, test: static_ },
  { ch: "H", name: "hw-offloaded", group: 3, releases: V7, test: () => false },
  { ch: "+", name: "ecmp", group: 4, releases: V7, test: () => false },
  { ch: "B", name: "blackhole", group: 4, releases: V7, test: (i) => isTrue(i.blackhole) },
  { ...F_DISABLED, group: 0, releases: V6 },
  {
    ch: "A",
    name: "active",
    group: 0,
    releases: V6,
    test: (i) => isTrue(i.active) && !isTrue(i.disabled),
  },
  { ...F_DYNAMIC, group: 1, releases: V6 },
  { ch: "C", name: "connect", group: 2, releases: V6, test: (i) => isTrue(i.connect) },
  { ch: "S", name: "static", group: 2, releases: V6, test: static_ },
  { ch: "B", name: "blackhole", group: 3, releases: V6, test: (i) => i.type === "blackhole" },
  { ch: "U", name: "unreachable", group: 3, releases: V6, test: (i) => i.type === "unreachable" },
  { ch: "P", name: "prohibit", group: 3, releases: V6, test: (i) => i.type === "prohibit" },
];

/** `suppress-hw-offload` of routes: the 7.12.2 to 7.20.8 trees have it, the 7.22.3 tree not. */
const SUPPRESS_HW_OFFLOAD = { from: "7.0", until: "7.20" };

/**
 * Print order of a route. v6: `dst-address= pref-src= gateway= gateway-status=
 * distance= scope= target-scope= routing-mark=` (`type=blackhole` after
 * `dst-address=`) in real-output/terse-ip-route-mixed-v6-v7.txt and
 * terse-ip-route-v6-comment-recursive.txt; v7: `dst-address= routing-table=
 * pref-src= gateway= immediate-gw= distance= scope= target-scope=
 * vrf-interface= suppress-hw-offload= local-address=` (the v7 lines of the
 * first, print-ip-route-detail-v7-policy-routing-docs.txt).
 */
const ROUTE_ORDER6 = [
  "dst-address",
  "type",
  "pref-src",
  "gateway",
  "gateway-status",
  "check-gateway",
  "distance",
  "scope",
  "target-scope",
  "routing-mark",
];
const ROUTE_ORDER7 = [
  "dst-address",
  "routing-table",
  "pref-src",
  "gateway",
  "immediate-gw",
  "check-gateway",
  "distance",
  "scope",
  "target-scope",
  "vrf-interface",
  "suppress-hw-offload",
  "local-address",
];

/**
 * v6 `gateway-status`: `bridge-lan reachable` for an interface,
 * `192.168.8.1 reachable via  lte1` (two blanks) for an address
 * (terse-ip-route-v6-comment-recursive.txt), `unreachable` when no
 * connected network holds it.
 */
function gatewayStatus(i: Item, st: RouterState): string | undefined {
  if (!i.gateway) return undefined;
  return i.gateway.split(",").map((g) => {
    if (parseIp4(g) === null) return `${g} reachable`;
    const via = st.stored(st.menus.byPath("/ip/address")!).find((a) => {
      const px = parsePrefix4(a.address);
      const ip = parseIp4(g);
      return px && ip !== null && !isTrue(a.disabled) &&
        network4(px.ip, px.len) === network4(ip, px.len);
    });
    return via ? `${g} reachable via  ${via.interface}` : `${g} unreachable`;
  }).join(",");
}

/** `/ip/route`: static routes plus connected routes of every address. */
export const ROUTE: MenuDef = {
  path: "/ip/route",
  unset: {},
  kind: "list",
  props: [
    // RouterOS 7 writes `dst-address=0.0.0.0/0` in every export; RouterOS 6 leaves
    // the default out and writes `distance=1` (`/ip route` `add distance=1
    // gateway=192.168.56.1` of a public 6.48.5 export, `add dst-address=0.0.0.0/0
    // gateway=172.26.40.1` of a 7.x one; issue 34).
    { name: "dst-address", type: "prefix", default: "0.0.0.0/0", exportAlways: V7 },
    str("gateway", {
      validate: (
        v,
        _i,
        st,
      ) => (isGateway(v, st) ? undefined : "invalid value for argument gateway"),
    }),
    ro("immediate-gw", "str", {
      releases: V7,
      bare: true,
      compute: (i) => i["immediate-gw"] ?? immediateGw(i),
    }),
    int("distance", 1, { min: 0, max: 255, exportAlways: V6 }),
    int("scope", 30, { min: 0, max: 255 }),
    int("target-scope", 10, { min: 0, max: 255 }),
    str("routing-table", { default: "main", releases: V7 }),
    str("routing-mark", { releases: V6 }),
    str("pref-src"),
    oneOf("check-gateway", ["arp", "bfd", "bfd-multihop", "none", "ping"]),
    bool("blackhole", false, { releases: V7 }),
    // no default: a unicast route prints no `type=` (` 0 A S  dst-address=0.0.0.0/0
    // gateway=...`, ` 4 A SB dst-address=10.0.0.0/8 type=blackhole` in
    // real-output/terse-ip-route-v6-comment-recursive.txt)
    oneOf("type", ["unicast", "blackhole", "prohibit", "unreachable"], undefined, {
      releases: V6,
    }),
    str("vrf-interface", { releases: V7 }),
    // 7.12.2 to 7.20.8 trees have it, the 7.22.3 tree not
    bool("suppress-hw-offload", false, { releases: SUPPRESS_HW_OFFLOAD }),
    ro("gateway-status", "str", {
      releases: V6,
      bare: true,
      compute: (i, st) => gatewayStatus(i, st),
    }),
    ro("local-address", "str", {
      releases: V7,
      bare: true,
      compute: (
        i,
      ) => (isTrue(i.connect) && i["pref-src"] ? `${i["pref-src"]}%${i.gateway}` : undefined),
    }),
    ro("active", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    ro("connect", "bool", { compute: (i) => i.connect ?? "false" }),
    ro("static", "bool", { compute: (i) => String(!isTrue(i.dynamic)) }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: ROUTE_FLAGS,
  unnumberedDynamic: V7,
  printOrder: (st) => (st.v6 ? ROUTE_ORDER6 : ROUTE_ORDER7),
  switches: ["blackhole"],
  columns: ["dst-address", "gateway", "routing-table", "distance"],
  columns6: ["dst-address", "pref-src", "gateway", "distance"],
  check: (it) => {
    if (!it.gateway && !isTrue(it.blackhole) && (it.type ?? "unicast") === "unicast") {
      throw fail("failure: gateway not specified");
    }
  },
  defaults: () => [{
    "dst-address": "0.0.0.0/0",
    gateway: "192.168.88.254",
    distance: "1",
    scope: "30",
    "target-scope": "10",
    "routing-table": "main",
    disabled: "false",
    dynamic: "false",
    blackhole: "false",
  }],
  dynamic: (st) => {
    const out: Item[] = [];
    for (const a of st.stored(st.menus.byPath("/ip/address")!)) {
      if (isTrue(a.disabled) || !ifaceUsable(st, a.interface)) continue;
      const px = parsePrefix4(a.address)!;
      const n = Number.parseInt(a[".id"].slice(1), 16);
      out.push({
        ".id": "*" + (0x80000000 + n).toString(16).toUpperCase(),
        "dst-address": `${fmtIp4(network4(px.ip, px.len))}/${px.len}`,
        gateway: a.interface,
        "immediate-gw": a.interface,
        "pref-src": a.address.split("/")[0],
        distance: "0",
        scope: "10",
        // a v6 connected route prints no target-scope (` 1 ADC  dst-address=...
        // distance=0 scope=10` in real-output/terse-ip-route-mixed-v6-v7.txt)
        ...(st.v6 ? {} : { "target-scope": "5", "routing-table": "main" }),
        ...(onRelease(st.release, SUPPRESS_HW_OFFLOAD) ? { "suppress-hw-offload": "false" } : {}),
        connect: "true",
        dynamic: "true",
        disabled: "false",
      });
    }
    return out;
  },
};

function immediateGw(i: Item): string | undefined {
  if (!i.gateway) return undefined;
  const g = i.gateway.split(",")[0];
  return parseIp4(g) !== null ? `${g}%bridge` : g;
}

/** `/ipv6/route`: static routes plus connected routes of every IPv6 address. */
export const IPV6_ROUTE: MenuDef = {
  path: "/ipv6/route",
  unset: {},
  kind: "list",
  props: [
    { name: "dst-address", type: "prefix6", default: "::/0", exportAlways: true },
    str("gateway", {
      validate: (v, _i, st) =>
        v.split(",").every((g) => isPrefix6(g.split("%")[0]) || !!st.findByKey("/interface", g))
          ? undefined
          : "invalid value for argument gateway",
    }),
    int("distance", 1, { min: 0, max: 255 }),
    int("scope", 30, { min: 0, max: 255 }),
    int("target-scope", 10, { min: 0, max: 255 }),
    str("routing-table", { default: "main", releases: V7 }),
    bool("blackhole", false, { releases: V7 }),
    oneOf("type", ["unicast", "unreachable"], "unicast", { releases: V6 }),
    ro("active", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    ro("connect", "bool", { compute: (i) => i.connect ?? "false" }),
    ro("static", "bool", { compute: (i) => String(!isTrue(i.dynamic)) }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: ROUTE.flags,
  unnumberedDynamic: V7,
  switches: ["blackhole"],
  columns: ["dst-address", "gateway", "routing-table", "distance"],
  columns6: ["dst-address", "gateway", "distance"],
  check: (it) => {
    if (!it.gateway && !isTrue(it.blackhole) && (it.type ?? "unicast") === "unicast") {
      throw fail("failure: gateway not specified");
    }
  },
  dynamic: (st) =>
    st.list(st.menus.byPath("/ipv6/address")!).filter((a) => !isTrue(a.disabled)).map((a) => ({
      ".id": "*" + (0x80000000 + Number.parseInt(a[".id"].slice(1), 16)).toString(16).toUpperCase(),
      "dst-address": a.address.startsWith("fe80") ? "fe80::/64" : a.address,
      gateway: a.interface,
      distance: "0",
      scope: "10",
      "target-scope": "5",
      ...(st.v6 ? {} : { "routing-table": "main" }),
      connect: "true",
      dynamic: "true",
      disabled: "false",
    })),
};

/**
 * `/routing/route` flags, as RouterOS 7 lists them
 * (`real-output/print-ipv6-route-detail-v7-docs.txt`: `X - disabled,
 * F - filtered, U - unreachable, A - active; c - connect, s - static, ...;
 * H - hw-offloaded; + - ecmp, B - blackhole`); the demo's routes use these.
 */
const TABLE_FLAGS: FlagDef[] = [
  { ...F_DISABLED, group: 0 },
  { ch: "A", name: "active", group: 0, test: (i) => isTrue(i.active) },
  { ch: "c", name: "connect", group: 1, test: (i) => isTrue(i.connect) },
  { ch: "s", name: "static", group: 1, test: (i) => isTrue(i.static) },
  { ch: "H", name: "hw-offloaded", group: 2, test: () => false },
  { ch: "+", name: "ecmp", group: 3, test: () => false },
  { ch: "B", name: "blackhole", group: 3, test: (i) => isTrue(i.blackhole) },
];

/** One route of `/ip/route` or `/ipv6/route` as the routing table shows it. */
function tableEntry(r: Item, afi: "ip4" | "ip6", n: number): Item {
  const active = isTrue(r.active) && !isTrue(r.disabled);
  const out: Item = {
    ".id": "*" + (0x80000000 + n).toString(16).toUpperCase(),
    afi,
    ...(active ? { contribution: "active" } : {}),
    "dst-address": r["dst-address"],
    "routing-table": r["routing-table"] ?? "main",
    ...(r["pref-src"] !== undefined ? { "pref-src": r["pref-src"] } : {}),
    ...(r.gateway !== undefined ? { gateway: r.gateway } : {}),
    ...(r["immediate-gw"] ?? r.gateway ? { "immediate-gw": r["immediate-gw"] ?? r.gateway } : {}),
    distance: r.distance,
    scope: r.scope,
    "target-scope": r["target-scope"],
    active: String(active),
    connect: r.connect ?? "false",
    static: String(!isTrue(r.dynamic)),
    blackhole: r.blackhole ?? "false",
    disabled: r.disabled ?? "false",
  };
  if (r.comment !== undefined) out.comment = r.comment;
  return out;
}

/**
 * `/routing/route` (RouterOS 7): every IPv4 and IPv6 route in one table.
 * Read here; the real menu also takes comment, enable, disable and set on
 * static routes, which the demo leaves to `/ip/route`. Print order:
 * `print-ipv6-route-detail-v7-docs.txt` (`afi= contribution= dst-address=
 * routing-table= pref-src= gateway= immediate-gw= distance= scope=
 * target-scope=`); its `belongs-to`, `mtu`, `hoplimit` and `debug.*` are
 * left out: no capture shows them for connected or static routes.
 */
export const ROUTING_TABLE: MenuDef = statusTable({
  path: "/routing/route",
  releases: V7,
  props: [
    ro("afi", "str"),
    ro("contribution", "str"),
    ro("dst-address", "str"),
    ro("routing-table", "str"),
    ro("pref-src", "str"),
    ro("gateway", "str"),
    ro("immediate-gw", "str"),
    ro("distance", "int"),
    ro("scope", "int"),
    ro("target-scope", "int"),
    ro("active", "bool"),
    ro("connect", "bool"),
    ro("static", "bool"),
    ro("blackhole", "bool"),
    ro("disabled", "bool"),
    ro("comment", "str"),
  ],
  flags: TABLE_FLAGS,
  columns: ["dst-address", "routing-table", "gateway", "distance"],
  dynamic: (st) =>
    [
      ...st.list(ROUTE).map((r) => ({ r, afi: "ip4" as const })),
      ...st.list(IPV6_ROUTE).map((r) => ({ r, afi: "ip6" as const })),
    ].map(({ r, afi }, n) => tableEntry(r, afi, n + 1)),
});
