/**
 * Service menus: IP services, netwatch, the scheduler and neighbours.
 *
 * @module
 */
import { list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_X, FLAGS_XID, invalid } from "./common.ts";

/** `/ip/service`: management services (ssh, winbox, api, www...). */
export const ipServices: Menu = {
  path: "/ip/service",
  toolset: "services",
  singular: "ip_service",
  plural: "ip_services",
  noun: "IP management services",
  notes: "Services: telnet, ftp, www, ssh, www-ssl, api, winbox, api-ssl. They cannot be " +
    "added or removed. address limits who may connect. Disabling ssh or changing its " +
    "port or address cuts this server's own access.",
  key: "name",
  fields: {
    name: state(text("Service: telnet, ftp, www, ssh, www-ssl, api, winbox, api-ssl")),
    port: num("TCP port"),
    address: list('Prefixes allowed to connect, e.g. ["192.168.88.0/24"] (empty: anyone)'),
    certificate: text("TLS certificate (www-ssl, api-ssl), or none"),
    "tls-version": oneOf(["any", "only-1.2"], "Accepted TLS versions (www-ssl, api-ssl)"),
    vrf: text("VRF the service listens in", { versions: { min: "7.0" } }),
    "max-sessions": num("Most concurrent sessions", { versions: { min: "7.0" } }),
    disabled: disabled(),
    invalid: invalid(),
  },
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "port", "address", "certificate", "disabled"],
  flags: FLAGS_XID,
  example: { target: { name: "telnet" }, update: { address: ["192.168.88.0/24"] } },
};

/** `/tool/netwatch`: host monitors that run scripts on state changes. */
export const netwatch: Menu = {
  path: "/tool/netwatch",
  toolset: "services",
  singular: "netwatch",
  plural: "netwatches",
  noun: "netwatch host monitors",
  notes: "Each entry probes a host every interval and runs up_script or down_script (RouterOS " +
    "script text, run with the rights of the netwatch) when the state changes. Times are " +
    "RouterOS durations such as 10s or 1m.",
  fields: {
    host: text("Address (or name on RouterOS 7 dns probes) to probe", { required: true }),
    type: oneOf(
      ["simple", "icmp", "tcp-conn", "http-get", "https-get", "dns"],
      "Probe type (RouterOS 7.4 and later)",
      { versions: { min: "7.4" } },
    ),
    name: text("Entry name", { versions: { min: "7.15" } }),
    interval: text("Time between probes, e.g. 10s"),
    timeout: text("How long to wait for an answer, e.g. 1s"),
    "up-script": text("Script run when the host comes up"),
    "down-script": text("Script run when the host goes down"),
    "test-script": text("Script run after every probe", { versions: { min: "7.4" } }),
    status: state(text("up, down or unknown")),
    since: state(text("When the status last changed")),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["host", "interval", "status", "since", "disabled", "comment"],
  flags: FLAGS_X,
  example: {
    add: { host: "10.99.5.1", interval: "30s", comment: "example" },
    update: { interval: "1m" },
  },
};

/** `/system/scheduler`: scripts run at times or intervals. */
export const scheduler: Menu = {
  path: "/system/scheduler",
  toolset: "services",
  singular: "scheduled_task",
  plural: "scheduled_tasks",
  noun: "scheduled tasks",
  notes: "on_event is RouterOS script text (or a /system script name) run with the rights in " +
    "policy. start_time is HH:MM:SS or startup; interval 0s means run once.",
  key: "name",
  fields: {
    name: text("Task name", { required: true }),
    "start-date": text("First run date (2024-06-26 on RouterOS 7, jun/26/2024 on RouterOS 6)"),
    "start-time": text("First run time, HH:MM:SS, or startup"),
    interval: text("Time between runs, e.g. 1h or 1d (0s: once)"),
    "on-event": text("Script to run"),
    policy: list('Policies the script runs with, e.g. ["read", "write", "test"]'),
    owner: state(text("User who created the task")),
    "run-count": state(num("How many times it ran")),
    "next-run": state(text("When it runs next")),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "start-time", "interval", "next-run", "run-count", "disabled", "comment"],
  flags: FLAGS_X,
  example: {
    add: {
      name: "example-task",
      interval: "1d",
      on_event: ':log info "example"',
      comment: "example",
    },
    update: { interval: "12h" },
  },
};

/** `/ip/neighbor`: devices seen by MNDP, CDP and LLDP. */
export const neighbors: Menu = {
  path: "/ip/neighbor",
  toolset: "services",
  singular: "neighbor",
  plural: "neighbors",
  noun: "discovered neighbours",
  notes: "Read-only: devices on directly connected segments that announce themselves " +
    "(MikroTik MNDP, CDP, LLDP).",
  fields: {
    interface: state(text("Interface the neighbour was seen on")),
    address: state(text("Neighbour's management address")),
    "mac-address": state(text("Neighbour's MAC address")),
    identity: state(text("Neighbour's name")),
    platform: state(text("Platform, e.g. MikroTik")),
    version: state(text("Software version")),
    board: state(text("Hardware model")),
    uptime: state(text("Neighbour's uptime")),
    "interface-name": state(text("Neighbour's own port name")),
    "discovered-by": state(
      text("Protocols that saw it: mndp, cdp, lldp", { versions: { min: "7.0" } }),
    ),
    dynamic: dynamic(),
  },
  verbs: ["list"],
  columns: ["interface", "address", "mac-address", "identity", "platform", "version"],
  flags: { D: "dynamic" },
};
