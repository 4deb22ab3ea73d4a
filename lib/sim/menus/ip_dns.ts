/**
 * `/ip/dns` (settings), its static entries and its cache.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import { parseIp4 } from "../ipaddr.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  int,
  ro,
  statusTable,
  str,
} from "./common.ts";

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
const DNS_CACHE = statusTable({
  path: "/ip/dns/cache",
  props: [
    // print order `type= data= name= ttl=` (real-output/terse-dns-cache.txt, 7.x)
    ro("type", "str"),
    ro("data", "str"),
    ro("name", "str"),
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
});

/** DNS menus. */
export const DNS_MENUS: MenuDef[] = [DNS, DNS_STATIC, DNS_CACHE];
