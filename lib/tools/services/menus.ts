/**
 * Tools of the services menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/services.ts.
 *
 * @module
 */
import {
  ipServices,
  neighbors,
  netwatch,
  scheduler,
} from "../../routeros/schema/menus/services.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { sshService } from "../guard/lockout.ts";

/** `/ip/service`. */
const ipServicesTools: MenuTools = {
  schema: ipServices,
  toolset: "services",
  noun: noun("ip_service", "IP management service"),
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "port", "address", "certificate", "disabled"],
  notes:
    "Services: telnet, ftp, www, ssh, www-ssl, api, winbox, api-ssl. They cannot be added or removed. address limits who may connect. Disabling ssh or changing its port or address cuts this server's own access.",
  example: { "target": { "name": "telnet" }, "update": { "address": ["192.168.88.0/24"] } },
  lockout: sshService,
};

/** `/tool/netwatch`. */
const netwatchTools: MenuTools = {
  schema: netwatch,
  writeRole: "admin",
  toolset: "services",
  noun: noun("netwatch", "netwatch host monitor"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["host", "interval", "status", "since", "disabled", "comment"],
  notes:
    "Each entry probes a host every interval and runs up_script or down_script (RouterOS script text, run with the rights of the netwatch) when the state changes. Times are RouterOS durations such as 10s or 1m.",
  example: {
    "add": { "host": "10.99.5.1", "interval": "30s", "comment": "example" },
    "update": { "interval": "1m" },
  },
};

/** `/system/scheduler`. */
const schedulerTools: MenuTools = {
  schema: scheduler,
  writeRole: "admin",
  toolset: "services",
  noun: noun("scheduled_task", "scheduled task"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "start-time", "interval", "next-run", "run-count", "disabled", "comment"],
  notes:
    "on_event is RouterOS script text (or a /system script name) run with the rights in policy. start_time is HH:MM:SS or startup; interval 0s means run once.",
  example: {
    "add": {
      "name": "example-task",
      "interval": "1d",
      "on_event": ':log info "example"',
      "comment": "example",
    },
    "update": { "interval": "12h" },
  },
};

/** `/ip/neighbor`. */
const neighborsTools: MenuTools = {
  schema: neighbors,
  toolset: "services",
  noun: noun("neighbor", "discovered neighbour"),
  verbs: ["list"],
  columns: ["interface", "address", "mac-address", "identity", "platform", "version"],
  notes:
    "Read-only: devices on directly connected segments that announce themselves (MikroTik MNDP, CDP, LLDP).",
};

/** The menus of this family, in catalogue order. */
export const SERVICES_MENU_TOOLS: readonly MenuTools[] = [
  ipServicesTools,
  netwatchTools,
  schedulerTools,
  neighborsTools,
];
