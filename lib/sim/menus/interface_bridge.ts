/**
 * `/interface/bridge`, its ports, its VLANs and its host (MAC address)
 * table.
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
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
  F_RUNNING,
  ifaceRef,
  int,
  INVALID,
  mac,
  oneOf,
  ro,
  RUNNING,
  str,
} from "./common.ts";

import { nameUnique, nextName, renameCascade } from "./interface_common.ts";

/** `/interface/bridge`. */
const BRIDGE: MenuDef = {
  path: "/interface/bridge",
  unset: { from: "7.24" },
  table: "/interface",
  match: { type: "bridge" },
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => nextName(st, "bridge") }),
    { name: "mtu", type: "int", values: ["auto"], default: "auto", min: 0, max: 65535 },
    ro("actual-mtu", "int", { default: "1500" }),
    ro("l2mtu", "int", { default: "1598" }),
    { name: "admin-mac", type: "mac" },
    bool("auto-mac", true),
    ro("mac-address", "mac", { default: () => mac(0x20) }),
    oneOf("protocol-mode", ["mstp", "none", "rstp", "stp"], "rstp"),
    bool("vlan-filtering", false),
    bool("igmp-snooping", false),
    bool("fast-forward", true),
    oneOf("arp", ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"], "enabled"),
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_RUNNING],
  columns: [
    "name",
    "mtu",
    "actual-mtu",
    "l2mtu",
    "arp",
    "mac-address",
    "protocol-mode",
    "vlan-filtering",
  ],
  unique: [nameUnique],
  afterChange: renameCascade,
  defaults: () => [{
    name: "bridge",
    type: "bridge",
    comment: "defconf",
    mtu: "auto",
    "actual-mtu": "1500",
    l2mtu: "1598",
    "admin-mac": mac(1),
    "auto-mac": "false",
    "mac-address": mac(1),
    "protocol-mode": "rstp",
    "vlan-filtering": "false",
    "igmp-snooping": "false",
    "fast-forward": "true",
    arp: "enabled",
    disabled: "false",
    dynamic: "false",
  }],
};

/** `/interface/bridge/port`. */
const BRIDGE_PORT: MenuDef = {
  path: "/interface/bridge/port",
  unset: { from: "7.13" },
  kind: "list",
  // Every property a port prints, in print order: a v6 `print terse` shows 24
  // (`interface= bridge= priority=0x80 path-cost=10 internal-path-cost=10
  // edge=auto point-to-point=auto learn=auto horizon=none hw=yes auto-isolate=no
  // restricted-role=no restricted-tcn=no pvid=1 frame-types=admit-all
  // ingress-filtering=no unknown-unicast-flood=yes unknown-multicast-flood=yes
  // broadcast-flood=yes tag-stacking=no bpdu-guard=no trusted=no
  // multicast-router=temporary-query fast-leave=no`: public v6 captures in the
  // devicemanager test fixtures, issue 34); 7.23.2 prints the same without the
  // path costs (unset), with `ingress-filtering=yes` and, before
  // `multicast-router=`, `trusted-ra= trusted-dhcpv6= mvrp-registrar-state=normal
  // mvrp-applicant-state=normal-participant` (a public 7.23.2 `print detail`).
  // Ranges from the real trees: mvrp-* from 7.16, trusted-ra from 7.22,
  // trusted-dhcpv6 from 7.23 (7.24 tree, 7.23.2 capture).
  props: [
    ifaceRef("interface", { required: true }),
    { name: "bridge", type: "ref", ref: "/interface/bridge", required: true },
    str("priority", { default: "0x80" }),
    int("path-cost", undefined, { default: (_i, st) => (st.v6 ? "10" : undefined) }),
    int("internal-path-cost", undefined, { default: (_i, st) => (st.v6 ? "10" : undefined) }),
    oneOf("edge", ["auto", "no", "no-discover", "yes", "yes-discover"], "auto"),
    oneOf("point-to-point", ["auto", "no", "yes"], "auto"),
    oneOf("learn", ["auto", "no", "yes"], "auto"),
    str("horizon", { default: "none" }),
    bool("hw", true),
    bool("auto-isolate", false),
    bool("restricted-role", false),
    bool("restricted-tcn", false),
    int("pvid", 1, { min: 1, max: 4094 }),
    oneOf("frame-types", [
      "admit-all",
      "admit-only-untagged-and-priority-tagged",
      "admit-only-vlan-tagged",
    ], "admit-all"),
    // `ingress-filtering=no` on every v6 port of the captures, `yes` on 7.23.2
    bool("ingress-filtering", undefined, { default: (_i, st) => String(!st.v6) }),
    bool("unknown-unicast-flood", true),
    bool("unknown-multicast-flood", true),
    bool("broadcast-flood", true),
    bool("tag-stacking", false),
    bool("bpdu-guard", false),
    bool("trusted", false),
    bool("trusted-ra", false, { releases: { from: "7.22" } }),
    bool("trusted-dhcpv6", false, { releases: { from: "7.23" } }),
    oneOf("mvrp-registrar-state", ["fixed", "normal"], "normal", { releases: { from: "7.16" } }),
    oneOf("mvrp-applicant-state", ["non-participant", "normal-participant"], "normal-participant", {
      releases: { from: "7.16" },
    }),
    oneOf("multicast-router", ["disabled", "permanent", "temporary-query"], "temporary-query"),
    bool("fast-leave", false),
    ro("inactive", "bool", {
      compute: (i, st) => String(!isTrue(st.findByKey("/interface", i.interface)?.running)),
    }),
    DISABLED,
    DYNAMIC,
    COMMENT,
  ],
  // `X - disabled, I - inactive, D - dynamic, H - hw-offload` in three columns
  // (` 1 XI   interface=`, ` 5 I H interface=` in a public v6 terse capture, the
  // devicemanager RB2011iL fixture; `X - DISABLED, I - INACTIVE; D - DYNAMIC;
  // H - HW-OFFLOAD` on 7.23.2).
  flags: [
    { ...F_DISABLED, group: 0 },
    { ch: "I", name: "inactive", group: 0, test: (i) => isTrue(i.inactive) },
    { ...F_DYNAMIC, group: 1 },
    { ch: "H", name: "hw-offload", group: 2, test: (i) => isTrue(i.hw) && !isTrue(i.inactive) },
  ],
  columns: [
    "interface",
    "bridge",
    "hw",
    "pvid",
    "horizon",
    "trusted",
    "frame-types",
    "ingress-filtering",
  ],
  columns6: ["interface", "bridge", "hw", "pvid", "horizon"],
  unique: [{ props: ["interface"], error: "failure: device already added as bridge port" }],
  defaults: () =>
    [2, 3, 4, 5].map((n) => ({
      interface: `ether${n}`,
      bridge: "bridge",
      comment: "defconf",
      pvid: "1",
      hw: "true",
      disabled: "false",
      dynamic: "false",
    })),
};

