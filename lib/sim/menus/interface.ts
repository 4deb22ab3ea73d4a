/** `/interface` and its kinds: ethernet, bridge (+ port, vlan), vlan, wireguard (+ peers). */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { isTrue } from "../values.ts";
import { ALL_MENUS, menuByPath } from "./registry.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  ifaceRef,
  int,
  mac,
  oneOf,
  ro,
  str,
} from "./common.ts";

const nameUnique = { props: ["name"], error: "interface with such name already exists" };

function bridgePorts(st: RouterState): Item[] {
  return st.stored(menuByPath("/interface/bridge/port")!);
}

/** Properties every interface has, as `/interface print` shows them. */
const GENERAL: PropDef[] = [
  str("name", { required: true }),
  ro("default-name", "str"),
  ro("type", "str"),
  { name: "mtu", type: "int", values: ["auto"], default: "1500", min: 0, max: 65535 },
  ro("actual-mtu", "int", {
    compute: (i) => i["actual-mtu"] ?? (i.mtu === "auto" ? "1500" : i.mtu),
  }),
  ro("l2mtu", "int"),
  ro("max-l2mtu", "int"),
  ro("mac-address", "mac"),
  ro("last-link-up-time", "str", {
    compute: (i, st) => (isTrue(i.running) ? st.nowText() : undefined),
  }),
  ro("link-downs", "int", { default: "0" }),
  ro("running", "bool", {
    compute: (i) => (isTrue(i.disabled) ? "false" : (i.running ?? "true")),
  }),
  ro("slave", "bool", {
    compute: (i, st) => String(bridgePorts(st).some((p) => p.interface === i.name)),
  }),
  DISABLED,
  DYNAMIC,
  COMMENT,
];

const IF_FLAGS = [
  { ...F_DYNAMIC, group: 0 },
  { ...F_DISABLED, group: 1 },
  {
    ch: "R",
    name: "running",
    group: 1,
    test: (i: Item) => isTrue(i.running) && !isTrue(i.disabled),
  },
  { ch: "S", name: "slave", group: 2, test: (i: Item) => isTrue(i.slave) },
];

function renameCascade(item: Item, st: RouterState, old: Item | undefined): void {
  if (!old || old.name === item.name) return;
  renameRefs(st, "/interface", old.name, item.name);
}

/** Updates every `ref` property pointing at `refPath` from `from` to `to`. */
export function renameRefs(st: RouterState, refPath: string, from: string, to: string): void {
  for (const m of ALL_MENUS) {
    const refs = m.props.filter((p) => p.type === "ref" && p.ref === refPath);
    if (!refs.length) continue;
    for (const it of st.stored(m)) {
      for (const p of refs) if (it[p.name] === from) it[p.name] = to;
    }
  }
}

const ETHERS = [1, 2, 3, 4, 5];

/** `/interface`: every interface. */
const INTERFACE: MenuDef = {
  path: "/interface",
  kind: "list",
  key: "name",
  props: GENERAL,
  unique: [nameUnique],
  flags: IF_FLAGS,
  columns: ["name", "type", "actual-mtu", "l2mtu", "max-l2mtu", "mac-address"],
  columns6: ["name", "type", "actual-mtu", "l2mtu", "max-l2mtu"],
  noAdd: true,
  afterChange: renameCascade,
  noExport: true,
};

