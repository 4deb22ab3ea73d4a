/**
 * System menus: identity, clock, NTP client, resources, RouterBOARD,
 * packages and health.
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";

const V7 = { min: "7.0" };
const V6 = { max: "6.99" };

/** `/system/identity`: the router's name. */
export const identity: Menu = {
  path: "/system/identity",
  toolset: "system",
  singular: "identity",
  plural: "identity",
  noun: "router identity",
  notes: "The identity is the router's name in prompts, neighbour discovery and WinBox.",
  singleton: true,
  fields: { name: text("Router name, e.g. core-rtr-1") },
  verbs: ["get", "update"],
  columns: ["name"],
  example: { update: { name: "router-example" } },
};

/** `/system/clock`: date, time and time zone. */
export const clock: Menu = {
  path: "/system/clock",
  toolset: "system",
  singular: "clock",
  plural: "clock",
  noun: "system clock",
  notes: "Dates are 2024-06-26 on RouterOS 7 and jun/26/2024 on RouterOS 6. Prefer the NTP " +
    "client over setting time by hand.",
  singleton: true,
  fields: {
    time: text("Local time, HH:MM:SS"),
    date: text("Local date (2024-06-26 on RouterOS 7, jun/26/2024 on RouterOS 6)"),
    "time-zone-name": text("Time zone, e.g. Europe/Riga or manual"),
    "time-zone-autodetect": flag("Guess the time zone from the public IP address"),
    "gmt-offset": state(text("Offset from UTC in effect, e.g. +03:00")),
    "dst-active": state(flag("Whether daylight saving time is in effect")),
  },
  verbs: ["get", "update"],
  columns: ["date", "time", "time-zone-name", "gmt-offset"],
  example: { update: { time_zone_autodetect: false, time_zone_name: "Europe/Riga" } },
};

/** `/system/ntp/client`: time synchronisation. */
export const ntpClient: Menu = {
  path: "/system/ntp/client",
  toolset: "system",
  singular: "ntp_client",
  plural: "ntp_client",
  noun: "NTP client settings",
  notes: "RouterOS 7 takes a list of servers (addresses or DNS names); RouterOS 6 takes " +
    "primary_ntp and secondary_ntp addresses plus server_dns_names.",
  singleton: true,
  fields: {
    enabled: flag("Synchronise the clock"),
    mode: oneOf(
      ["broadcast", "manycast", "multicast", "unicast"],
      "Client mode (read-only on RouterOS 6)",
    ),
    servers: list('NTP servers, addresses or DNS names, e.g. ["pool.ntp.org"]', {
      versions: V7,
    }),
    vrf: text("VRF the client uses (default main)", { versions: V7 }),
    "primary-ntp": text("First NTP server address", { versions: V6 }),
    "secondary-ntp": text("Second NTP server address", { versions: V6 }),
    "server-dns-names": list("NTP servers by DNS name", { versions: V6 }),
    status: state(text("Synchronisation state, e.g. synchronized", { versions: V7 })),
    "synced-server": state(text("Server synchronised to", { versions: V7 })),
    "synced-stratum": state(num("Stratum of that server", { versions: V7 })),
    "freq-drift": state(text("Clock frequency drift in PPM", { versions: V7 })),
  },
  verbs: ["get", "update"],
  columns: ["enabled", "mode", "servers", "status"],
  example: { update: { enabled: true } },
};

/** `/system/resource`: version, uptime, CPU and memory. */
export const resource: Menu = {
  path: "/system/resource",
  toolset: "system",
  singular: "system_resource",
  plural: "system_resource",
  noun: "system resources",
  notes: "Read-only. Memory and disk are bytes on RouterOS 7.13 and later; older versions " +
    "print them with units (30.5MiB).",
  singleton: true,
  fields: {
    uptime: state(text("Time since boot, e.g. 1w2d03:04:05")),
    version: state(text("RouterOS version, e.g. 7.16 (stable)")),
    "build-time": state(text("When this RouterOS build was made")),
    "factory-software": state(text("RouterOS version the device shipped with")),
    "free-memory": state(text("Free RAM")),
    "total-memory": state(text("Total RAM")),
    cpu: state(text("CPU model")),
    "cpu-count": state(num("Number of CPU cores")),
    "cpu-frequency": state(num("CPU frequency in MHz")),
    "cpu-load": state(text("CPU load in percent")),
    "free-hdd-space": state(text("Free storage")),
    "total-hdd-space": state(text("Total storage")),
    "write-sect-since-reboot": state(num("Sectors written since boot")),
    "write-sect-total": state(num("Sectors written in total")),
    "bad-blocks": state(text("Bad storage blocks in percent")),
    "architecture-name": state(text("CPU architecture, e.g. arm64")),
    "board-name": state(text("Board model, e.g. hAP ax^2")),
    platform: state(text("Platform, MikroTik")),
  },
  verbs: ["get"],
  columns: ["version", "uptime", "cpu-load", "free-memory", "board-name"],
};

/** `/system/routerboard`: hardware and firmware. */
export const routerboard: Menu = {
  path: "/system/routerboard",
  toolset: "system",
  singular: "routerboard",
  plural: "routerboard",
  noun: "RouterBOARD details",
  notes: "Read-only. routerboard=false on CHR and x86. When upgrade_firmware is newer than " +
    "current_firmware, the firmware upgrade applies at the next reboot.",
  singleton: true,
  fields: {
    routerboard: state(flag("Whether this is MikroTik hardware")),
    model: state(text("Model, e.g. RB5009UG+S+")),
    "serial-number": state(text("Serial number")),
    "firmware-type": state(text("Boot loader type")),
    "factory-firmware": state(text("Firmware the device shipped with")),
    "current-firmware": state(text("Firmware running now")),
    "upgrade-firmware": state(text("Firmware available for upgrade")),
  },
  verbs: ["get"],
  columns: ["model", "serial-number", "current-firmware", "upgrade-firmware"],
};

/** `/system/package`: installed software packages. */
export const packages: Menu = {
  path: "/system/package",
  toolset: "system",
  singular: "package",
  plural: "packages",
  noun: "installed packages",
  notes: "Read-only. scheduled tells what happens at the next reboot (install, uninstall).",
  key: "name",
  fields: {
    name: state(text("Package name, e.g. routeros or wifi-qcom")),
    version: state(text("Package version")),
    "build-time": state(text("When it was built")),
    scheduled: state(text("Change scheduled for the next reboot")),
    size: state(text("Package size")),
    disabled: state(flag("Whether the package is disabled")),
  },
  verbs: ["list"],
  columns: ["name", "version", "build-time", "scheduled", "disabled"],
  flags: { X: "disabled" },
};

/** `/system/health`: sensors (voltage, temperature, fans, PSUs). */
export const health: Menu = {
  path: "/system/health",
  toolset: "system",
  singular: "health_sensor",
  plural: "health_sensors",
  noun: "health sensors",
  notes: "Read-only; which sensors exist depends on the hardware (none on CHR). RouterOS 6 " +
    "prints health as one record, not a list (use router_print there).",
  versions: V7,
  fields: {
    name: state(text("Sensor, e.g. cpu-temperature, voltage, fan1-speed")),
    value: state(text("Reading, as text")),
    type: state(text("Unit, e.g. C, V, RPM, W")),
  },
  verbs: ["list"],
  columns: ["name", "value", "type"],
  flags: {},
};
