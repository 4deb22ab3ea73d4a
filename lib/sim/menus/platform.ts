/**
 * Platform menus: `/system/logging` (+ action, with the built-in rules and
 * actions), `/container` (the container package, which the simulator
 * always has, as the real trees with extra packages do), RADIUS, User
 * Manager and hotspot. `/certificate` is in certificate.ts.
 *
 * @module
 */
import type { CommandDef, Item, MenuDef } from "../menu_types.ts";
import { fail } from "../errors.ts";
import { CERTIFICATE } from "./certificate.ts";
import { onRelease, V7 } from "../releases.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  int,
  oneOf,
  ro,
  statusTable,
  str,
} from "./common.ts";

const isDefault = (i: Item) => isTrue(i.default);
const F_DEFAULT = { ch: "*", name: "default", group: 1, test: isDefault };

const BUILTIN_ACTIONS = ["memory", "disk", "echo", "remote"];

const SCRIPT_TARGET = { from: "7.22" };

/** `/system/logging/action`. */
const LOGGING_ACTION: MenuDef = {
  path: "/system/logging/action",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf("target", ["disk", "echo", "email", "memory", "remote", "script"], "memory", {
      validate: (v, _i, st) =>
        v === "script" && !onRelease(st.release, SCRIPT_TARGET)
          ? "input does not match any value of target"
          : undefined,
    }),
    str("remote", { default: "0.0.0.0" }),
    // 7.22 on: target=script runs it for each message.
    str("script", { default: "", releases: SCRIPT_TARGET }),
    int("remote-port", 514, { min: 1, max: 65535 }),
    str("src-address", { default: "0.0.0.0" }),
    oneOf("syslog-facility", [
      "auth",
      "authpriv",
      "cron",
      "daemon",
      "ftp",
      "kern",
      "local0",
      "local1",
      "local2",
      "local3",
      "local4",
      "local5",
      "local6",
      "local7",
      "lpr",
      "mail",
      "news",
      "ntp",
      "syslog",
      "user",
      "uucp",
    ], "daemon"),
    oneOf("syslog-severity", [
      "alert",
      "auto",
      "critical",
      "debug",
      "emergency",
      "error",
      "info",
      "notice",
      "warning",
    ], "auto"),
    int("memory-lines", 1000, { min: 1 }),
    str("disk-file-name", { default: "log" }),
    int("disk-file-count", 2, { min: 1 }),
    int("disk-lines-per-file", 1000, { min: 1 }),
    str("email-to"),
    bool("remember", true),
    ro("default", "bool", { releases: V7, default: "false" }),
    COMMENT,
  ],
  flags: [F_DEFAULT],
  columns: ["name", "target", "remote"],
  unique: [{ props: ["name"], error: "failure: action with such name already exists" }],
  checkRemove: (i) => {
    if (isDefault(i)) throw fail("failure: can not remove default action");
  },
  exportSkip: isDefault,
  defaults: () =>
    BUILTIN_ACTIONS.map((name) => ({
      name,
      target: name,
      remote: "0.0.0.0",
      "remote-port": "514",
      "src-address": "0.0.0.0",
      "syslog-facility": "daemon",
      "syslog-severity": "auto",
      "memory-lines": "1000",
      "disk-file-name": "log",
      "disk-file-count": "2",
      "disk-lines-per-file": "1000",
      remember: "true",
      default: "true",
    })),
};

/** `/system/logging`. */
const LOGGING: MenuDef = {
  path: "/system/logging",
  kind: "list",
  props: [
    { name: "topics", type: "str", required: true },
    {
      name: "action",
      type: "ref",
      ref: "/system/logging/action",
      default: "memory",
    },
    str("prefix", { default: "" }),
    ro("default", "bool", { releases: V7, default: "false" }),
    ro("invalid", "bool", {
      compute: (i, st) => String(!st.findByKey("/system/logging/action", i.action)),
    }),
    DISABLED,
  ],
  flags: [F_DISABLED, F_DEFAULT],
  columns: ["topics", "action", "prefix"],
  exportSkip: isDefault,
  defaults: () =>
    [["info", "memory"], ["error", "memory"], ["warning", "memory"], ["critical", "echo"]].map((
      [topics, action],
    ) => ({ topics, action, prefix: "", default: "true", disabled: "false" })),
};

/** `/container`. */
const CONTAINER: MenuDef = {
  path: "/container",
  kind: "list",
  releases: { from: "7.4" },
  props: [
    str("name", { releases: { from: "7.20" } }),
    str("remote-image"),
    str("file"),
    str("interface"),
    str("root-dir"),
    str("cmd"),
    str("entrypoint"),
    str("hostname"),
    str("dns"),
    str("workdir"),
    str("user"),
    bool("logging", false),
    bool("start-on-boot", false),
    ro("status", "str", { default: "stopped" }),
    DYNAMIC,
    COMMENT,
  ],
  flags: [{ ch: "S", name: "stopped", group: 0, test: (i) => i.status === "stopped" }],
  columns: ["name", "remote-image", "interface", "root-dir", "status"],
  check: (i) => {
    if (!i["remote-image"] && !i.file) throw fail("failure: remote-image or file required");
  },
};

