/**
 * `/ppp` (secret, profile, active) and the L2TP server settings.
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
import { fail } from "../errors.ts";
import { V7 } from "../releases.ts";
import { bool, COMMENT, DISABLED, F_DISABLED, int, oneOf, ro, statusTable, str } from "./common.ts";

const BUILTIN_PROFILES = ["default", "default-encryption"];
const TRI = ["default", "no", "yes"];
const TRI_REQUIRED = ["default", "no", "required", "yes"];

/** `/ppp/profile`. */
const PPP_PROFILE: MenuDef = {
  path: "/ppp/profile",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    str("local-address", { default: "" }),
    str("remote-address", { default: "" }),
    str("dns-server", { default: "" }),
    str("rate-limit", { default: "" }),
    oneOf("only-one", TRI, "default"),
    oneOf("use-encryption", TRI_REQUIRED, "default"),
    oneOf("change-tcp-mss", TRI, "default"),
    str("bridge", { default: "" }),
    str("address-list", { default: "" }),
    str("interface-list", { default: "" }),
    str("idle-timeout", { default: "" }),
    str("session-timeout", { default: "" }),
    str("on-up", { default: "" }),
    str("on-down", { default: "" }),
    ro("default", "bool", {
      releases: V7,
      compute: (i) => String(BUILTIN_PROFILES.includes(i.name)),
    }),
    COMMENT,
  ],
  flags: [{ ch: "*", name: "default", group: 0, test: (i) => BUILTIN_PROFILES.includes(i.name) }],
  columns: ["name", "local-address", "remote-address", "bridge", "rate-limit", "only-one"],
  unique: [{ props: ["name"], error: "failure: profile with the same name already exists" }],
  checkRemove: (i) => {
    if (BUILTIN_PROFILES.includes(i.name)) throw fail("failure: cannot remove default profile");
  },
  exportSkip: (i) => BUILTIN_PROFILES.includes(i.name),
  defaults: () =>
    BUILTIN_PROFILES.map((name) => ({
      name,
      "local-address": "",
      "remote-address": "",
      "dns-server": "",
      "rate-limit": "",
      "only-one": "default",
      "use-encryption": name === "default" ? "default" : "yes",
      "change-tcp-mss": "yes",
      bridge: "",
      "address-list": "",
      "interface-list": "",
      "idle-timeout": "",
      "session-timeout": "",
      "on-up": "",
      "on-down": "",
    })),
};

/** `/ppp/secret`. */
const PPP_SECRET: MenuDef = {
  path: "/ppp/secret",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    str("password", { sensitive: true, default: "" }),
    oneOf("service", ["any", "async", "l2tp", "ovpn", "pppoe", "pptp", "sstp"], "any"),
    { name: "profile", type: "ref", ref: "/ppp/profile", default: "default" },
    str("local-address", { default: "" }),
    str("remote-address", { default: "" }),
    str("routes", { default: "" }),
    str("caller-id", { default: "" }),
    int("limit-bytes-in", 0, { min: 0 }),
    int("limit-bytes-out", 0, { min: 0 }),
    ro("last-logged-out", "str", { releases: V7, compute: (i) => i["last-logged-out"] ?? "never" }),
    ro("last-caller-id", "str", { releases: V7, compute: (i) => i["last-caller-id"] ?? "" }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "service", "caller-id", "profile", "local-address", "remote-address"],
  unique: [{ props: ["name"], error: "failure: secret with the same name already exists" }],
};

/** `/ppp/active`: sessions connected now (none on a fresh router). */
const PPP_ACTIVE = statusTable({
  path: "/ppp/active",
  key: "name",
  props: [
    ro("name", "str"),
    ro("service", "str"),
    ro("caller-id", "str"),
    ro("address", "str"),
    ro("uptime", "time"),
    ro("encoding", "str"),
    ro("session-id", "str"),
    ro("radius", "bool", { default: "false" }),
    ro("comment", "str"),
  ],
  flags: [{ ch: "R", name: "radius", group: 0, test: (i: Item) => i.radius === "true" }],
  columns: ["name", "service", "caller-id", "address", "uptime"],
}, { remove: true });

