/**
 * `/system/*` menus: identity, resource, clock, routerboard, package, health,
 * ntp, scheduler, script; license and history are in `system_records.ts`.
 *
 * @module
 */
import { V6, V7 } from "../releases.ts";
import type { Item, MenuDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { fail } from "../errors.ts";
import {
  fmtBuildTime,
  fmtDate,
  fmtInterval,
  fmtTime,
  parseDate,
  parseTimeOfDay,
} from "../timefmt.ts";
import { bool, COMMENT, DISABLED, F_DISABLED, int, oneOf, ro, str } from "./common.ts";

/**
 * The license's software ID, which `/system license` shows and the export
 * header names (`# software id = 7QKN-RZ2V`).
 */
const SOFTWARE_ID = "7QKN-RZ2V";

/** Facts of the simulated hardware per major version. */
export function hardware(st: RouterState) {
  const facts = st.v6
    ? {
      board: "hAP ac^2",
      model: "RBD52G-5HacD2HnD",
      arch: "arm",
      cpu: "ARMv7",
      buildTime: fmtBuildTime(new Date(Date.UTC(2023, 7, 24, 9, 49, 12)), st.release),
      factory: "6.45.9",
      firmware: st.version,
      version: `${st.version} (long-term)`,
      serial: "D52G0A1B2C3D",
    }
    : {
      board: "hAP ax^2",
      model: "C52iG-5HaxD2HaxD",
      arch: "arm64",
      cpu: "ARM64",
      buildTime: fmtBuildTime(
        st.release.minor >= 16
          ? new Date(Date.UTC(2024, 8, 20, 13, 0, 27))
          : new Date(Date.UTC(2023, 9, 26, 8, 31, 47)),
        st.release,
      ),
      factory: "7.1",
      firmware: st.version,
      version: `${st.version} (stable)`,
      serial: "HF60A1B2C3D",
    };
  return { ...facts, softwareId: SOFTWARE_ID };
}

function mib(v: string): string {
  return (Number(v) / 1048576).toFixed(1) + "MiB";
}

/** `/system/identity`. */
const IDENTITY: MenuDef = {
  path: "/system/identity",
  kind: "single",
  props: [
    str("name", {
      default: "MikroTik",
      validate: (v) => (v ? undefined : "invalid value for argument name"),
    }),
  ],
  defaults: (st) => [{ name: st.init.identity }],
};

/** `/system/resource`. */
const RESOURCE: MenuDef = {
  path: "/system/resource",
  kind: "single",
  verbs: ["print", "get"],
  noExport: true,
  props: [
    // a duration: print shows `3h28m52s` (real-output/print-system-resource-*),
    // as-value and get a time value; it counts from the router's boot
    ro("uptime", "time", {
      compute: (_i, st) => fmtInterval(Math.floor((Date.now() - st.bootMs) / 1000)),
    }),
    ro("version", "str", { compute: (_i, st) => hardware(st).version }),
    ro("build-time", "str", { compute: (_i, st) => hardware(st).buildTime }),
    ro("factory-software", "str", { compute: (_i, st) => hardware(st).factory }),
    ro("free-memory", "int", { show: mib, compute: () => "914522112" }),
    ro("total-memory", "int", { show: mib, compute: () => "1073741824" }),
    ro("cpu", "str", { compute: (_i, st) => hardware(st).cpu }),
    ro("cpu-count", "int", { compute: () => "4" }),
    ro("cpu-frequency", "int", { show: (v) => v + "MHz", compute: () => "864" }),
    ro("cpu-load", "int", { show: (v) => v + "%", compute: () => "1" }),
    ro("free-hdd-space", "int", { show: mib, compute: () => "100139008" }),
    ro("total-hdd-space", "int", { show: mib, compute: () => "134217728" }),
    ro("write-sect-since-reboot", "int", { compute: () => "2087" }),
    ro("write-sect-total", "int", { compute: () => "25764" }),
    ro("bad-blocks", "str", { show: (v) => v + "%", compute: () => "0" }),
    ro("architecture-name", "str", { compute: (_i, st) => hardware(st).arch }),
    ro("board-name", "str", { compute: (_i, st) => hardware(st).board }),
    ro("platform", "str", { compute: () => "MikroTik" }),
  ],
  defaults: () => [{}],
};

/** `/system/clock`. */
const CLOCK: MenuDef = {
  path: "/system/clock",
  kind: "single",
  props: [
    { name: "time", type: "str", compute: (_i, st) => fmtTime(st.now()) },
    { name: "date", type: "str", compute: (_i, st) => fmtDate(st.now(), st.legacyDates) },
    bool("time-zone-autodetect", true, { releases: V7 }),
    str("time-zone-name", { default: "manual" }),
    ro("gmt-offset", "str", { compute: () => "+00:00" }),
    ro("dst-active", "bool", { compute: () => "false" }),
  ],
  commands: {
    set: {
      args: ["time", "date", "time-zone-name", "time-zone-autodetect"],
      write: true,
      run: (c) => {
        const now = c.st.now();
        let day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
        let secs = now.getUTCHours() * 3600 + now.getUTCMinutes() * 60 + now.getUTCSeconds();
        const d = c.named.get("date");
        const t = c.named.get("time");
        if (d !== undefined) {
          const p = parseDate(d);
          if (!p) throw fail("invalid value for argument date");
          day = Date.UTC(p[0], p[1], p[2]);
        }
        if (t !== undefined) {
          const s = parseTimeOfDay(t);
          if (s === null) throw fail("invalid value for argument time");
          secs = s;
        }
        const it = c.st.table("/system/clock").items[0];
        for (const k of ["time-zone-name", "time-zone-autodetect"]) {
          const v = c.named.get(k);
          if (v !== undefined) {
            it[k] = k === "time-zone-autodetect" ? String(v === "yes" || v === "true") : v;
          }
        }
        if (d !== undefined || t !== undefined) {
          const real = c.st.now().getTime() - c.st.clockOffsetMs;
          c.st.clockOffsetMs = day + secs * 1000 - real;
        }
        c.st.touch();
      },
    },
  },
  defaults: (
    st,
  ): Item[] => [
    st.v6
      ? { "time-zone-name": "manual" }
      : { "time-zone-autodetect": "true", "time-zone-name": "manual" },
  ],
};

/** `/system/routerboard`. */
const ROUTERBOARD: MenuDef = {
  path: "/system/routerboard",
  kind: "single",
  noExport: true,
  props: [
    ro("routerboard", "bool", { compute: () => "true" }),
    ro("board-name", "str", { compute: (_i, st) => hardware(st).board }),
    ro("model", "str", { compute: (_i, st) => hardware(st).model }),
    ro("serial-number", "str", { compute: (_i, st) => hardware(st).serial }),
    ro("firmware-type", "str", { compute: (_i, st) => (st.v6 ? "ipq4000L" : "ipq5000") }),
    ro("factory-firmware", "str", { compute: (_i, st) => hardware(st).factory }),
    ro("current-firmware", "str", { compute: (_i, st) => hardware(st).firmware }),
    ro("upgrade-firmware", "str", { compute: (_i, st) => hardware(st).firmware }),
  ],
  defaults: () => [{}],
};

/** `/system/package`. */
const PACKAGE: MenuDef = {
  path: "/system/package",
  kind: "list",
  key: "name",
  verbs: ["print", "find", "get", "enable", "disable"],
  noAdd: true,
  noExport: true,
  props: [
    ro("name", "str"),
    ro("version", "str"),
    ro("build-time", "str"),
    ro("size", "str"),
    ro("scheduled", "str"),
    { name: "disabled", type: "bool", default: "false" },
  ],
  flags: [F_DISABLED],
  columns: ["name", "version", "build-time", "size"],
  defaults: (st) => {
    const hw = hardware(st);
    const ver = hw.version.split(" ")[0];
    const names = st.packages;
    return names.map((name) => ({
      name,
      version: ver,
      "build-time": hw.buildTime,
      size: name.startsWith("routeros") ? "12.8MiB" : "4.2MiB",
      scheduled: "",
      disabled: "false",
    }));
  },
};

/** `/system/health`: v7 is a list of sensors, v6 a singleton. */
const HEALTH7: MenuDef = {
  path: "/system/health",
  kind: "list",
  releases: V7,
  // no find: every 7.x tree lists only print, get, set, edit and export
  verbs: ["print", "get"],
  noAdd: true,
  noExport: true,
  props: [ro("name", "str"), ro("value", "str"), ro("type", "str")],
  columns: ["name", "value", "type"],
  defaults: () => [
    { name: "cpu-temperature", value: "47", type: "C" },
    { name: "board-temperature1", value: "39", type: "C" },
  ],
};
const HEALTH6: MenuDef = {
  path: "/system/health",
  kind: "single",
  releases: V6,
  noExport: true,
  props: [
    ro("voltage", "str", { compute: () => "24.1V" }),
    ro("temperature", "str", { compute: () => "41C" }),
  ],
  defaults: () => [{}],
};

/** `/system/ntp/client`. */
const NTP_CLIENT: MenuDef = {
  path: "/system/ntp/client",
  kind: "single",
  props: [
    bool("enabled", false),
    oneOf("mode", ["broadcast", "manycast", "multicast", "unicast"], "unicast"),
    str("servers", { default: "", releases: V7 }),
    str("vrf", { default: "main", releases: V7 }),
    str("primary-ntp", { default: "0.0.0.0", releases: V6 }),
    str("secondary-ntp", { default: "0.0.0.0", releases: V6 }),
    str("server-dns-names", { default: "", releases: V6 }),
    ro("status", "str", {
      releases: V7,
      compute: (i) => (i.enabled === "true" ? (i.servers ? "synchronized" : "waiting") : "stopped"),
    }),
  ],
  defaults: (
    st,
  ): Item[] => [
    st.v6
      ? {
        enabled: "false",
        mode: "unicast",
        "primary-ntp": "0.0.0.0",
        "secondary-ntp": "0.0.0.0",
        "server-dns-names": "",
      }
      : { enabled: "false", mode: "unicast", servers: "", vrf: "main" },
  ],
};

function dateNorm(v: string, st: RouterState): string {
  const p = parseDate(v);
  return p ? fmtDate(new Date(Date.UTC(p[0], p[1], p[2])), st.legacyDates) : v;
}

const POLICY_DEFAULT = "ftp,reboot,read,write,policy,test,password,sniff,sensitive,romon";

/** `/system/scheduler`. */
const SCHEDULER: MenuDef = {
  path: "/system/scheduler",
  unset: { from: "7.24" },
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `schedule${st.stored(SCHEDULER).length + 1}` }),
    str("start-date", {
      default: (_i, st) => fmtDate(st.now(), st.legacyDates),
      validate: (v) => (parseDate(v) ? undefined : "invalid value for argument start-date"),
      normalize: dateNorm,
    }),
    str("start-time", {
      default: (_i, st) => fmtTime(st.now()),
      validate: (
        v,
      ) => (v === "startup" || parseTimeOfDay(v) !== null
        ? undefined
        : "invalid value for argument start-time"),
      normalize: (v) => {
        const s = parseTimeOfDay(v);
        if (s === null) return v;
        const p2 = (n: number) => String(n).padStart(2, "0");
        return `${p2(Math.floor(s / 3600))}:${p2(Math.floor(s / 60) % 60)}:${p2(s % 60)}`;
      },
    }),
    { name: "interval", type: "time", default: "0s" },
    str("on-event", { default: "" }),
    ro("owner", "str"),
    str("policy", { default: POLICY_DEFAULT }),
    ro("run-count", "int", { default: "0" }),
    ro("next-run", "str", {
      compute: (i, st) => {
        const n = st.nextRunOf(i[".id"]);
        if (n === null) return undefined;
        const d = new Date(n);
        return st.v6 ? fmtTime(d) : `${fmtDate(d, false)} ${fmtTime(d)}`;
      },
    }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "start-date", "start-time", "interval", "on-event", "run-count"],
  columns6: ["name", "start-date", "start-time", "interval", "on-event", "run-count"],
  unique: [{ props: ["name"], error: "failure: item with such name already exists" }],
  check: (it, st, old) => {
    if (!old) {
      it.owner = st.currentUser;
      it["run-count"] = "0";
    }
  },
};

