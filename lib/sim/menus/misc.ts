/**
 * Smaller menus: `/log`, `/file`, `/queue/*`, `/tool/netwatch`, `/user/active`.
 *
 * @module
 */
import { V6, V7 } from "../releases.ts";
import type { CommandCtx, Item, MenuDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { fmtTime } from "../timefmt.ts";
import { isTrue } from "../values.ts";
import { fail } from "../errors.ts";
import { fileSize } from "../file_bytes.ts";
import {
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_INVALID,
  int,
  INVALID,
  oneOf,
  ro,
  statusTable,
  str,
} from "./common.ts";

/** `/log`. */
const LOG = statusTable({
  path: "/log",
  props: [ro("time", "str"), ro("topics", "str"), ro("message", "str")],
  columns: ["time", "topics", "message"],
  printer: (items: Item[], st: RouterState) =>
    items.map((i) => `${st.v6 ? i.time.split(" ")[1] ?? i.time : i.time} ${i.topics} ${i.message}`),
  defaults: (st) => {
    const t = new Date(st.bootMs);
    const when = st.v6 ? `${fmtTime(t)}` : st.nowText();
    return [
      { time: when, topics: "system,info", message: "router rebooted" },
      { time: when, topics: "interface,info", message: "ether1 link up (speed 1G, full duplex)" },
      {
        time: when,
        topics: "dhcp,info",
        message: "defconf assigned 192.168.88.254 for 3C:22:FB:11:22:33 laptop",
      },
    ];
  },
});

const FILE_TYPES = ["directory", "file", "backup", "script", ".txt file", "package"];

/** `/file`. */
const FILE: MenuDef = {
  path: "/file",
  kind: "list",
  key: "name",
  props: [
    // renaming (`set name=`) from 7.13; writing the type from 7.16 (the 7.12.2,
    // 7.13.5 and 7.16.2 trees), read-only before
    str("name", { required: true, setReleases: { from: "7.13" } }),
    ro("type", "str", { default: "file", releases: { until: "7.15" } }),
    oneOf("type", FILE_TYPES, "file", { releases: { from: "7.16" } }),
    ro("size", "str", {
      compute: (i) => (i.type === "directory" ? undefined : String(fileSize(i))),
    }),
    ro("creation-time", "str", { releases: V6 }),
    ro("last-modified", "str", { releases: V7 }),
    str("contents", { noPrint: true }),
  ],
  columns: ["name", "type", "size", "last-modified"],
  columns6: ["name", "type", "size", "creation-time"],
  noExport: true,
  unique: [{ props: ["name"], error: "failure: file already exists" }],
  check: (it, st) => {
    it[st.v6 ? "creation-time" : "last-modified"] = st.nowText();
  },
  defaults: (st) => [
    { name: "skins", type: "directory", [st.v6 ? "creation-time" : "last-modified"]: st.nowText() },
    { name: "pub", type: "directory", [st.v6 ? "creation-time" : "last-modified"]: st.nowText() },
  ],
};

/** `/queue/simple`. */
const QUEUE_SIMPLE: MenuDef = {
  path: "/queue/simple",
  unset: {},
  kind: "list",
  key: "name",
  ordered: true,
  props: [
    str("name", { default: (_i, st) => `queue${st.stored(QUEUE_SIMPLE).length + 1}` }),
    str("target", { required: true }),
    str("dst"),
    str("parent", { default: "none" }),
    str("packet-marks", { default: "" }),
    str("priority", { default: "8/8" }),
    str("queue", { default: "default-small/default-small" }),
    str("limit-at", { default: "0/0" }),
    str("max-limit", { default: "0/0" }),
    str("burst-limit", { default: "0/0" }),
    str("burst-threshold", { default: "0/0" }),
    str("burst-time", { default: "0s/0s" }),
    ro("rate", "str", { compute: () => "0bps/0bps" }),
    { ...INVALID, compute: () => "false" },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID, F_DYNAMIC],
  columns: ["name", "target", "rate", "max-limit"],
  columns6: ["name", "target", "rate", "max-limit"],
  unique: [{ props: ["name"], error: "failure: already have queue with such name" }],
};

/** `/queue/tree`. */
const QUEUE_TREE: MenuDef = {
  path: "/queue/tree",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `queue${st.stored(QUEUE_TREE).length + 1}` }),
    str("parent", { required: true }),
    str("packet-mark", { default: "" }),
    int("priority", 8, { min: 1, max: 8 }),
    str("queue", { default: "default-small" }),
    str("limit-at", { default: "0" }),
    str("max-limit", { default: "0" }),
    { ...INVALID, compute: () => "false" },
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_INVALID],
  columns: ["name", "parent", "packet-mark", "limit-at", "max-limit"],
  unique: [{ props: ["name"], error: "failure: already have queue with such name" }],
};

