/** `/interface` and its kinds: ethernet, bridge (+ port, vlan), vlan, wireguard (+ peers). */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import type { ReleaseRange } from "../../routeros/release.ts";
import { V6, V7 } from "../releases.ts";
import { fail } from "../errors.ts";
import type { RouterState } from "../state.ts";
import { isTrue, sortedMap, type Val } from "../values.ts";
import { ALL_MENUS, menuByPath } from "./registry.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_RUNNING,
  ifaceRef,
  int,
  mac,
  oneOf,
  ro,
  RUNNING,
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
  { ...F_RUNNING, group: 1 },
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
  commands: {
    "monitor-traffic": {
      numbers: true,
      numbersName: "interface",
      switches: ["once", "as-value", "without-paging"],
      args: ["interval", "duration", "freeze-frame-interval"],
      // the 7.12.2 to 7.20.8 trees lack it; 7.22.3 has it
      argReleases: { "freeze-frame-interval": { from: "7.22" } },
      run: (c) => {
        if (!c.ids.length) throw fail("missing value(s) of argument(s) interface");
        const items = c.st.list(c.menu!).filter((i) => c.ids.includes(i[".id"]));
        const recs = items.map((it) => trafficRecord(it));
        if (c.switches.has("as-value")) return recs.length === 1 ? recs[0] : recs;
        const keys = TRAFFIC_KEYS;
        const rows: [string, string[]][] = [["name", recs.map((r) => String(r.get("name")))]];
        for (const k of keys) {
          rows.push([k, recs.map((r) => showRate(k, Number(r.get(k))))]);
        }
        const w = Math.max(...rows.map((r) => r[0].length));
        for (const [k, vs] of rows) {
          c.print(`${k.padStart(w + 2)}: ${vs.map((v) => v.padEnd(10)).join(" ").trimEnd()}`);
        }
      },
    },
  },
};

const TRAFFIC_KEYS = [
  "rx-packets-per-second",
  "rx-bits-per-second",
  "fp-rx-packets-per-second",
  "fp-rx-bits-per-second",
  "rx-drops-per-second",
  "rx-errors-per-second",
  "tx-packets-per-second",
  "tx-bits-per-second",
  "fp-tx-packets-per-second",
  "fp-tx-bits-per-second",
  "tx-drops-per-second",
  "tx-queue-drops-per-second",
  "tx-errors-per-second",
];

/** One `monitor-traffic once` sample: steady made-up rates on running interfaces, else 0. */
function trafficRecord(it: Item): Map<string, Val> {
  const up = isTrue(it.running) && !isTrue(it.disabled);
  let h = 7;
  for (const ch of it.name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const rxPps = up ? 20 + (h % 180) : 0;
  const txPps = up ? 10 + ((h >>> 8) % 120) : 0;
  const v: Record<string, number> = {
    "rx-packets-per-second": rxPps,
    "rx-bits-per-second": rxPps * 8 * 612,
    "fp-rx-packets-per-second": rxPps,
    "fp-rx-bits-per-second": rxPps * 8 * 612,
    "tx-packets-per-second": txPps,
    "tx-bits-per-second": txPps * 8 * 388,
    "fp-tx-packets-per-second": txPps,
    "fp-tx-bits-per-second": txPps * 8 * 388,
  };
  return sortedMap([
    ["name", it.name],
    ...TRAFFIC_KEYS.map((k) => [k, v[k] ?? 0] as [string, Val]),
  ]);
}

/** How the console shows a rate: `12.3kbps`, `41`. */
function showRate(key: string, n: number): string {
  if (!key.includes("bits")) return String(n);
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}Mbps`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}kbps`;
  return `${n}bps`;
}

/** `/interface/ethernet`. */
const ETHERNET: MenuDef = {
  path: "/interface/ethernet",
  unset: {},
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
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_RUNNING],
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
  releases: V7,
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
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_RUNNING],
  columns: ["name", "mtu", "listen-port", "private-key", "public-key"],
  unique: [nameUnique],
  afterChange: renameCascade,
};