/** `/interface/ethernet`. */
const ETHERNET: MenuDef = {
  path: "/interface/ethernet",
  table: "/interface",
  match: { type: "ether" },
  kind: "list",
  key: "name",
  noAdd: true,
  exportFindBy: "default-name",
  props: [
    str("name"),
    ro("default-name", "str"),
    { name: "mtu", type: "int", default: "1500", min: 0, max: 65535 },
    int("l2mtu", 1598),
    { name: "mac-address", type: "mac" },
    ro("orig-mac-address", "mac", { compute: (i) => i["orig-mac-address"] ?? i["mac-address"] }),
    oneOf("arp", ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"], "enabled"),
    bool("auto-negotiation", true),
    oneOf("poe-out", ["auto-on", "forced-on", "off"], undefined),
    ro("running", "bool", {
      compute: (i) => (isTrue(i.disabled) ? "false" : (i.running ?? "true")),
    }),
    ro("slave", "bool", {
      compute: (i, st) => String(bridgePorts(st).some((p) => p.interface === i.name)),
    }),
    DISABLED,
    COMMENT,
  ],
  flags: IF_FLAGS.slice(1),
  columns: ["name", "mtu", "mac-address", "arp"],
  unique: [nameUnique],
  afterChange: renameCascade,
  defaults: () =>
    ETHERS.map((n) => ({
      name: `ether${n}`,
      "default-name": `ether${n}`,
      type: "ether",
      mtu: "1500",
      l2mtu: "1598",
      "max-l2mtu": "9796",
      "mac-address": mac(n),
      arp: "enabled",
      "auto-negotiation": "true",
      ...(n === 5 ? { "poe-out": "auto-on" } : {}),
      running: n <= 2 ? "true" : "false",
      "link-downs": "0",
      disabled: "false",
      dynamic: "false",
    })),
};

/** `/interface/bridge`. */
const BRIDGE: MenuDef = {
  path: "/interface/bridge",
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
    ro("running", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, {
    ch: "R",
    name: "running",
    group: 0,
    test: (i) => isTrue(i.running) && !isTrue(i.disabled),
  }],
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
  kind: "list",
  props: [
    ifaceRef("interface", { required: true }),
    { name: "bridge", type: "ref", ref: "/interface/bridge", required: true },
    int("pvid", 1, { min: 1, max: 4094 }),
    oneOf("frame-types", [
      "admit-all",
      "admit-only-untagged-and-priority-tagged",
      "admit-only-vlan-tagged",
    ], "admit-all"),
    bool("ingress-filtering", true),
    bool("hw", true),
    oneOf("edge", ["auto", "no", "no-discover", "yes", "yes-discover"], "auto"),
    bool("trusted", false),
    str("horizon", { default: "none" }),
    ro("inactive", "bool", {
      compute: (i, st) => String(!isTrue(st.findByKey("/interface", i.interface)?.running)),
    }),
    DISABLED,
    DYNAMIC,
    COMMENT,
  ],
  flags: [
    { ch: "I", name: "inactive", group: 0, test: (i) => isTrue(i.inactive) },
    { ...F_DISABLED, group: 0 },
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
      "frame-types": "admit-all",
      "ingress-filtering": "true",
      hw: "true",
      edge: "auto",
      trusted: "false",
      horizon: "none",
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

/** `/interface/vlan`. */
const VLAN: MenuDef = {
  path: "/interface/vlan",
  table: "/interface",
  match: { type: "vlan" },
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => nextName(st, "vlan") }),
    int("vlan-id", undefined, { required: true, min: 1, max: 4095 }),
    ifaceRef("interface", { required: true }),
    int("mtu", 1500, { min: 0, max: 65535 }),
    ro("l2mtu", "int", { default: "1594" }),
    ro("mac-address", "mac", { default: () => mac(1) }),
    oneOf("arp", ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"], "enabled"),
    bool("use-service-tag", false),
    ro("running", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, {
    ch: "R",
    name: "running",
    group: 0,
    test: (i) => isTrue(i.running) && !isTrue(i.disabled),
  }],
  columns: ["name", "mtu", "arp", "vlan-id", "interface"],
  unique: [nameUnique],
  afterChange: renameCascade,
};

/** `/interface/wireguard`. */
const WIREGUARD: MenuDef = {
  path: "/interface/wireguard",
  table: "/interface",
  match: { type: "wg" },
  kind: "list",
  key: "name",
  versions: ["7.16", "7.12"],
  props: [
    str("name", { default: (_i, st) => nextName(st, "wireguard") }),
    int("mtu", 1420, { min: 0, max: 65535 }),
    int("listen-port", undefined, {
      min: 1,
      max: 65535,
      default: (_i, st) => String(13231 + st.stored(menuByPath("/interface/wireguard")!).length),
    }),
    str("private-key", { sensitive: true, default: () => wgKey() }),
    ro("public-key", "str", {
      compute: (i) => (i["private-key"] ? pubFromPriv(i["private-key"]) : undefined),
    }),
    ro("running", "bool", { compute: (i) => String(!isTrue(i.disabled)) }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, {
    ch: "R",
    name: "running",
    group: 0,
    test: (i) => isTrue(i.running) && !isTrue(i.disabled),
  }],
  columns: ["name", "mtu", "listen-port", "private-key", "public-key"],
  unique: [nameUnique],
  afterChange: renameCascade,
};

/** `/interface/wireguard/peers`. */
const WG_PEERS: MenuDef = {
  path: "/interface/wireguard/peers",
  kind: "list",
  versions: ["7.16", "7.12"],
  props: [
    { name: "interface", type: "ref", ref: "/interface/wireguard", required: true },
    str("name", {
      versions: ["7.16"],
      default: (_i, st) => `peer${st.stored(menuByPath("/interface/wireguard/peers")!).length + 1}`,
    }),
    str("public-key", {
      required: true,
      validate: (
        v,
      ) => (/^[A-Za-z0-9+/]{43}=$/.test(v) ? undefined : "invalid value for argument public-key"),
    }),
    str("preshared-key", { sensitive: true }),
    str("endpoint-address", { default: "" }),
    int("endpoint-port", 0, { min: 0, max: 65535 }),
    str("allowed-address", { required: true }),
    { name: "persistent-keepalive", type: "time", default: "0s" },
    ro("current-endpoint-address", "str", { default: "" }),
    ro("current-endpoint-port", "int", { default: "0" }),
    ro("rx", "int", { default: "0" }),
    ro("tx", "int", { default: "0" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["interface", "public-key", "endpoint-address", "endpoint-port", "allowed-address"],
};

/** Wireguard keys: deterministic-looking random base64 of 32 bytes. */
function wgKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...b));
}
function pubFromPriv(k: string): string {
  // not real curve25519: a stable stand-in derived from the private key
  let h = 0;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    h = (h * 31 + k.charCodeAt(i % k.length) + i) >>> 0;
    out[i] = h & 255;
  }
  return btoa(String.fromCharCode(...out));
}

/** First free `<base>N` interface name (`bridge1`, `vlan1`...). */
export function nextName(st: RouterState, base: string): string {
  const names = new Set(st.table("/interface").items.map((i) => i.name));
  for (let n = 1;; n++) if (!names.has(base + n)) return base + n;
}

/** Interface menus. */
export const INTERFACE_MENUS: MenuDef[] = [
  INTERFACE,
  ETHERNET,
  BRIDGE,
  BRIDGE_PORT,
  BRIDGE_VLAN,
  VLAN,
  WIREGUARD,
  WG_PEERS,
];
