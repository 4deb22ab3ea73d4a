/**
 * `/interface/vrrp`: VRRP interfaces, in the `/interface` table (type
 * `vrrp`), so addresses and other menus can name them.
 *
 * Sources:
 * - commands, arguments and their releases: `../shared/fidelity/tree-*.json`
 *   (`mtu` is settable to the 7.16.2 tree; `connection-tracking-mode` and
 *   `-port` from the 7.20.8 tree; `v3-checksum-as-v2` in the 7.24 tree);
 *   values: the value lists of `tree-7.22.3.json`;
 * - defaults: a REST read of a RouterOS 7.5 VRRP interface quoted in
 *   terraform-routeros's `resource_interface_vrrp.go` (arp=enabled,
 *   arp-timeout=auto, authentication=none, group-master "" for none,
 *   interval=1s, mtu=1500, mac-address=00:00:5E:00:01:01 for vrid 1,
 *   preemption-mode=yes, priority=100, version=3, v3-protocol=ipv4);
 *   the connection tracking port 8275 from MikroTik's VRRP manual;
 * - RouterOS 6: MikroTik's v6 manual (no group, connection-tracking or
 *   `on-fail` settings).
 *
 * No real capture of `/interface vrrp print` is in `../shared`: the flag
 * letters (X, I; R; M, B) follow MikroTik's manual and the print order is
 * the order below. A lone simulated router has no peer, so an enabled
 * interface on a usable interface is master (and running, as RouterOS runs
 * only a master's virtual interface), never backup.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  F_DISABLED,
  F_INVALID,
  ifaceRef,
  int,
  oneOf,
  ro,
  str,
} from "./common.ts";
import { ifaceUsable, nameUnique, nextName, renameCascade } from "./interface_common.ts";

/** Whether the simulated router is master: enabled, on an interface that is there and enabled. */
const master = (i: Item, st: RouterState) => !isTrue(i.disabled) && ifaceUsable(st, i.interface);

/** A VRRP interface of the same group (`none` prints as an empty value). */
function groupRef(name: string): PropDef {
  return {
    name,
    type: "ref",
    ref: "/interface/vrrp",
    refAllow: ["none", ""],
    normalize: (v) => (v === "none" ? "" : v),
    default: "",
    releases: V7,
  };
}

/** The virtual MAC of RFC 5798: 00:00:5E:00:01:<vrid> (IPv4), 00:00:5E:00:02:<vrid> (IPv6). */
function virtualMac(i: Item): string {
  const family = i["v3-protocol"] === "ipv6" && i.version !== "2" ? "02" : "01";
  const vrid = Number(i.vrid ?? 1).toString(16).toUpperCase().padStart(2, "0");
  return `00:00:5E:00:${family}:${vrid}`;
}

/** `/interface/vrrp`. */
const VRRP: MenuDef = {
  path: "/interface/vrrp",
  table: "/interface",
  match: { type: "vrrp" },
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => nextName(st, "vrrp") }),
    ifaceRef("interface", { required: true }),
    int("mtu", 1500, { min: 0, max: 65535, releases: { until: "7.16" } }),
    ro("mac-address", "mac", { compute: virtualMac }),
    oneOf("arp", ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"], "enabled"),
    { name: "arp-timeout", type: "time", values: ["auto"], default: "auto" },
    int("vrid", 1, { min: 1, max: 255 }),
    int("priority", 100, { min: 1, max: 254 }),
    { name: "interval", type: "time", default: "1s" },
    bool("preemption-mode", true),
    oneOf("authentication", ["ah", "none", "simple"], "none"),
    str("password", { sensitive: true, default: "" }),
    str("on-backup", { default: "" }),
    str("on-master", { default: "" }),
    str("on-fail", { default: "", releases: V7 }),
    oneOf("version", ["2", "3"], "3"),
    oneOf("v3-protocol", ["ipv4", "ipv6"], "ipv4"),
    bool("v3-checksum-as-v2", false, { releases: { from: "7.24" } }),
    groupRef("group-master"),
    groupRef("group-authority"),
    bool("sync-connection-tracking", false, { releases: V7 }),
    { name: "remote-address", type: "ip", releases: V7 },
    oneOf("connection-tracking-mode", ["active-active", "passive-active"], "passive-active", {
      releases: { from: "7.20" },
    }),
    int("connection-tracking-port", 8275, { min: 1, max: 65535, releases: { from: "7.20" } }),
    ro("invalid", "bool", { compute: (i, st) => String(!st.findByKey("/interface", i.interface)) }),
    ro("running", "bool", { compute: (i, st) => String(master(i, st)) }),
    ro("master", "bool", { compute: (i, st) => String(master(i, st)) }),
    ro("backup", "bool", { compute: () => "false" }),
    DISABLED,
    COMMENT,
  ],
  flags: [
    F_DISABLED,
    F_INVALID,
    { ch: "R", name: "running", group: 1, test: (i) => isTrue(i.running) },
    { ch: "M", name: "master", group: 2, test: (i) => isTrue(i.master) },
    { ch: "B", name: "backup", group: 2, test: (i) => isTrue(i.backup) },
  ],
  columns: ["name", "interface", "mac-address", "vrid", "priority", "interval", "version"],
  unique: [nameUnique],
  afterChange: renameCascade,
};

/** The menus of this family. */
export const VRRP_MENUS: readonly MenuDef[] = [VRRP];