/** `/radius`. */
const RADIUS: MenuDef = {
  path: "/radius",
  kind: "list",
  ordered: true,
  props: [
    {
      name: "service",
      type: "list",
      values: ["dhcp", "dot1x", "hotspot", "ipsec", "login", "ppp", "wireless"],
      required: true,
    },
    { name: "address", type: "ip", required: true },
    str("secret", { sensitive: true, default: "" }),
    int("authentication-port", 1812, { min: 1, max: 65535 }),
    int("accounting-port", 1813, { min: 1, max: 65535 }),
    { name: "timeout", type: "time", default: "300ms" },
    str("src-address", { default: "0.0.0.0" }),
    str("realm", { default: "" }),
    oneOf("protocol", ["radsec", "udp"], "udp", { releases: V7 }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["service", "address", "secret"],
};

/** `/user-manager/user` (the user-manager package, which the simulator always has). */
const UM_USER: MenuDef = {
  path: "/user-manager/user",
  kind: "list",
  key: "name",
  releases: { from: "7.1" },
  props: [
    str("name", { required: true }),
    str("password", { sensitive: true, default: "" }),
    str("group", { default: "default" }),
    int("shared-users", 1, { min: 1 }),
    str("caller-id", { default: "" }),
    str("attributes", { default: "" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "group", "shared-users"],
  unique: [{ props: ["name"], error: "failure: user with the same name already exists" }],
};

const UM_OUTER_AUTHS = [
  "chap",
  "eap-mschap2",
  "eap-peap",
  "eap-tls",
  "eap-ttls",
  "mschap1",
  "mschap2",
  "pap",
];
const UM_INNER_AUTHS = ["peap-mschap2", "ttls-chap", "ttls-mschap1", "ttls-mschap2", "ttls-pap"];

/**
 * `/user-manager/user/group`: the built-in `default` and `default-anonymous`
 * (every authentication method), plus what is added. A group's `attributes`
 * go back in each of its users' Access-Accept.
 */
const UM_GROUP: MenuDef = {
  path: "/user-manager/user/group",
  kind: "list",
  key: "name",
  releases: { from: "7.1" },
  props: [
    str("name", { required: true }),
    str("attributes", { default: "" }),
    { name: "inner-auths", type: "list", values: UM_INNER_AUTHS, default: "" },
    { name: "outer-auths", type: "list", values: UM_OUTER_AUTHS, default: "" },
    COMMENT,
  ],
  columns: ["name", "attributes", "outer-auths"],
  unique: [{ props: ["name"], error: "failure: group with the same name already exists" }],
  defaults: () =>
    ["default", "default-anonymous"].map((name) => ({
      name,
      attributes: "",
      "inner-auths": UM_INNER_AUTHS.join(","),
      "outer-auths": UM_OUTER_AUTHS.join(","),
      comment: "",
    })),
};

/** `/user-manager/router`. */
const UM_ROUTER: MenuDef = {
  path: "/user-manager/router",
  kind: "list",
  key: "name",
  releases: { from: "7.1" },
  props: [
    str("name", { required: true }),
    { name: "address", type: "ip", required: true },
    str("shared-secret", { sensitive: true, default: "" }),
    int("coa-port", 3799, { min: 1, max: 65535 }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "address", "coa-port"],
  unique: [{ props: ["name"], error: "failure: router with the same name already exists" }],
};

/** `/ip/hotspot`. */
const HOTSPOT: MenuDef = {
  path: "/ip/hotspot",
  kind: "list",
  key: "name",
  props: [
    str("name", { default: (_i, st) => `hotspot${st.stored(HOTSPOT).length + 1}` }),
    { name: "interface", type: "ref", ref: "/interface", required: true },
    {
      name: "address-pool",
      type: "ref",
      ref: "/ip/pool",
      refAllow: ["none"],
      default: "none",
    },
    str("profile", { default: "default" }),
    str("addresses-per-mac", { default: "2" }),
    { name: "idle-timeout", type: "time", values: ["none"], default: "5m" },
    { name: "login-timeout", type: "time", values: ["none"], default: "none" },
    ro("invalid", "bool", { compute: (i, st) => String(!st.findByKey("/interface", i.interface)) }),
    DISABLED,
  ],
  flags: [F_DISABLED],
  columns: ["name", "interface", "profile", "idle-timeout"],
  unique: [
    { props: ["name"], error: "failure: server with such name already exists" },
    { props: ["interface"], error: "failure: server for such interface already exists" },
  ],
};

/** `/ip/hotspot/user` (RouterOS 7 has the built-in default-trial user). */
const HOTSPOT_USER: MenuDef = {
  path: "/ip/hotspot/user",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    str("password", { sensitive: true, default: "" }),
    str("profile", { default: "default" }),
    str("server", { default: "all" }),
    { name: "mac-address", type: "mac" },
    str("address"),
    { name: "limit-uptime", type: "time", default: "0s" },
    int("limit-bytes-total", 0, { min: 0 }),
    ro("uptime", "time", { default: "0s" }),
    ro("default", "bool", { releases: V7, default: "false" }),
    DYNAMIC,
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED, F_DEFAULT],
  columns: ["server", "name", "address", "profile", "uptime"],
  unique: [{ props: ["name"], error: "failure: user with the same name already exists" }],
  exportSkip: isDefault,
  defaults: (st) =>
    st.v6 ? [] : [{
      name: "default-trial",
      password: "",
      profile: "default",
      server: "all",
      "limit-uptime": "0s",
      "limit-bytes-total": "0",
      uptime: "0s",
      default: "true",
      dynamic: "false",
      disabled: "false",
    }],
};

/** `/ip/hotspot/active` (nobody is logged in on a simulated router). */
const HOTSPOT_ACTIVE = statusTable({
  path: "/ip/hotspot/active",
  props: [
    ro("user", "str"),
    ro("server", "str"),
    ro("address", "str"),
    ro("mac-address", "str"),
    ro("uptime", "time"),
    ro("login-by", "str"),
    ro("session-time-left", "str"),
  ],
  columns: ["server", "user", "address", "uptime"],
});

const FROM_7_22 = { from: "7.22" };

/** `/container/envs`: the list's name is `name` up to 7.19, `list` from 7.20. */
const CONTAINER_ENVS: MenuDef = {
  path: "/container/envs",
  kind: "list",
  releases: { from: "7.4" },
  props: [
    str("name", { releases: { until: "7.19" } }),
    str("list", { releases: { from: "7.20" } }),
    str("key", { required: true }),
    str("value", { default: "" }),
    { ...DISABLED, releases: FROM_7_22 },
    COMMENT,
  ],
  flags: [{ ...F_DISABLED, releases: FROM_7_22 }],
  columns: ["name", "list", "key", "value"],
};

/** `/container/mounts`: `name` up to 7.21, `list` from 7.22; read-only in 7.20 to 7.22. */
const CONTAINER_MOUNTS: MenuDef = {
  path: "/container/mounts",
  kind: "list",
  releases: { from: "7.4" },
  props: [
    str("name", { releases: { until: "7.21" } }),
    str("list", { releases: FROM_7_22 }),
    str("src", { required: true }),
    str("dst", { required: true }),
    bool("read-only", false, { releases: { from: "7.20", until: "7.22" } }),
    { ...DISABLED, releases: FROM_7_22 },
    COMMENT,
  ],
  flags: [{ ...F_DISABLED, releases: FROM_7_22 }],
  columns: ["name", "list", "src", "dst"],
};

/** `/container/config` (settings). */
const CONTAINER_CONFIG: MenuDef = {
  path: "/container/config",
  kind: "single",
  releases: { from: "7.4" },
  props: [
    str("registry-url", { default: "" }),
    str("username", { default: "" }),
    str("password", { sensitive: true, default: "" }),
    str("tmpdir", { default: "" }),
    str("layer-dir", { default: "" }),
  ],
  defaults: () => [{ "registry-url": "", username: "", password: "", tmpdir: "", "layer-dir": "" }],
};

/**
 * `start` and `stop`: the selection is `number` up to 7.16 and `numbers`
 * from 7.20 (the 7.16.2 and 7.20.8 trees); a positional selection works on both.
 */
function startStop(numbersName: string): MenuDef["commands"] {
  const to = (status: string): CommandDef => ({
    numbers: true,
    numbersName,
    write: true,
    run: (c) => {
      for (const it of c.st.stored(c.menu!).filter((x) => c.ids.includes(x[".id"]))) {
        it.status = status;
      }
      c.st.touch();
    },
  });
  return { start: to("running"), stop: to("stopped") };
}

/** Platform menus. */
export const PLATFORM_MENUS: MenuDef[] = [
  CERTIFICATE,
  LOGGING_ACTION,
  LOGGING,
  { ...CONTAINER, releases: { from: "7.4", until: "7.19" }, commands: startStop("number") },
  { ...CONTAINER, releases: { from: "7.20" }, commands: startStop("numbers") },
  CONTAINER_CONFIG,
  CONTAINER_ENVS,
  CONTAINER_MOUNTS,
  RADIUS,
  UM_USER,
  UM_GROUP,
  UM_ROUTER,
  HOTSPOT,
  HOTSPOT_USER,
  HOTSPOT_ACTIVE,
];
