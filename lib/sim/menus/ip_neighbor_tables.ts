/**
 * The neighbour tables: `/ip/arp` and `/ipv6/neighbor`. The demo router's
 * dynamic entries are the LAN hosts that hold a bound DHCP lease (the
 * laptop and the phone of `/ip/dhcp-server/lease`), seen on the LAN bridge.
 *
 * Sources:
 * - commands and arguments of each release: `../shared/fidelity/tree-*.json`
 *   (`/ip/arp` takes add/set/remove on every 7.x tree; `/ipv6/neighbor` is
 *   print/find/get only up to the 7.16.2 tree and takes add/set/remove from
 *   the 7.20.8 tree);
 * - print order and flags of ARP: `real-output/terse-ip-arp.txt`
 *   (`0 DC address=... mac-address=... interface=... published=no`);
 * - property names: the print property lists of `tree-7.22.3.json`
 *   (`/ip/arp`: address comment complete dhcp disabled dynamic interface
 *   invalid mac-address published status vrf; `/ipv6/neighbor`: address
 *   comment disabled dynamic interface mac-address router status vrf).
 *   `vrf` is left out: no capture shows when or how it prints.
 *
 * No real capture of `/ipv6/neighbor` output is in `../shared`: its print
 * order (address, interface, mac-address, status) and the status words
 * (`reachable`, `stale`) follow MikroTik's manual, not a capture.
 *
 * @module
 */
import type { FlagDef, Item, MenuDef, PropDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
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
  INVALID,
  ro,
  statusTable,
} from "./common.ts";
import { ifaceUsable } from "./interface_common.ts";

/** The interface LAN hosts are seen on: the bridge of the default configuration. */
const LAN = "bridge";

/** Bound dynamic DHCP leases: the hosts the router has talked to lately. */
function lanHosts(st: RouterState): Item[] {
  const leases = st.menus.byPath("/ip/dhcp-server/lease", st.release);
  if (!leases) return [];
  return st.list(leases).filter((l) =>
    isTrue(l.dynamic) && !isTrue(l.disabled) && l.status === "bound" && l["mac-address"]
  );
}

/** A dynamic entry's id: above the ids of stored entries, from the lease it follows. */
function dynamicId(lease: Item): string {
  return "*" + (0x80000000 + Number.parseInt(lease[".id"].slice(1), 16)).toString(16).toUpperCase();
}

/**
 * `/ip/arp` flags, in two columns as a terse line shows them (` 0 DC address=`
 * and ` 1    address=`, terse-ip-arp.txt): X, I, H and D share the first, C
 * the second. A published entry's P flag is left out: the capture prints
 * `published=no` as a property, and the simulator prints a property that
 * names a flag only as the flag.
 */
const ARP_FLAGS: FlagDef[] = [
  F_DISABLED,
  F_INVALID,
  { ch: "H", name: "dhcp", group: 0, test: (i) => isTrue(i.dhcp) },
  { ...F_DYNAMIC, group: 0 },
  { ch: "C", name: "complete", group: 1, test: (i) => isTrue(i.complete) },
];

/** `/ip/arp`: static entries, plus a dynamic one for each LAN host. */
const ARP: MenuDef = {
  path: "/ip/arp",
  kind: "list",
  props: [
    { name: "address", type: "ip", required: true },
    { name: "mac-address", type: "mac" },
    ifaceRef("interface", { required: true }),
    bool("published", false),
    // v7 only: RouterOS 6's ARP table has no status (terse-ip-arp.txt has none)
    ro("status", "str", { releases: V7 }),
    ro("complete", "bool", { compute: (i) => String(!!i["mac-address"]) }),
    ro("dhcp", "bool", { default: "false" }),
    { ...INVALID, compute: (i, st) => String(!ifaceUsable(st, i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: ARP_FLAGS,
  columns: ["address", "mac-address", "interface", "status"],
  columns6: ["address", "mac-address", "interface"],
  check: (it, st, old) => {
    if (!old) it.dhcp = "false";
    if (!st.v6 && !old) it.status = it["mac-address"] ? "permanent" : "failed";
  },
  dynamic: (st) =>
    lanHosts(st).map((l, n) => ({
      ".id": dynamicId(l),
      address: l.address,
      "mac-address": l["mac-address"],
      interface: LAN,
      published: "false",
      ...(st.v6 ? {} : { status: n === 0 ? "reachable" : "stale" }),
      dhcp: "false",
      dynamic: "true",
      disabled: "false",
    })),
};

/** The EUI-64 link-local address of a MAC: `3C:22:FB:11:22:33` -> `fe80::3e22:fbff:fe11:2233`. */
export function linkLocal(macAddress: string): string {
  const b = macAddress.split(":").map((h) => Number.parseInt(h, 16));
  b[0] ^= 0x02;
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  return `fe80::${hex(b[0], b[1])}:${hex(b[2], 0xff)}:${hex(0xfe, b[3])}:${hex(b[4], b[5])}`;
}

const NEIGHBOR6_PROPS: PropDef[] = [
  { name: "address", type: "ip6", required: true },
  ifaceRef("interface", { required: true }),
  { name: "mac-address", type: "mac" },
  ro("router", "bool", { default: "false" }),
  ro("status", "str"),
];

const NEIGHBOR6_FLAGS: FlagDef[] = [
  { ...F_DYNAMIC, group: 0 },
  { ch: "R", name: "router", group: 1, test: (i) => isTrue(i.router) },
];

function neighbors6(st: RouterState): Item[] {
  return lanHosts(st).map((l, n) => ({
    ".id": dynamicId(l),
    address: linkLocal(l["mac-address"]),
    interface: LAN,
    "mac-address": l["mac-address"],
    router: "false",
    status: n === 0 ? "reachable" : "stale",
    dynamic: "true",
    disabled: "false",
  }));
}

/** `/ipv6/neighbor` up to 7.19: the table the system fills (the 7.16.2 tree has only print, find, get). */
const NEIGHBOR6_STATE = statusTable({
  path: "/ipv6/neighbor",
  releases: { until: "7.19" },
  props: [...NEIGHBOR6_PROPS, DYNAMIC],
  flags: NEIGHBOR6_FLAGS,
  columns: ["address", "interface", "mac-address", "status"],
  dynamic: neighbors6,
});

/** `/ipv6/neighbor` from 7.20: static entries can be added (the 7.20.8 tree). */
const NEIGHBOR6: MenuDef = {
  path: "/ipv6/neighbor",
  releases: { from: "7.20" },
  kind: "list",
  props: [...NEIGHBOR6_PROPS, DYNAMIC, DISABLED, COMMENT],
  flags: [F_DISABLED, ...NEIGHBOR6_FLAGS.map((f) => ({ ...f, group: f.group + 1 }))],
  columns: ["address", "interface", "mac-address", "status"],
  check: (it, _st, old) => {
    if (!old) it.status = it["mac-address"] ? "permanent" : "failed";
  },
  dynamic: neighbors6,
};

/** Neighbour table menus. */
export const NEIGHBOR_TABLE_MENUS: MenuDef[] = [ARP, NEIGHBOR6_STATE, NEIGHBOR6];