/** `/system/script`. */
const SCRIPT: MenuDef = {
  path: "/system/script",
  unset: { from: "7.24" },
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `script${st.stored(SCRIPT).length + 1}` }),
    str("source", { default: "" }),
    // An export writes the owner, the policy and `dont-require-permissions=no` of
    // every script (`add dont-require-permissions=no name=Backup owner=admin
    // policy=ftp,read,...` of a public 6.48.1 export; the same in 7.15 exports).
    str("owner", { exportAlways: true }),
    str("policy", { default: POLICY_DEFAULT, exportAlways: true }),
    bool("dont-require-permissions", false, { exportAlways: true }),
    ro("run-count", "int", { default: "0" }),
    ro("last-started", "str"),
    ro("invalid", "bool", { compute: () => "false" }),
    COMMENT,
  ],
  flags: [{ ch: "I", name: "invalid", group: 0, test: (i) => i.invalid === "true" }],
  columns: ["name", "owner", "last-started", "run-count"],
  unique: [{ props: ["name"], error: "failure: script with such name already exists" }],
  check: (it, st, old) => {
    if (!old && it.owner === undefined) it.owner = st.currentUser;
  },
  commands: {
    run: {
      numbers: true,
      numbersName: "number",
      run: (c) => {
        for (const id of c.ids) {
          const it = c.st.stored(SCRIPT).find((s) => s[".id"] === id);
          if (!it) continue;
          it["run-count"] = String(Number(it["run-count"] ?? "0") + 1);
          it["last-started"] = c.st.nowText();
          c.runScript(it.source ?? "");
        }
      },
    },
  },
};

/** System menus. */
export const SYSTEM_MENUS: MenuDef[] = [
  IDENTITY,
  CLOCK,
  NTP_CLIENT,
  SCHEDULER,
  SCRIPT,
  RESOURCE,
  ROUTERBOARD,
  PACKAGE,
  HEALTH7,
  HEALTH6,
];
export type { Item };
export { int };
