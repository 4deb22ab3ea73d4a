/**
 * Schema of the system menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, int, list, oneOf, state, text } from "../field.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/system/identity`. */
export const identity = menu({
  path: "/system/identity",
  kind: "singleton",
  writes: ["set"],
  fields: {
    name: text("Router name, e.g. core-rtr-1"),
  },
});

/** Fields whose write may move the router's clock (revert jobs run by it). */
const CLOCK = { movesClock: true } as const;

/** `/system/clock`. */
export const clock = menu({
  path: "/system/clock",
  kind: "singleton",
  writes: ["set"],
  fields: {
    time: text("Local time, HH:MM:SS", CLOCK),
    date: text("Local date (2024-06-26 on RouterOS 7, jun/26/2024 on RouterOS 6)", CLOCK),
    "time-zone-name": text("Time zone, e.g. Europe/Riga or manual", CLOCK),
    "time-zone-autodetect": bool("Guess the time zone from the public IP address", CLOCK),
    "gmt-offset": state(text("Offset from UTC in effect, e.g. +03:00")),
    "dst-active": state(bool("Whether daylight saving time is in effect")),
  },
});

/** `/system/ntp/client`. */
export const ntpClient = menu({
  path: "/system/ntp/client",
  kind: "singleton",
  writes: ["set"],
  fields: {
    // Any of these may start a synchronisation that steps the clock.
    enabled: bool("Synchronise the clock", CLOCK),
    mode: oneOf(
      ["broadcast", "manycast", "multicast", "unicast"],
      "Client mode (read-only on RouterOS 6)",
      CLOCK,
    ),
    servers: list('NTP servers, addresses or DNS names, e.g. ["pool.ntp.org"]', {
      releases: { from: "7.0" },
      ...CLOCK,
    }),
    vrf: text("VRF the client uses (default main)", { releases: { from: "7.0" }, ...CLOCK }),
    "primary-ntp": text("First NTP server address", { releases: { until: "6.99" }, ...CLOCK }),
    "secondary-ntp": text("Second NTP server address", { releases: { until: "6.99" }, ...CLOCK }),
    "server-dns-names": list("NTP servers by DNS name", {
      releases: { until: "6.99" },
      ...CLOCK,
    }),
    status: state(text("Synchronisation state, e.g. synchronized", { releases: { from: "7.0" } })),
    "synced-server": state(text("Server synchronised to", { releases: { from: "7.0" } })),
    "synced-stratum": state(int("Stratum of that server", { releases: { from: "7.0" } })),
    "freq-drift": state(text("Clock frequency drift in PPM", { releases: { from: "7.0" } })),
  },
});

/** `/system/resource`. */
export const resource = menu({
  path: "/system/resource",
  kind: "singleton",
  fields: {
    uptime: state(text("Time since boot, e.g. 1w2d03:04:05")),
    version: state(text("RouterOS version, e.g. 7.16 (stable)")),
    "build-time": state(text("When this RouterOS build was made")),
    "factory-software": state(text("RouterOS version the device shipped with")),
    "free-memory": state(text("Free RAM")),
    "total-memory": state(text("Total RAM")),
    cpu: state(text("CPU model")),
    "cpu-count": state(int("Number of CPU cores")),
    "cpu-frequency": state(int("CPU frequency in MHz")),
    "cpu-load": state(text("CPU load in percent")),
    "free-hdd-space": state(text("Free storage")),
    "total-hdd-space": state(text("Total storage")),
    "write-sect-since-reboot": state(int("Sectors written since boot")),
    "write-sect-total": state(int("Sectors written in total")),
    "bad-blocks": state(text("Bad storage blocks in percent")),
    "architecture-name": state(text("CPU architecture, e.g. arm64")),
    "board-name": state(text("Board model, e.g. hAP ax^2")),
    platform: state(text("Platform, MikroTik")),
  },
});

/** `/system/routerboard`. */
export const routerboard = menu({
  path: "/system/routerboard",
  kind: "singleton",
  hardware: true,
  fields: {
    routerboard: state(bool("Whether this is MikroTik hardware")),
    model: state(text("Model, e.g. RB5009UG+S+")),
    "serial-number": state(text("Serial number")),
    "firmware-type": state(text("Boot loader type")),
    "factory-firmware": state(text("Firmware the device shipped with")),
    "current-firmware": state(text("Firmware running now")),
    "upgrade-firmware": state(text("Firmware available for upgrade")),
  },
});

/** `/system/package`. */
export const packages = menu({
  path: "/system/package",
  kind: "list",
  key: "name",
  writes: ["enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    name: state(text("Package name, e.g. routeros or wifi-qcom")),
    version: state(text("Package version")),
    "build-time": state(text("When it was built")),
    scheduled: state(text("Change scheduled for the next reboot")),
    size: state(text("Package size")),
    disabled: state(bool("Whether the package is disabled")),
  },
});

/** `/system/health`. */
export const health = menu({
  path: "/system/health",
  kind: "list",
  writes: ["set"],
  releases: { from: "7.0" },
  flags: {},
  fields: {
    name: state(text("Sensor, e.g. cpu-temperature, voltage, fan1-speed")),
    value: state(text("Reading, as text")),
    type: state(text("Unit, e.g. C, V, RPM, W")),
  },
});

/** The menus of this family. */
export const SYSTEM_SCHEMAS: readonly MenuSchema[] = [
  identity,
  clock,
  ntpClient,
  resource,
  routerboard,
  packages,
  health,
];
