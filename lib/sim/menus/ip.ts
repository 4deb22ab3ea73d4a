/** `/ip` and `/ipv6` menus: addresses, pools, DHCP, DNS, routes, services, neighbors. */
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
  F_INVALID,
  ifaceRef,
  int,
  INVALID,
  mac,
  oneOf,
  ro,
  str,
} from "./common.ts";
import { menuByPath } from "./registry.ts";

function networkOf(address: string | undefined): string | undefined {
  const px = address ? parsePrefix4(address) : null;
  return px ? fmtIp4(network4(px.ip, px.len)) : undefined;
}

function ifaceUsable(st: RouterState, name: string): boolean {
  const it = st.findByKey("/interface", name);
  return !!it && !isTrue(it.disabled);
}

/** `/ip/address`. */
export const IP_ADDRESS: MenuDef = {
  path: "/ip/address",
  kind: "list",
  props: [
    { name: "address", type: "prefix", required: true },
    { name: "network", type: "ip", default: (i) => networkOf(i.address) },
    ifaceRef("interface", { required: true }),
    ro("actual-interface", "ref", { compute: (i) => i.interface }),
    { ...INVALID, compute: (i, st) => String(!ifaceUsable(st, i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["address", "network", "interface"],
  check: (item, st, old) => {
    if (old && item.address !== old.address && item.network === old.network) {
      item.network = networkOf(item.address)!;
    }
    const ip = item.address.split("/")[0];
    const dup = st.stored(IP_ADDRESS).some((o) =>
      o[".id"] !== item[".id"] && o.address.split("/")[0] === ip && o.interface === item.interface
    );
    if (dup) throw fail("failure: already have such address");
  },
  defaults: () => [{
    address: "192.168.88.1/24",
    network: "192.168.88.0",
    interface: "bridge",
    comment: "defconf",
    disabled: "false",
    dynamic: "false",
  }],
};

function rangesOk(v: string): string | undefined {
  for (const r of v.split(",")) {
    const [a, b, ...rest] = r.split("-");
    if (rest.length || parseIp4(a) === null || (b !== undefined && parseIp4(b) === null)) {
      return "invalid value for argument ranges";
    }
  }
  return undefined;
}

/** `/ip/pool`. */
const POOL: MenuDef = {
  path: "/ip/pool",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `pool${st.stored(POOL).length + 1}` }),
    str("ranges", { required: true, validate: rangesOk }),
    { name: "next-pool", type: "ref", ref: "/ip/pool", refAllow: ["none"] },
    COMMENT,
  ],
  columns: ["name", "ranges"],
  unique: [{ props: ["name"], error: "failure: pool with such name already exists" }],
  checkRemove: (it, st) => {
    if (st.stored(DHCP_SERVER).some((d) => d["address-pool"] === it.name)) {
      throw fail("failure: pool is used by dhcp-server");
    }
  },
  defaults: () => [{ name: "default-dhcp", ranges: "192.168.88.10-192.168.88.254" }],
};

/** `/ip/pool/used`: addresses handed out by DHCP. */
const POOL_USED: MenuDef = {
  path: "/ip/pool/used",
  kind: "list",
  verbs: ["print", "find", "get"],
  noAdd: true,
  noExport: true,
  props: [ro("pool", "str"), ro("address", "ip"), ro("owner", "str"), ro("info", "str")],
  columns: ["pool", "address", "owner", "info"],
  dynamic: (st) => {
    const out: Item[] = [];
    let n = 0;
    for (const l of st.stored(LEASE)) {
      const srv = st.stored(DHCP_SERVER).find((d) => d.name === l.server);
      const pool = srv?.["address-pool"];
      if (!pool || pool === "static-only" || !isTrue(l.dynamic)) continue;
      out.push({
        ".id": `*${(++n).toString(16).toUpperCase()}`,
        pool,
        address: l.address,
        owner: l["mac-address"],
        info: "dhcp",
      });
    }
    return out;
  },
};

/** `/ip/dhcp-server`. */
const DHCP_SERVER: MenuDef = {
  path: "/ip/dhcp-server",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `dhcp${st.stored(DHCP_SERVER).length + 1}` }),
    ifaceRef("interface", { required: true }),
    {
      name: "address-pool",
      type: "ref",
      ref: "/ip/pool",
      refAllow: ["static-only"],
      default: "static-only",
    },
    { name: "lease-time", type: "time", default: (_i, st) => (st.v6 ? "10m" : "30m") },
    oneOf("authoritative", ["after-10sec-delay", "after-2sec-delay", "no", "yes"], "yes"),
    bool("add-arp", false),
    str("lease-script", { default: "" }),
    { ...INVALID, compute: (i, st) => String(!st.findByKey("/interface", i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["name", "interface", "address-pool", "lease-time"],
  unique: [
    { props: ["name"], error: "failure: server with such name already exists" },
    { props: ["interface"], error: "failure: server for such interface already exists" },
  ],
  defaults: (st) => [{
    name: "defconf",
    interface: "bridge",
    "address-pool": "default-dhcp",
    "lease-time": st.v6 ? "10m" : "30m",
    authoritative: "yes",
    "add-arp": "false",
    "lease-script": "",
    disabled: "false",
    dynamic: "false",
  }],
};

/** `/ip/dhcp-server/network`. */
const DHCP_NETWORK: MenuDef = {
  path: "/ip/dhcp-server/network",
  unset: {},
  kind: "list",
  props: [
    { name: "address", type: "prefix", required: true },
    { name: "gateway", type: "str", default: "" },
    str("dns-server", { default: "" }),
    str("domain", { default: "" }),
    str("ntp-server", { default: "" }),
    { name: "netmask", type: "int", min: 0, max: 32 },
    DYNAMIC,
    COMMENT,
  ],
  flags: [F_DYNAMIC],
  columns: ["address", "gateway", "dns-server"],
  unique: [{ props: ["address"], error: "failure: already have such network" }],
  defaults: () => [{
    address: "192.168.88.0/24",
    gateway: "192.168.88.1",
    "dns-server": "192.168.88.1",
    domain: "",
    "ntp-server": "",
    comment: "defconf",
    dynamic: "false",
  }],
};

/** `/ip/dhcp-server/lease`. */
const LEASE: MenuDef = {
  path: "/ip/dhcp-server/lease",
  unset: {},
  kind: "list",
  props: [
    { name: "address", type: "ip", required: true },
    { name: "mac-address", type: "mac", required: true },
    { name: "server", type: "ref", ref: "/ip/dhcp-server", refAllow: ["all"], default: "all" },
    str("client-id"),
    { name: "lease-time", type: "time", default: "0s" },
    bool("block-access", false),
    ro("host-name", "str"),
    ro("active-address", "ip", {
      compute: (i) => (isTrue(i.dynamic) ? i.address : i["active-address"]),
    }),
    ro("status", "str", { compute: (i) => i.status ?? "waiting" }),
    ro("last-seen", "str", { compute: (i) => i["last-seen"] ?? "never" }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, { ch: "R", name: "radius", group: 0, test: () => false }, F_DYNAMIC, {
    ch: "B",
    name: "blocked",
    group: 2,
    test: (i) => isTrue(i["block-access"]),
  }],
  columns: ["address", "mac-address", "host-name", "server", "status", "last-seen"],
  unique: [{
    props: ["mac-address", "server"],
    error: "failure: already have static lease with this mac address",
  }],
  exportSkip: (i) => isTrue(i.dynamic),
  commands: {
    "make-static": {
      numbers: true,
      write: true,
      run: (c) => {
        for (const id of c.ids) {
          const it = c.st.stored(LEASE).find((l) => l[".id"] === id);
          if (it) it.dynamic = "false";
        }
        c.st.touch();
      },
    },
  },
  defaults: () => [
    {
      address: "192.168.88.254",
      "mac-address": "3C:22:FB:11:22:33",
      server: "defconf",
      "client-id": "1:3c:22:fb:11:22:33",
      "host-name": "laptop",
      status: "bound",
      "last-seen": "1m2s",
      dynamic: "true",
      "lease-time": "30m",
      "block-access": "false",
      disabled: "false",
    },
    {
      address: "192.168.88.253",
      "mac-address": "A4:83:E7:44:55:66",
      server: "defconf",
      "client-id": "1:a4:83:e7:44:55:66",
      "host-name": "phone",
      status: "bound",
      "last-seen": "12s",
      dynamic: "true",
      "lease-time": "30m",
      "block-access": "false",
      disabled: "false",
    },
  ],
};

/** `/ip/dhcp-client`. */
const DHCP_CLIENT: MenuDef = {
  path: "/ip/dhcp-client",
  unset: {},
  kind: "list",
  props: [
    ifaceRef("interface", { required: true }),
    bool("add-default-route", true),
    bool("use-peer-dns", true),
    bool("use-peer-ntp", true),
    int("default-route-distance", 1),
    ro("status", "str", { compute: (i) => (isTrue(i.disabled) ? "stopped" : "searching...") }),
    ro("address", "str", { compute: () => "" }),
    { ...INVALID, compute: (i, st) => String(!st.findByKey("/interface", i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["interface", "use-peer-dns", "add-default-route", "status", "address"],
  unique: [{
    props: ["interface"],
    error: "failure: dhcp-client on that interface already exists",
  }],
  defaults: () => [{
    interface: "ether1",
    comment: "defconf",
    "add-default-route": "true",
    "use-peer-dns": "true",
    "use-peer-ntp": "true",
    "default-route-distance": "1",
    disabled: "false",
    dynamic: "false",
  }],
};

/** `/ip/dns` (singleton). */
const DNS: MenuDef = {
  path: "/ip/dns",
  kind: "single",
  props: [
    str("servers", {
      default: "",
      validate: (
        v,
      ) => (v === "" || v.split(",").every((x) => parseIp4(x) !== null || x.includes(":"))
        ? undefined
        : "invalid value for argument servers"),
    }),
    ro("dynamic-servers", "str", { compute: () => "" }),
    str("use-doh-server", { default: "", releases: V7 }),
    bool("verify-doh-cert", false, { releases: V7 }),
    bool("allow-remote-requests", true),
    int("max-udp-packet-size", 4096, { min: 50, max: 65507 }),
    { name: "query-server-timeout", type: "time", default: "2s" },
    { name: "query-total-timeout", type: "time", default: "10s" },
    int("max-concurrent-queries", 100),
    int("max-concurrent-tcp-sessions", 20),
    int("cache-size", 2048, { min: 64, max: 4294967295 }),
    { name: "cache-max-ttl", type: "time", default: "1w" },
    ro("cache-used", "int", {
      compute: (_i, st) => String(st.table("/ip/dns/cache").items.length * 4 + 30),
    }),
  ],
  defaults: () => [{
    servers: "",
    "use-doh-server": "",
    "verify-doh-cert": "false",
    "allow-remote-requests": "true",
    "max-udp-packet-size": "4096",
    "query-server-timeout": "2s",
    "query-total-timeout": "10s",
    "max-concurrent-queries": "100",
    "max-concurrent-tcp-sessions": "20",
    "cache-size": "2048",
    "cache-max-ttl": "1w",
  }],
};

/** `/ip/dns/static`. */
const DNS_STATIC: MenuDef = {
  path: "/ip/dns/static",
  kind: "list",
  ordered: true,
  props: [
    str("name"),
    str("regexp"),
    {
      name: "type",
      type: "enum",
      values: ["A", "AAAA", "CNAME", "FWD", "MX", "NS", "NXDOMAIN", "SRV", "TXT"],
      default: "A",
    },
    {
      name: "address",
      type: "str",
      validate: (
        v,
      ) => (parseIp4(v) !== null || v.includes(":")
        ? undefined
        : "invalid value for argument address"),
    },
    str("cname"),
    str("text"),
    str("forward-to"),
    { name: "ttl", type: "time", default: "1d" },
    bool("match-subdomain", false, { releases: V7 }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["name", "regexp", "type", "address", "ttl"],
  columns6: ["name", "regexp", "type", "address", "ttl"],
  check: (it) => {
    if (!it.name && !it.regexp) throw fail("failure: name or regexp must be set");
  },
  defaults: (
    st,
  ) => (st.v6 ? [] : [{
    name: "router.lan",
    type: "A",
    address: "192.168.88.1",
    ttl: "1d",
    comment: "defconf",
    "match-subdomain": "false",
    disabled: "false",
    dynamic: "false",
  }]),
};

/** `/ip/dns/cache`. */
const DNS_CACHE: MenuDef = {
  path: "/ip/dns/cache",
  kind: "list",
  verbs: ["print", "find", "get"],
  noAdd: true,
  noExport: true,
  props: [
    ro("name", "str"),
    ro("type", "str"),
    ro("data", "str"),
    ro("ttl", "str"),
    ro("static", "bool"),
  ],
  columns: ["name", "type", "data", "ttl"],
  commands: {
    flush: {
      write: true,
      run: (c) => {
        c.st.table("/ip/dns/cache").items.length = 0;
        c.st.touch();
      },
    },
  },
  defaults: () => [
    {
      name: "upgrade.mikrotik.com",
      type: "A",
      data: "159.148.147.251",
      ttl: "23h59m10s",
      static: "false",
    },
    {
      name: "cloud.mikrotik.com",
      type: "A",
      data: "159.148.172.251",
      ttl: "9m37s",
      static: "false",
    },
    { name: "router.lan", type: "A", data: "192.168.88.1", ttl: "1d", static: "true" },
  ],
};

function isGateway(v: string, st: RouterState): boolean {
  return v.split(",").every((g) =>
    parseIp4(g.split("%")[0]) !== null || !!st.findByKey("/interface", g)
  );
}

const static_ = (i: Item) => !isTrue(i.dynamic) && !isTrue(i.connect);

/**
 * Route flags. v7: `D - DYNAMIC; X - DISABLED, A - ACTIVE; c - CONNECT, s - STATIC; B - BLACKHOLE`;
 * v6: `X - disabled, A - active, D - dynamic, C - connect, S - static, ..., B - blackhole,
 * U - unreachable, P - prohibit`.
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
  { ch: "B", name: "blackhole", group: 3, releases: V7, test: (i) => isTrue(i.blackhole) },
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

/** `/ip/route`: static routes plus connected routes of every address. */
const ROUTE: MenuDef = {
  path: "/ip/route",
  unset: {},
  kind: "list",
  props: [
    { name: "dst-address", type: "prefix", default: "0.0.0.0/0", exportAlways: true },
    str("gateway", {
      validate: (
        v,
        _i,
        st,
      ) => (isGateway(v, st) ? undefined : "invalid value for argument gateway"),
    }),
    ro("immediate-gw", "str", {
      releases: V7,
      compute: (i) => i["immediate-gw"] ?? immediateGw(i),
    }),
    int("distance", 1, { min: 0, max: 255 }),
    int("scope", 30, { min: 0, max: 255 }),
    int("target-scope", 10, { min: 0, max: 255 }),
    str("routing-table", { default: "main", releases: V7 }),
    str("routing-mark", { releases: V6 }),
    str("pref-src"),
    oneOf("check-gateway", ["arp", "bfd", "bfd-multihop", "none", "ping"]),
    bool("blackhole", false, { releases: V7 }),
    oneOf("type", ["unicast", "blackhole", "prohibit", "unreachable"], "unicast", {
      releases: V6,
    }),
    str("vrf-interface", { releases: V7 }),
    ro("active", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    ro("connect", "bool", { compute: (i) => i.connect ?? "false" }),
    ro("static", "bool", { compute: (i) => String(!isTrue(i.dynamic)) }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: ROUTE_FLAGS,
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
    for (const a of st.stored(IP_ADDRESS)) {
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
        "target-scope": "5",
        ...(st.v6 ? {} : { "routing-table": "main" }),
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

/** `/ipv6/address`. */
const IPV6_ADDRESS: MenuDef = {
  path: "/ipv6/address",
  kind: "list",
  props: [
    { name: "address", type: "prefix6", required: true },
    ifaceRef("interface", { required: true }),
    ro("actual-interface", "ref", { compute: (i) => i.interface }),
    bool("advertise", true),
    bool("eui-64", false),
    bool("no-dad", false),
    str("from-pool"),
    { ...INVALID, compute: (i, st) => String(!ifaceUsable(st, i.interface)) },
    ro("link-local", "bool", { compute: (i) => String(/^fe80:/i.test(i.address)) }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [
    F_DISABLED,
    F_INVALID,
    F_DYNAMIC,
    { ch: "L", name: "link-local", group: 2, test: (i) => isTrue(i["link-local"]) },
  ],
  columns: ["address", "from-pool", "interface", "advertise"],
  unique: [{ props: ["address", "interface"], error: "failure: already have such address" }],
  dynamic: (st) =>
    st.stored(menuByPath("/interface")!).filter((i) => i.type === "bridge" || i.name === "ether1")
      .map((i) => ({
        ".id": "*" +
          (0x80000000 + Number.parseInt(i[".id"].slice(1), 16)).toString(16).toUpperCase(),
        address: `fe80::4aa9:8aff:fe12:34${
          Number.parseInt(i["mac-address"]?.slice(-2) ?? "0", 16).toString(16).padStart(2, "0")
        }/64`,
        interface: i.name,
        advertise: "false",
        "eui-64": "false",
        "no-dad": "false",
        dynamic: "true",
        disabled: "false",
      })),
};

const SERVICES: [string, number][] = [
  ["telnet", 23],
  ["ftp", 21],
  ["www", 80],
  ["ssh", 22],
  ["www-ssl", 443],
  ["api", 8728],
  ["winbox", 8291],
  ["api-ssl", 8729],
];

/** `/ip/service`. */
const SERVICE: MenuDef = {
  path: "/ip/service",
  unset: { until: "7.16" },
  kind: "list",
  key: "name",
  noAdd: true,
  exportFindBy: "name",
  props: [
    ro("name", "str"),
    int("port", undefined, { min: 1, max: 65535 }),
    str("address", { default: "" }),
    str("certificate", { default: "none" }),
    oneOf("tls-version", ["any", "only-1.2"]),
    str("vrf", { default: "main", releases: V7 }),
    // the 7.12.2 and 7.13.5 trees lack it, 7.16.2 has it
    int("max-sessions", 20, { releases: { from: "7.16" } }),
    { ...INVALID, compute: () => "false" },
    DISABLED,
  ],
  flags: [F_DISABLED, F_INVALID],
  columns: ["name", "port", "address", "certificate", "vrf", "max-sessions"],
  columns6: ["name", "port", "address", "certificate"],
  defaults: (st) =>
    SERVICES.map(([name, port]) => ({
      name,
      port: String(port),
      address: "",
      certificate: name.endsWith("ssl") ? "none" : "",
      ...(st.v6 ? {} : { vrf: "main" }),
      ...(onRelease(st.release, { from: "7.16" }) ? { "max-sessions": "20" } : {}),
      disabled: String(name === "www-ssl" || name === "api-ssl"),
    })).map((i) => (i.certificate === "" ? (({ certificate: _c, ...r }) => r)(i) : i)),
};

/** `/ip/neighbor`: devices seen by discovery. */
const NEIGHBOR: MenuDef = {
  path: "/ip/neighbor",
  kind: "list",
  verbs: ["print", "find", "get"],
  noAdd: true,
  noExport: true,
  props: [
    ro("interface", "str"),
    ro("address", "str"),
    ro("mac-address", "mac"),
    ro("identity", "str"),
    ro("platform", "str"),
    ro("version", "str"),
    ro("board", "str"),
    ro("uptime", "str"),
  ],
  columns: ["interface", "address", "mac-address", "identity", "version", "board"],
  defaults: () => [{
    interface: "ether1",
    address: "192.168.88.254",
    "mac-address": "D4:01:C3:AA:BB:CC",
    identity: "upstream-gw",
    platform: "MikroTik",
    version: "7.15.3 (stable)",
    board: "RB5009UG+S+",
    uptime: "3w2d4h",
  }],
};

/** `/ipv6/route`: static routes plus connected routes of every IPv6 address. */
const IPV6_ROUTE: MenuDef = {
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
  switches: ["blackhole"],
  columns: ["dst-address", "gateway", "routing-table", "distance"],
  columns6: ["dst-address", "gateway", "distance"],
  check: (it) => {
    if (!it.gateway && !isTrue(it.blackhole) && (it.type ?? "unicast") === "unicast") {
      throw fail("failure: gateway not specified");
    }
  },
  dynamic: (st) =>
    st.list(IPV6_ADDRESS).filter((a) => !isTrue(a.disabled)).map((a) => ({
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

/** IPv4/IPv6 menus. */
export const IP_MENUS: MenuDef[] = [
  POOL,
  POOL_USED,
  DHCP_SERVER,
  DHCP_NETWORK,
  LEASE,
  DHCP_CLIENT,
  DNS,
  DNS_STATIC,
  DNS_CACHE,
  IP_ADDRESS,
  ROUTE,
  SERVICE,
  NEIGHBOR,
  IPV6_ADDRESS,
  IPV6_ROUTE,
];
export { mac };