const BUILTIN_TYPES: [string, string][] = [
  ["default", "pfifo"],
  ["ethernet-default", "pfifo"],
  ["wireless-default", "sfq"],
  ["synchronous-default", "red"],
  ["hotspot-default", "sfq"],
  ["pcq-upload-default", "pcq"],
  ["pcq-download-default", "pcq"],
  ["only-hardware-queue", "none"],
  ["multi-queue-ethernet-default", "mq-pfifo"],
  ["default-small", "pfifo"],
];

/** `/queue/type`. */
const QUEUE_TYPE: MenuDef = {
  path: "/queue/type",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf(
      "kind",
      ["bfifo", "cake", "fq-codel", "mq-pfifo", "none", "pcq", "pfifo", "red", "sfq"],
      "pfifo",
    ),
    int("pfifo-limit", 50),
    str("pcq-rate", { default: "0" }),
    str("pcq-classifier", { default: "" }),
    ro("default", "bool", { compute: (i) => String(BUILTIN_TYPES.some(([n]) => n === i.name)) }),
  ],
  flags: [{ ch: "*", name: "default", group: 0, test: (i) => isTrue(i.default) }],
  columns: ["name", "kind"],
  unique: [{ props: ["name"], error: "failure: already have type with such name" }],
  exportSkip: (i) => BUILTIN_TYPES.some(([n]) => n === i.name),
  defaults: () =>
    BUILTIN_TYPES.map(([name, kind]) => ({
      name,
      kind,
      "pfifo-limit": name === "default-small" ? "10" : "50",
    })),
};

/** `/tool/netwatch`. */
const NETWATCH: MenuDef = {
  path: "/tool/netwatch",
  unset: {},
  kind: "list",
  props: [
    str("host", { required: true }),
    oneOf("type", ["dns", "http-get", "https-get", "icmp", "simple", "tcp-conn"], "simple", {
      releases: V7,
    }),
    { name: "interval", type: "time", default: "10s" },
    { name: "timeout", type: "time", default: "1s" },
    str("up-script", { default: "" }),
    str("down-script", { default: "" }),
    ro("status", "str", {
      compute: (
        i,
      ) => (isTrue(i.disabled)
        ? "unknown"
        : /^(198\.51\.100|203\.0\.113)\./.test(i.host)
        ? "down"
        : "up"),
    }),
    ro("since", "str"),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["host", "type", "interval", "timeout", "status", "since"],
  columns6: ["host", "timeout", "interval", "status", "since"],
  check: (it, st, old) => {
    if (!old) it.since = st.nowText();
  },
};

/** Ends the selected sessions. */
function logout(c: CommandCtx): void {
  if (!c.ids.length) throw fail("missing value(s) of argument(s) numbers");
  for (const id of c.ids) c.st.endSession(id);
}

/** `/user/active`: logged-in sessions. */
const USER_ACTIVE = statusTable({
  path: "/user/active",
  props: [
    ro("when", "str"),
    ro("name", "str"),
    ro("address", "str"),
    ro("via", "str"),
    ro("group", "str"),
  ],
  columns: ["when", "name", "address", "via"],
  commands: {
    // `request-logout` up to 7.19 (the 7.16.2 tree has it), `remove` from 7.20
    // (the 7.20.8 and later trees); RouterOS 6 has neither
    "request-logout": {
      numbers: true,
      write: true,
      releases: { from: "7.0", until: "7.19" },
      run: logout,
    },
    remove: { numbers: true, write: true, releases: { from: "7.20" }, run: logout },
  },
  dynamic: (st) =>
    st.activeSessions().map((s) => ({
      ".id": s.id,
      when: s.when,
      name: s.name,
      address: s.address,
      via: s.via,
      group: st.findByKey("/user", s.name)?.group ?? "",
    })),
});

/** Miscellaneous menus. */
export const MISC_MENUS: MenuDef[] = [
  QUEUE_TYPE,
  QUEUE_SIMPLE,
  QUEUE_TREE,
  NETWATCH,
  FILE,
  LOG,
  USER_ACTIVE,
];
export { COMMENT, DYNAMIC, F_DYNAMIC };
