/**
 * Schema of the services menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { duration, int, ipv4, list, mac, oneOf, scriptText, state, text } from "../field.ts";
import { comment, disabled, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/ip/service`. */
export const ipServices = menu({
  path: "/ip/service",
  kind: "list",
  key: "name",
  writes: ["set", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    name: state(text("Service: telnet, ftp, www, ssh, www-ssl, api, winbox, api-ssl")),
    port: int("TCP port", { min: 1, max: 65535 }),
    address: list('Prefixes allowed to connect, e.g. ["192.168.88.0/24"] (empty: anyone)', {
      item: "address",
    }),
    certificate: text("TLS certificate (www-ssl, api-ssl), or none"),
    "tls-version": oneOf(["any", "only-1.2"], "Accepted TLS versions (www-ssl, api-ssl)"),
    vrf: text("VRF the service listens in", { releases: { from: "7.0" } }),
    "max-sessions": int("Most concurrent sessions", { releases: { from: "7.16" } }),
    disabled: disabled(),
    invalid: invalid(),
  },
});

/** `/tool/netwatch`. */
export const netwatch = menu({
  path: "/tool/netwatch",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    host: text("Address (or name on RouterOS 7 dns probes) to probe", { required: true }),
    type: oneOf(
      ["simple", "icmp", "tcp-conn", "http-get", "https-get", "dns"],
      "Probe type (RouterOS 7.4 and later)",
      { releases: { from: "7.4" } },
    ),
    name: text("Entry name", { releases: { from: "7.0" } }),
    interval: duration("Time between probes, e.g. 10s"),
    timeout: duration("How long to wait for an answer, e.g. 1s"),
    "up-script": scriptText("Script run when the host comes up"),
    "down-script": scriptText("Script run when the host goes down"),
    "test-script": scriptText("Script run after every probe", { releases: { from: "7.4" } }),
    status: state(text("up, down or unknown")),
    since: state(text("When the status last changed")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/system/scheduler`. */
export const scheduler = menu({
  path: "/system/scheduler",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled" },
  fields: {
    name: text("Task name", { required: true }),
    "start-date": text("First run date (2024-06-26 on RouterOS 7, jun/26/2024 on RouterOS 6)"),
    "start-time": text("First run time, HH:MM:SS, or startup"),
    interval: duration("Time between runs, e.g. 1h or 1d (0s: once)"),
    "on-event": scriptText("Script to run (its text, or the name of a /system/script)"),
    policy: list('Policies the script runs with, e.g. ["read", "write", "test"]'),
    owner: state(text("User who created the task")),
    "run-count": state(int("How many times it ran")),
    "next-run": state(text("When it runs next")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/neighbor`. */
export const neighbors = menu({
  path: "/ip/neighbor",
  kind: "list",
  flags: { "D": "dynamic" },
  fields: {
    interface: state(text("Interface the neighbour was seen on")),
    address: state(ipv4("Neighbour's management address")),
    "mac-address": state(mac("Neighbour's MAC address")),
    identity: state(text("Neighbour's name")),
    platform: state(text("Platform, e.g. MikroTik")),
    version: state(text("Software version")),
    board: state(text("Hardware model")),
    uptime: state(text("Neighbour's uptime")),
    "interface-name": state(text("Neighbour's own port name")),
    "discovered-by": state(
      text("Protocols that saw it: mndp, cdp, lldp", { releases: { from: "7.0" } }),
    ),
  },
});

/** The menus of this family. */
export const SERVICES_SCHEMAS: readonly MenuSchema[] = [
  ipServices,
  netwatch,
  scheduler,
  neighbors,
];