/** `/interface/wireguard/peers`. */
const WG_PEERS: MenuDef = {
  path: "/interface/wireguard/peers",
  kind: "list",
  releases: V7,
  props: [
    { name: "interface", type: "ref", ref: "/interface/wireguard", required: true },
    str("name", {
      // Peer names came in 7.14 to 7.16 (the 7.13.5 tree lacks them, 7.16.2 has them).
      releases: { from: "7.16" },
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

/** `/interface/list`. */
const IF_LIST: MenuDef = {
  path: "/interface/list",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    str("include", { default: "" }),
    str("exclude", { default: "" }),
    ro("builtin", "bool", {
      compute: (i) => String(["all", "none", "dynamic", "static"].includes(i.name)),
    }),
    DYNAMIC,
    COMMENT,
  ],
  flags: [{ ch: "*", name: "builtin", group: 0, test: (i) => isTrue(i.builtin) }, F_DYNAMIC],
  columns: ["name", "include", "exclude"],
  unique: [{ props: ["name"], error: "failure: list with such name already exists" }],
  exportSkip: (i) => ["all", "none", "dynamic", "static"].includes(i.name),
  checkRemove: (i) => {
    if (["all", "none", "dynamic", "static"].includes(i.name)) {
      throw fail("failure: can not remove builtin list");
    }
  },
  defaults: () => [
    ...["all", "none", "dynamic", "static"].map((name) => ({
      name,
      include: "",
      exclude: "",
      dynamic: "false",
    })),
    { name: "WAN", comment: "defconf", include: "", exclude: "", dynamic: "false" },
    { name: "LAN", comment: "defconf", include: "", exclude: "", dynamic: "false" },
  ],
};

/** `/interface/list/member`. */
const IF_LIST_MEMBER: MenuDef = {
  path: "/interface/list/member",
  kind: "list",
  props: [
    { name: "list", type: "ref", ref: "/interface/list", required: true },
    ifaceRef("interface", { required: true }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DYNAMIC],
  columns: ["list", "interface"],
  unique: [{ props: ["list", "interface"], error: "failure: already have such member" }],
  defaults: () => [
    { list: "LAN", interface: "bridge", comment: "defconf", disabled: "false", dynamic: "false" },
    { list: "WAN", interface: "ether1", comment: "defconf", disabled: "false", dynamic: "false" },
  ],
};

/** `/interface/ethernet/poe`. */
const POE: MenuDef = {
  path: "/interface/ethernet/poe",
  table: "/interface",
  match: { type: "ether", "poe-out": "auto-on" },
  kind: "list",
  key: "name",
  noAdd: true,
  noExport: true,
  props: [
    ro("name", "str"),
    oneOf("poe-out", ["auto-on", "forced-on", "off"], "auto-on"),
    int("poe-priority", 10, { min: 0, max: 99 }),
    oneOf("poe-voltage", ["auto", "high", "low"], "auto"),
    ro("poe-out-status", "str", {
      compute: (i) => (i["poe-out"] === "off" ? "disabled" : "waiting-for-load"),
    }),
  ],
  columns: ["name", "poe-out", "poe-priority", "poe-out-status"],
  commands: {
    monitor: {
      numbers: true,
      positional: 2,
      args: ["once", "interval"],
      run: (c) => {
        const items = c.st.stored(c.menu!).filter((i) => c.ids.includes(i[".id"])).map((i) =>
          c.st.view(c.menu!, i)
        );
        const flags = c.positional.map((p) => String(p));
        if (flags.some((f) => f !== "once" && f !== "as-value")) {
          throw fail("expected end of command");
        }
        if (flags.includes("as-value")) {
          const recs = items.map((it) =>
            sortedMap([
              ["name", it.name],
              ["poe-out", it["poe-out"]],
              ["poe-out-status", it["poe-out-status"]],
            ])
          );
          return recs.length === 1 ? recs[0] : recs;
        }
        const rows: [string, string][] = [];
        for (const it of items) {
          rows.push(["name", it.name], ["poe-out", it["poe-out"]], [
            "poe-out-status",
            it["poe-out-status"],
          ]);
          if (it["poe-out-status"] === "powered-on") {
            rows.push(["poe-out-voltage", "23.9V"], ["poe-out-current", "102mA"], [
              "poe-out-power",
              "2.4W",
            ]);
          }
        }
        const w = Math.max(...rows.map((r) => r[0].length));
        for (const [k, v] of rows) c.print(`${" ".repeat(w - k.length + 2)}${k}: ${v}`);
      },
    },
  },
};

const WIFI_PROPS: PropDef[] = [
  str("name"),
  ro("default-name", "str"),
  { name: "mac-address", type: "mac" },
  { name: "master-interface", type: "ref", ref: "/interface/wifi" },
  str("configuration.ssid"),
  oneOf("configuration.mode", ["ap", "station", "station-bridge"], "ap"),
  str("configuration.country"),
  {
    name: "security.authentication-types",
    type: "list",
    values: [
      "wpa-psk",
      "wpa2-psk",
      "wpa-eap",
      "wpa2-eap",
      "wpa3-psk",
      "owe",
      "wpa3-eap",
      "wpa3-eap-192",
    ],
  },
  str("security.passphrase", { sensitive: true }),
  oneOf("channel.band", [
    "2ghz-ax",
    "2ghz-g",
    "2ghz-n",
    "5ghz-a",
    "5ghz-ac",
    "5ghz-an",
    "5ghz-ax",
    "5ghz-n",
  ]),
  str("channel.width"),
  str("channel.frequency"),
  RUNNING,
  ro("inactive", "bool", { compute: (i) => String(isTrue(i.disabled)) }),
  DISABLED,
  COMMENT,
];

/** `/interface/wifi` (7.13 and later). */
const WIFI: ReleaseRange = { from: "7.13" };
/** The wifiwave2 package's menus (7.12 and older 7.x). */
const WIFIWAVE2: ReleaseRange = { from: "7.0", until: "7.12" };

function wifiMenu(path: string, releases: ReleaseRange): MenuDef {
  return {
    path,
    table: "/interface",
    match: { type: "wifi" },
    kind: "list",
    key: "name",
    releases,
    unset: {},
    exportFindBy: "default-name",
    props: WIFI_PROPS.map((p) => (p.name === "master-interface" ? { ...p, ref: path } : p)),
    flags: [
      { ...F_DISABLED, group: 0 },
      F_RUNNING,
      { ch: "I", name: "inactive", group: 1, test: (i) => isTrue(i.inactive) },
    ],
    columns: ["name", "mac-address", "channel.band", "configuration.ssid"],
    unique: [nameUnique],
    afterChange: renameCascade,
    defaults: (st) => [
      {
        name: "wifi1",
        "default-name": "wifi1",
        type: "wifi",
        "mac-address": mac(0x10),
        "configuration.ssid": `MikroTik-${ssidTail(st.init.identity)}`,
        "configuration.mode": "ap",
        "configuration.country": "Latvia",
        "security.authentication-types": "wpa2-psk,wpa3-psk",
        "security.passphrase": "RouterPass123",
        "channel.band": "5ghz-ax",
        "channel.width": "20/40/80mhz",
        mtu: "1500",
        l2mtu: "1560",
        disabled: "false",
        dynamic: "false",
        running: "true",
        "link-downs": "0",
      },
      {
        name: "wifi2",
        "default-name": "wifi2",
        type: "wifi",
        "mac-address": mac(0x11),
        "configuration.ssid": `MikroTik-${ssidTail(st.init.identity)}`,
        "configuration.mode": "ap",
        "configuration.country": "Latvia",
        "security.authentication-types": "wpa2-psk,wpa3-psk",
        "security.passphrase": "RouterPass123",
        "channel.band": "2ghz-ax",
        "channel.width": "20/40mhz",
        mtu: "1500",
        l2mtu: "1560",
        disabled: "false",
        dynamic: "false",
        running: "true",
        "link-downs": "0",
      },
    ],
  };
}

function ssidTail(identity: string): string {
  let h = 0;
  for (const c of identity) h = (h * 33 + c.charCodeAt(0)) >>> 0;
  return (h & 0xffffff).toString(16).toUpperCase().padStart(6, "0");
}

function regTable(path: string, releases: ReleaseRange, iface: string): MenuDef {
  return {
    path,
    kind: "list",
    releases,
    verbs: ["print", "find", "get", "remove"],
    noExport: true,
    props: [
      ro("interface", "str"),
      ro("mac-address", "mac"),
      ro("ssid", "str"),
      ro("uptime", "str"),
      ro("signal", "int"),
      ro("tx-rate", "str"),
      ro("rx-rate", "str"),
      ro("last-activity", "str"),
    ],
    columns: ["interface", "mac-address", "ssid", "uptime", "signal"],
    defaults: () => [
      {
        interface: iface,
        "mac-address": "3C:22:FB:11:22:33",
        ssid: "MikroTik",
        uptime: "1h2m3s",
        signal: "-58",
        "tx-rate": "864.8Mbps",
        "rx-rate": "648.5Mbps",
        "last-activity": "10ms",
      },
    ],
  };
}

function accessList(path: string, releases: ReleaseRange, ifaceRefPath: string): MenuDef {
  const legacy = path.includes("/wireless/");
  return {
    path,
    kind: "list",
    ordered: true,
    releases,
    unset: {},
    props: [
      { name: "mac-address", type: "mac" },
      { name: "interface", type: "ref", ref: ifaceRefPath, refAllow: ["any", "all"] },
      // the legacy wireless package of RouterOS 7 has no ssid-regexp (every 7.x tree)
      str("ssid-regexp", legacy ? { releases: V6 } : {}),
      str("signal-range"),
      str("time"),
      ...(legacy
        ? [
          bool("authentication", true),
          bool("forwarding", true),
          int("ap-tx-limit", 0),
          int("client-tx-limit", 0),
          str("private-pre-shared-key", { sensitive: true }),
          oneOf("vlan-mode", ["default", "no-tag", "use-service-tag", "use-tag"], "default"),
          int("vlan-id", 1, { min: 1, max: 4095 }),
        ]
        : [
          {
            name: "action",
            type: "enum",
            values: ["accept", "query-radius", "reject"],
            default: "accept",
          } as PropDef,
          int("vlan-id", undefined, { min: 1, max: 4095 }),
          bool("client-isolation", false),
          str("passphrase", { sensitive: true }),
        ]),
      DISABLED,
      COMMENT,
    ],
    flags: [F_DISABLED],
    columns: legacy
      ? ["mac-address", "interface", "signal-range", "authentication", "forwarding"]
      : ["mac-address", "interface", "signal-range", "action"],
  };
}

/** `/interface/wireless/security-profiles` (v6). */
const SECURITY_PROFILES: MenuDef = {
  path: "/interface/wireless/security-profiles",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf("mode", ["dynamic-keys", "none", "static-keys-optional", "static-keys-required"], "none"),
    {
      name: "authentication-types",
      type: "list",
      values: ["wpa-psk", "wpa2-psk", "wpa-eap", "wpa2-eap"],
      default: "",
    },
    { name: "unicast-ciphers", type: "list", values: ["aes-ccm", "tkip"], default: "aes-ccm" },
    { name: "group-ciphers", type: "list", values: ["aes-ccm", "tkip"], default: "aes-ccm" },
    str("wpa-pre-shared-key", { default: "", sensitive: true }),
    str("wpa2-pre-shared-key", { default: "", sensitive: true }),
    str("supplicant-identity", { default: "MikroTik" }),
    COMMENT,
  ],
  flags: [{ ch: "*", name: "default", group: 0, test: (i) => i.name === "default" }],
  exportFindBy: "name",
  columns: [
    "name",
    "mode",
    "authentication-types",
    "unicast-ciphers",
    "group-ciphers",
    "wpa-pre-shared-key",
    "wpa2-pre-shared-key",
  ],
  unique: [{ props: ["name"], error: "failure: profile with such name already exists" }],
  checkRemove: (i) => {
    if (i.name === "default") throw fail("failure: can not remove default profile");
  },
  defaults: () => [{
    name: "default",
    mode: "dynamic-keys",
    "authentication-types": "wpa2-psk",
    "unicast-ciphers": "aes-ccm",
    "group-ciphers": "aes-ccm",
    "wpa-pre-shared-key": "RouterPass123",
    "wpa2-pre-shared-key": "RouterPass123",
    "supplicant-identity": "MikroTik",
  }],
};

/** `/interface/wireless` (v6). */
const WIRELESS: MenuDef = {
  path: "/interface/wireless",
  table: "/interface",
  match: { type: "wlan" },
  kind: "list",
  key: "name",
  exportFindBy: "default-name",
  props: [
    str("name"),
    ro("default-name", "str"),
    int("mtu", 1500),
    { name: "mac-address", type: "mac" },
    str("ssid", { default: "MikroTik" }),
    bool("hide-ssid", false),
    oneOf("mode", [
      "alignment-only",
      "ap-bridge",
      "bridge",
      "station",
      "station-bridge",
      "station-pseudobridge",
      "wds-slave",
    ], "station"),
    oneOf("band", [
      "2ghz-b",
      "2ghz-b/g",
      "2ghz-b/g/n",
      "2ghz-onlyg",
      "2ghz-onlyn",
      "5ghz-a",
      "5ghz-a/n",
      "5ghz-a/n/ac",
      "5ghz-onlyac",
      "5ghz-onlyn",
    ]),
    str("frequency", { default: "auto" }),
    str("channel-width"),
    str("country", { default: "etsi" }),
    {
      name: "security-profile",
      type: "ref",
      ref: "/interface/wireless/security-profiles",
      default: "default",
    },
    oneOf("wireless-protocol", [
      "802.11",
      "any",
      "nstreme",
      "nv2",
      "nv2-nstreme",
      "nv2-nstreme-802.11",
      "unspecified",
    ], "802.11"),
    ro("interface-type", "str"),
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ...F_DISABLED, group: 0 },
    F_RUNNING,
  ],
  columns: ["name", "mtu", "mac-address", "mode", "ssid", "frequency", "band"],
  unique: [nameUnique],
  afterChange: renameCascade,
  defaults: () => [
    {
      name: "wlan1",
      "default-name": "wlan1",
      type: "wlan",
      mtu: "1500",
      l2mtu: "1600",
      "mac-address": mac(0x10),
      ssid: "MikroTik-12A3B4",
      mode: "ap-bridge",
      band: "2ghz-b/g/n",
      frequency: "auto",
      "channel-width": "20/40mhz-XX",
      country: "etsi",
      "security-profile": "default",
      "wireless-protocol": "802.11",
      "hide-ssid": "false",
      "interface-type": "Atheros AR9300",
      disabled: "false",
      dynamic: "false",
      running: "true",
      "link-downs": "0",
    },
    {
      name: "wlan2",
      "default-name": "wlan2",
      type: "wlan",
      mtu: "1500",
      l2mtu: "1600",
      "mac-address": mac(0x11),
      ssid: "MikroTik-12A3B5",
      mode: "ap-bridge",
      band: "5ghz-a/n/ac",
      frequency: "auto",
      "channel-width": "20/40/80mhz-XXXX",
      country: "etsi",
      "security-profile": "default",
      "wireless-protocol": "802.11",
      "hide-ssid": "false",
      "interface-type": "IPQ4019",
      disabled: "false",
      dynamic: "false",
      running: "true",
      "link-downs": "0",
    },
  ],
};

/** Interface menus. */
export const INTERFACE_MENUS: MenuDef[] = [
  INTERFACE,
  ETHERNET,
  POE,
  // `/interface/wifi` from 7.13; before, the wifiwave2 package (installed here).
  wifiMenu("/interface/wifi", WIFI),
  wifiMenu("/interface/wifiwave2", WIFIWAVE2),
  regTable("/interface/wifi/registration-table", WIFI, "wifi1"),
  regTable("/interface/wifiwave2/registration-table", WIFIWAVE2, "wifi1"),
  accessList("/interface/wifi/access-list", WIFI, "/interface/wifi"),
  accessList("/interface/wifiwave2/access-list", WIFIWAVE2, "/interface/wifiwave2"),
  SECURITY_PROFILES,
  WIRELESS,
  regTable("/interface/wireless/registration-table", {}, "wlan1"),
  accessList("/interface/wireless/access-list", {}, "/interface/wireless"),
  IF_LIST,
  IF_LIST_MEMBER,
  BRIDGE,
  BRIDGE_PORT,
  BRIDGE_VLAN,
  VLAN,
  WIREGUARD,
  WG_PEERS,
];
