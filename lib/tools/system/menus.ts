/**
 * Tools of the system menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/system.ts.
 *
 * @module
 */
import {
  clock,
  health,
  identity,
  ntpClient,
  packages,
  resource,
  routerboard,
} from "../../routeros/schema/menus/system.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/system/identity`. */
const identityTools: MenuTools = {
  schema: identity,
  toolset: "system",
  noun: noun("identity", "router identity"),
  core: ["get"],
  verbs: ["get", "update"],
  columns: ["name"],
  notes: "The identity is the router's name in prompts, neighbour discovery and WinBox.",
  example: { "update": { "name": "router-example" } },
};

/** `/system/clock`. */
const clockTools: MenuTools = {
  schema: clock,
  toolset: "system",
  noun: noun("clock", "system clock"),
  verbs: ["get", "update"],
  columns: ["date", "time", "time-zone-name", "gmt-offset"],
  notes:
    "Dates are 2024-06-26 on RouterOS 7 and jun/26/2024 on RouterOS 6. Prefer the NTP client over setting time by hand. Refused while a change waits for router_commit_changes and inside a change: revert jobs run by this clock.",
  example: { "update": { "time_zone_autodetect": false, "time_zone_name": "Europe/Riga" } },
};

/** `/system/ntp/client`. */
const ntpClientTools: MenuTools = {
  schema: ntpClient,
  toolset: "system",
  noun: noun("ntp_client", "NTP client"),
  verbs: ["get", "update"],
  columns: ["enabled", "mode", "servers", "status"],
  notes:
    "RouterOS 7 takes a list of servers (addresses or DNS names); RouterOS 6 takes primary_ntp and secondary_ntp addresses plus server_dns_names. Refused (but enabled: false) while a change waits for router_commit_changes and inside a change: a sync moves the clock revert jobs run by.",
  example: { "update": { "enabled": true } },
};

/** `/system/resource`. */
const resourceTools: MenuTools = {
  schema: resource,
  toolset: "system",
  noun: noun("system_resource", "system resources"),
  core: ["get"],
  verbs: ["get"],
  columns: ["version", "uptime", "cpu-load", "free-memory", "board-name"],
  notes:
    "Read-only. Memory and disk are bytes on RouterOS 7.13 and later; older versions print them with units (30.5MiB).",
};

/** `/system/routerboard`. */
const routerboardTools: MenuTools = {
  schema: routerboard,
  toolset: "system",
  noun: noun("routerboard", "RouterBOARD"),
  verbs: ["get"],
  columns: ["model", "serial-number", "current-firmware", "upgrade-firmware"],
  notes:
    "Read-only. routerboard=false on CHR and x86. When upgrade_firmware is newer than current_firmware, the firmware upgrade applies at the next reboot.",
};

/** `/system/package`. */
const packagesTools: MenuTools = {
  schema: packages,
  writeRole: "admin",
  toolset: "system",
  noun: noun("package", "installed package"),
  verbs: ["list"],
  columns: ["name", "version", "build-time", "scheduled", "disabled"],
  notes: "Read-only. scheduled tells what happens at the next reboot (install, uninstall).",
};

/** `/system/health`. */
const healthTools: MenuTools = {
  schema: health,
  toolset: "system",
  noun: noun("health_sensor", "health sensor"),
  verbs: ["list"],
  columns: ["name", "value", "type"],
  notes:
    "Read-only; which sensors exist depends on the hardware (none on CHR). RouterOS 6 prints health as one record, not a list (use router_print there).",
};

/** The menus of this family, in catalogue order. */
export const SYSTEM_MENU_TOOLS: readonly MenuTools[] = [
  identityTools,
  clockTools,
  ntpClientTools,
  resourceTools,
  routerboardTools,
  packagesTools,
  healthTools,
];