/** `/interface/l2tp-server/server` (settings). */
const L2TP_SERVER: MenuDef = {
  path: "/interface/l2tp-server/server",
  kind: "single",
  props: [
    bool("enabled", false),
    { name: "default-profile", type: "ref", ref: "/ppp/profile", default: "default-encryption" },
    {
      name: "authentication",
      type: "list",
      values: ["chap", "mschap1", "mschap2", "pap"],
      default: "mschap1,mschap2",
    },
    oneOf("use-ipsec", ["no", "required", "yes"], "no"),
    str("ipsec-secret", { sensitive: true, default: "" }),
    int("max-mtu", 1450, { min: 0, max: 65535 }),
    int("max-mru", 1450, { min: 0, max: 65535 }),
    str("keepalive-timeout", { default: "30" }),
    str("max-sessions", { default: "unlimited" }),
    bool("one-session-per-host", false),
    oneOf("caller-id-type", ["ip-address", "number"], "ip-address"),
  ],
  defaults: () => [{
    enabled: "false",
    "default-profile": "default-encryption",
    authentication: "mschap1,mschap2",
    "use-ipsec": "no",
    "ipsec-secret": "",
    "max-mtu": "1450",
    "max-mru": "1450",
    "keepalive-timeout": "30",
    "max-sessions": "unlimited",
    "one-session-per-host": "false",
    "caller-id-type": "ip-address",
  }],
};

const AUTH = ["chap", "mschap1", "mschap2", "pap"];

/** `/interface/sstp-server/server` (settings). */
const SSTP_SERVER: MenuDef = {
  path: "/interface/sstp-server/server",
  kind: "single",
  props: [
    bool("enabled", false),
    int("port", 443, { min: 1, max: 65535 }),
    str("certificate", { default: "none" }),
    { name: "default-profile", type: "ref", ref: "/ppp/profile", default: "default" },
    { name: "authentication", type: "list", values: AUTH, default: "pap,chap,mschap1,mschap2" },
    bool("verify-client-certificate", false),
    oneOf("tls-version", ["any", "only-1.2"], "any"),
    oneOf("pfs", ["no", "required", "yes"], "no"),
    int("max-mtu", 1500, { min: 0, max: 65535 }),
    int("max-mru", 1500, { min: 0, max: 65535 }),
  ],
  defaults: () => [{
    enabled: "false",
    port: "443",
    certificate: "none",
    "default-profile": "default",
    authentication: "pap,chap,mschap1,mschap2",
    "verify-client-certificate": "false",
    "tls-version": "any",
    pfs: "no",
    "max-mtu": "1500",
    "max-mru": "1500",
  }],
};

/** `/interface/pppoe-server/server`. */
const PPPOE_SERVER: MenuDef = {
  path: "/interface/pppoe-server/server",
  kind: "list",
  key: "service-name",
  props: [
    str("service-name", { default: (_i, st) => `service${st.stored(PPPOE_SERVER).length + 1}` }),
    { name: "interface", type: "ref", ref: "/interface", required: true },
    { name: "default-profile", type: "ref", ref: "/ppp/profile", default: "default" },
    { name: "authentication", type: "list", values: AUTH, default: "pap,chap,mschap1,mschap2" },
    bool("one-session-per-host", false),
    int("max-mtu", 1480, { min: 0, max: 65535 }),
    int("max-mru", 1480, { min: 0, max: 65535 }),
    str("max-sessions", { default: "unlimited" }),
    int("pado-delay", 0, { min: 0 }),
    ro("invalid", "bool", { compute: (i, st) => String(!st.findByKey("/interface", i.interface)) }),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["service-name", "interface", "max-mtu", "max-mru"],
  unique: [{ props: ["service-name"], error: "failure: service with such name already exists" }],
};

/** `/ppp/aaa` (settings). */
const PPP_AAA: MenuDef = {
  path: "/ppp/aaa",
  kind: "single",
  props: [
    bool("use-radius", false),
    bool("accounting", true),
    { name: "interim-update", type: "time", default: "0s" },
  ],
  defaults: () => [{ "use-radius": "false", accounting: "true", "interim-update": "0s" }],
};

/** PPP menus. */
export const PPP_MENUS: MenuDef[] = [
  PPP_PROFILE,
  PPP_SECRET,
  PPP_ACTIVE,
  L2TP_SERVER,
  SSTP_SERVER,
  PPPOE_SERVER,
  PPP_AAA,
];