/** `/interface/bridge/vlan`. */
const BRIDGE_VLAN: MenuDef = {
  path: "/interface/bridge/vlan",
  kind: "list",
  props: [
    { name: "bridge", type: "ref", ref: "/interface/bridge", required: true },
    str("vlan-ids", {
      required: true,
      validate: (
        v,
      ) => (/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(v)
        ? undefined
        : "invalid value for argument vlan-ids"),
    }),
    str("tagged", { default: "" }),
    str("untagged", { default: "" }),
    ro("current-tagged", "str", { compute: (i) => i.tagged ?? "" }),
    ro("current-untagged", "str", { compute: (i) => i.untagged ?? "" }),
    DISABLED,
    DYNAMIC,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["bridge", "vlan-ids", "current-tagged", "current-untagged"],
};

/**
 * The dynamic host entries: each bridge's own MAC and each port's (local,
 * `DL`), and the LAN hosts of bound DHCP leases, learned on the first
 * running port (`D`, plus `E` on a hardware-offloaded port, as the learned
 * entries of terse-bridge-host-v7.txt show).
 */
function learnedHosts(st: RouterState): Item[] {
  const out: Item[] = [];
  const add = (it: Item) =>
    out.push({
      ".id": "*" + (0x80000001 + out.length).toString(16).toUpperCase(),
      ...it,
      local: it.local ?? "false",
      external: it.external ?? "false",
      dynamic: "true",
      disabled: "false",
    });
  const ports = st.list(BRIDGE_PORT).filter((p) => !isTrue(p.disabled));
  for (const b of st.list(BRIDGE)) {
    if (isTrue(b.disabled)) continue;
    add({
      "mac-address": b["mac-address"],
      interface: b.name,
      bridge: b.name,
      "on-interface": b.name,
      local: "true",
    });
    const mine = ports.filter((p) => p.bridge === b.name);
    for (const p of mine) {
      const port = st.findByKey("/interface", p.interface);
      if (!port?.["mac-address"]) continue;
      add({
        "mac-address": port["mac-address"],
        interface: p.interface,
        bridge: b.name,
        "on-interface": p.interface,
        local: "true",
      });
    }
    const up = mine.find((p) => !isTrue(p.inactive));
    const leases = st.menus.byPath("/ip/dhcp-server/lease", st.release);
    if (!up || !leases) continue;
    for (const l of st.list(leases)) {
      if (!isTrue(l.dynamic) || l.status !== "bound" || !l["mac-address"]) continue;
      add({
        "mac-address": l["mac-address"],
        interface: up.interface,
        bridge: b.name,
        "on-interface": up.interface,
        external: String(isTrue(up.hw)),
      });
    }
  }
  return out;
}

/**
 * `/interface/bridge/host`. Print order, flags and forms:
 * `real-output/terse-bridge-host-v7.txt` (`0 D E  mac-address=...
 * interface=ether4 bridge=lan-bridge on-interface=ether4`, `vid=` only when
 * set, before `interface=`; flags X, I, D, L, E). Static entries (add, set,
 * unset, comment) as every 7.x tree has them. RouterOS 6 has no capture: the
 * same form is given.
 */
const BRIDGE_HOST: MenuDef = {
  path: "/interface/bridge/host",
  unset: V7,
  kind: "list",
  props: [
    { name: "mac-address", type: "mac", required: true },
    int("vid", undefined, { min: 1, max: 4094 }),
    ifaceRef("interface", { required: true }),
    { name: "bridge", type: "ref", ref: "/interface/bridge", required: true },
    ro("on-interface", "str"),
    ro("local", "bool", { default: "false" }),
    ro("external", "bool", { default: "false" }),
    { ...INVALID, compute: (i, st) => String(!st.findByKey("/interface", i.interface)) },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [
    F_DISABLED,
    F_INVALID,
    { ...F_DYNAMIC, group: 1 },
    { ch: "L", name: "local", group: 2, test: (i) => isTrue(i.local) },
    { ch: "E", name: "external", group: 3, test: (i) => isTrue(i.external) },
  ],
  columns: ["mac-address", "vid", "on-interface", "bridge"],
  dynamic: learnedHosts,
};

/** Bridge menus. */
export const BRIDGE_MENUS: MenuDef[] = [BRIDGE, BRIDGE_PORT, BRIDGE_VLAN, BRIDGE_HOST];
