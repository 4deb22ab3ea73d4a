/**
 * `/ip` and `/ipv6` menus: addresses, pools, services, neighbors; DHCP, DNS,
 * routes, and ARP and IPv6 neighbours are in their own files.
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
import { onRelease, V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import { fmtIp4, network4, parseIp4, parsePrefix4 } from "../ipaddr.ts";
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
  statusTable,
  str,
} from "./common.ts";
import { DHCP_MENUS } from "./ip_dhcp.ts";
import { ifaceUsable } from "./interface_common.ts";
import { DNS_MENUS } from "./ip_dns.ts";
import { IPV6_ROUTE, ROUTE, ROUTING_TABLE } from "./ip_routes.ts";
import { NEIGHBOR_TABLE_MENUS } from "./ip_neighbor_tables.ts";

function networkOf(address: string | undefined): string | undefined {
  const px = address ? parsePrefix4(address) : null;
  return px ? fmtIp4(network4(px.ip, px.len)) : undefined;
}

/** `/ip/address`. */
export const IP_ADDRESS: MenuDef = {
  path: "/ip/address",
  kind: "list",
  props: [
    { name: "address", type: "prefix", required: true },
    // every export writes it (`add address=192.168.88.1/24 comment=defconf interface=ether1
    // network=192.168.88.0` in real-output/export-v6.42.5-ansible.txt, the same in
    // export-show-sensitive-v7.15.2-exec-oxidized.txt and -v7.18.2-)
    { name: "network", type: "ip", default: (i) => networkOf(i.address), exportAlways: true },
    ifaceRef("interface", { required: true }),
    ro("actual-interface", "ref", { compute: (i) => i.interface }),
    { ...INVALID, compute: (i, st) => String(!ifaceUsable(st, i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  // One flag column (X, I and D): ` 1 D address=` in
  // real-output/print-ip-address-detail-v6.42-ansible.txt, `Flags: X - DISABLED, I - INVALID,
  // D - DYNAMIC` (one group) in print-ip-address-table-v7-flags-disabled.txt.
  flags: [F_DISABLED, F_INVALID, { ...F_DYNAMIC, group: 0 }],
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
    if (st.stored(st.menus.byPath("/ip/dhcp-server")!).some((d) => d["address-pool"] === it.name)) {
      throw fail("failure: pool is used by dhcp-server");
    }
  },
  defaults: () => [{ name: "default-dhcp", ranges: "192.168.88.10-192.168.88.254" }],
};

/** `/ip/pool/used`: addresses handed out by DHCP. */
const POOL_USED = statusTable({
  path: "/ip/pool/used",
  props: [ro("pool", "str"), ro("address", "ip"), ro("owner", "str"), ro("info", "str")],
  columns: ["pool", "address", "owner", "info"],
  dynamic: (st) => {
    const out: Item[] = [];
    let n = 0;
    for (const l of st.stored(st.menus.byPath("/ip/dhcp-server/lease")!)) {
      const srv = st.stored(st.menus.byPath("/ip/dhcp-server")!).find((d) => d.name === l.server);
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
});

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
    st.stored(st.menus.byPath("/interface")!).filter((i) =>
      i.type === "bridge" || i.name === "ether1"
    )
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
const NEIGHBOR = statusTable({
  path: "/ip/neighbor",
  props: [
    ro("interface", "str"),
    ro("address", "str"),
    ro("mac-address", "mac"),
    ro("identity", "str"),
    ro("platform", "str"),
    ro("version", "str"),
    ro("board", "str"),
    ro("uptime", "str"),
    // the neighbour's own port (real-output/print-ip-neighbor-detail-v6-ansible.txt); a lab seeds it
    ro("interface-name", "str"),
    ro("discovered-by", "str", { releases: V7 }),
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
});

/** IPv4/IPv6 menus. */
export const IP_MENUS: MenuDef[] = [
  POOL,
  POOL_USED,
  ...DHCP_MENUS,
  ...DNS_MENUS,
  IP_ADDRESS,
  ROUTE,
  SERVICE,
  NEIGHBOR,
  IPV6_ADDRESS,
  IPV6_ROUTE,
  ROUTING_TABLE,
  ...NEIGHBOR_TABLE_MENUS,
];
export { mac };
