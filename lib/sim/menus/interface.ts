/**
 * `/interface` and its kinds: the general menu, ethernet, PoE, VLAN and interface lists; bridge,
 * wireguard and wireless menus are in their own files.
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
import { fail } from "../errors.ts";
import { isTrue, sortedMap, type Val } from "../values.ts";
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
import {
  bridgePorts,
  GENERAL,
  IF_FLAGS,
  nameUnique,
  nextName,
  renameCascade,
} from "./interface_common.ts";
import { BRIDGE_MENUS } from "./interface_bridge.ts";
import { ETHERNET_MONITOR } from "./interface_ethernet_monitor.ts";
import { WIREGUARD_MENUS } from "./interface_wireguard.ts";
import { WIRELESS_MENUS } from "./interface_wireless.ts";
export { nextName, renameRefs } from "./interface_common.ts";

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
        // MikroTik's manual (Interface, monitor-traffic [find]): keys right-aligned four
        // blanks past the longest, values right-aligned in a column per interface, the
        // first at least ten wide (`         name:     ether1 ether2`,
        // `   rx-bits-per-second:   27.8kbps   0bps`)
        const keys = TRAFFIC_KEYS;
        const rows: [string, string[]][] = [["name", recs.map((r) => String(r.get("name")))]];
        for (const k of keys) {
          rows.push([k, recs.map((r) => showRate(k, Number(r.get(k))))]);
        }
        const w = Math.max(...rows.map((r) => r[0].length));
        const widths = recs.map((_, j) =>
          Math.max(j === 0 ? 10 : 0, ...rows.map(([, vs]) => vs[j].length))
        );
        for (const [k, vs] of rows) {
          c.print(`${k.padStart(w + 4)}: ${vs.map((v, j) => v.padStart(widths[j])).join(" ")}`);
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
  commands: { monitor: ETHERNET_MONITOR },
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
  check: (_i, _st, old) => {
    if (old && ["all", "none", "dynamic", "static"].includes(old.name)) {
      throw fail("failure: can not change builtin list");
    }
  },
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

/** Interface menus. */
export const INTERFACE_MENUS: MenuDef[] = [
  INTERFACE,
  ETHERNET,
  POE,
  ...WIRELESS_MENUS,
  IF_LIST,
  IF_LIST_MEMBER,
  ...BRIDGE_MENUS,
  VLAN,
  ...WIREGUARD_MENUS,
];
