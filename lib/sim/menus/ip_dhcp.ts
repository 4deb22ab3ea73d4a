/**
 * `/ip/dhcp-server` (+ network, lease) and `/ip/dhcp-client`.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { isTrue } from "../values.ts";
import { V6, V7 } from "../releases.ts";
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
    // RouterOS 6 writes `disabled=no` on every DHCP server and client of an export
    // (`add address-pool=Pool-Guest disabled=no interface=...` of a public 6.48.1
    // export, `add dhcp-options=hostname,clientid disabled=no interface=ether1` in
    // real-output/export-v6.42.5-ansible.txt); RouterOS 7 leaves it out
    // (export-show-sensitive-v7.15.2-exec-oxidized.txt).
    { ...DISABLED, exportAlways: V6 },
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
  // print order `address= mac-address= client-id= address-lists= server= dhcp-option=
  // status= expires-after= last-seen= age= active-address= active-mac-address=
  // active-client-id= active-server= host-name=` (real-output/terse-dhcp-lease-mixed.txt,
  // terse-dhcp-lease-quoted-values.txt; `age=` on 7.x only)
  props: [
    { name: "address", type: "ip", required: true },
    { name: "mac-address", type: "mac", required: true },
    str("client-id"),
    str("address-lists", { default: "" }),
    { name: "server", type: "ref", ref: "/ip/dhcp-server", refAllow: ["all"], default: "all" },
    str("dhcp-option", { default: "" }),
    ro("status", "str", { compute: (i) => i.status ?? "waiting" }),
    ro("expires-after", "str", {
      compute: (i) => (isTrue(i.dynamic) ? i["expires-after"] ?? "9m" : undefined),
    }),
    ro("last-seen", "str", { compute: (i) => i["last-seen"] ?? "never" }),
    ro("age", "str", {
      releases: V7,
      compute: (i) => (isTrue(i.dynamic) ? i.age ?? i["last-seen"] : undefined),
    }),
    ro("active-address", "ip", {
      compute: (i) => (isTrue(i.dynamic) ? i.address : i["active-address"]),
    }),
    ro("active-mac-address", "mac", {
      compute: (i) => (isTrue(i.dynamic) ? i["mac-address"] : i["active-mac-address"]),
    }),
    ro("active-client-id", "str", {
      compute: (i) => (isTrue(i.dynamic) ? i["client-id"] : i["active-client-id"]),
    }),
    ro("active-server", "str", {
      compute: (i) => (isTrue(i.dynamic) ? i.server : i["active-server"]),
    }),
    ro("host-name", "str"),
    { name: "lease-time", type: "time", default: "0s" },
    bool("block-access", false),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  // `X - disabled, R - radius, D - dynamic, B - blocked` in one column: ` 0 D address=`,
  // ` 1   address=` (real-output/terse-dhcp-lease-quoted-values.txt, terse-dhcp-lease-mixed.txt).
  flags: [F_DISABLED, { ch: "R", name: "radius", group: 0, test: () => false }, {
    ...F_DYNAMIC,
    group: 0,
  }, {
    ch: "B",
    name: "blocked",
    group: 0,
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
    { ...DISABLED, exportAlways: V6 },
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

/** DHCP menus. */
export const DHCP_MENUS: MenuDef[] = [DHCP_SERVER, DHCP_NETWORK, LEASE, DHCP_CLIENT];
