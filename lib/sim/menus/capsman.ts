/**
 * CAPsMAN: the legacy controller of `/caps-man` (every release; the
 * wireless package from 7.13, installed here) and the wifi controller of
 * `/interface/wifi/capsman` with wifi configurations and provisioning
 * (7.13 and later). No CAP ever connects to a simulated router: remote
 * CAPs, registrations and CAPsMAN interfaces start empty.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { bool, COMMENT, DISABLED, F_DISABLED, int, oneOf, ro, statusTable, str } from "./common.ts";

const WIFI = { from: "7.13" };

/** A name taken once in the menu. */
const uniqueName = (what: string) => ({
  props: ["name"],
  error: `failure: ${what} with the same name already exists`,
});

/** A comma-separated list of names of `path` (each must exist, as a `ref` must). */
function refList(name: string, path: string): PropDef {
  return {
    name,
    type: "list",
    validate: (v: string, _i: Item, st: RouterState) => {
      const m = st.menus.byPath(path, st.release);
      const names = new Set(m ? st.list(m).map((it) => it.name) : []);
      const bad = v.split(",").filter(Boolean).some((n) => !names.has(n));
      return bad ? `input does not match any value of ${name}` : undefined;
    },
  };
}

/** The controller's settings (both menus share most of them). */
function manager(path: string, releases: MenuDef["releases"], upgrade: string[]): MenuDef {
  const wifi = path.startsWith("/interface/");
  return {
    path,
    kind: "single",
    ...(releases ? { releases } : {}),
    props: [
      bool("enabled", false),
      ...(wifi ? [{ name: "interfaces", type: "list", default: "all" } as PropDef] : []),
      str("certificate", { default: "none" }),
      str("ca-certificate", { default: "none" }),
      bool("require-peer-certificate", false),
      str("package-path", { default: "" }),
      oneOf("upgrade-policy", upgrade, "none"),
    ],
    defaults: () => [{
      enabled: "false",
      ...(wifi ? { interfaces: "all" } : {}),
      certificate: "none",
      "ca-certificate": "none",
      "require-peer-certificate": "false",
      "package-path": "",
      "upgrade-policy": "none",
    }],
  };
}

/** The legacy CAPsMAN needs the `wireless` package from 7.13 (`packages.ts`). */
const WIRELESS_PACKAGE = { name: "wireless", releases: { from: "7.13" } };

/** `/caps-man/configuration`. */
const CAPS_CONFIGURATION: MenuDef = {
  path: "/caps-man/configuration",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf("mode", ["ap"], "ap"),
    str("ssid"),
    str("country"),
    bool("hide-ssid"),
    int("max-sta-count", undefined, { min: 1, max: 2007 }),
    str("channel.band"),
    str("channel.frequency"),
    str("channel.control-channel-width"),
    {
      name: "security.authentication-types",
      type: "list",
      values: ["wpa-psk", "wpa2-psk", "wpa-eap", "wpa2-eap"],
    },
    { name: "security.encryption", type: "list", values: ["aes-ccm", "tkip"] },
    str("security.passphrase", { sensitive: true }),
    str("datapath.bridge"),
    bool("datapath.local-forwarding"),
    bool("datapath.client-to-client-forwarding"),
    int("datapath.vlan-id", undefined, { min: 1, max: 4095 }),
    COMMENT,
  ],
  columns: ["name", "ssid", "mode", "channel.band", "security.authentication-types"],
  unique: [uniqueName("configuration")],
};

/** `/caps-man/provisioning`: rules, in order; the master configuration must exist. */
const CAPS_PROVISIONING: MenuDef = {
  path: "/caps-man/provisioning",
  kind: "list",
  ordered: true,
  props: [
    oneOf(
      "action",
      ["create-disabled", "create-dynamic-enabled", "create-enabled", "none"],
      "none",
    ),
    { name: "master-configuration", type: "ref", ref: "/caps-man/configuration" },
    refList("slave-configurations", "/caps-man/configuration"),
    oneOf("name-format", ["cap", "identity", "prefix", "prefix-identity"], "cap"),
    str("name-prefix", { default: "" }),
    { name: "radio-mac", type: "mac", default: "00:00:00:00:00:00" },
    { name: "hw-supported-modes", type: "list" },
    str("identity-regexp"),
    str("common-name-regexp"),
    str("ip-address-ranges"),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["radio-mac", "action", "master-configuration", "name-format"],
};

/** A run-time table of connected CAPs or clients: empty, read and remove only. */
function runTime(path: string, releases: MenuDef["releases"], cols: string[]): MenuDef {
  return statusTable({
    path,
    ...(releases ? { releases } : {}),
    props: cols.map((c) => ro(c, "str")),
    columns: cols.slice(0, 5),
    defaults: () => [],
  }, { remove: true });
}

/** `/caps-man/interface`: made by provisioning when a CAP connects (none here). */
const CAPS_INTERFACE: MenuDef = {
  path: "/caps-man/interface",
  kind: "list",
  key: "name",
  props: [
    str("name"),
    { name: "mac-address", type: "mac" },
    { name: "radio-mac", type: "mac", default: "00:00:00:00:00:00" },
    { name: "master-interface", type: "ref", ref: "/caps-man/interface", refAllow: ["none"] },
    { name: "configuration", type: "ref", ref: "/caps-man/configuration" },
    ro("master", "bool", { default: "true" }),
    ro("dynamic", "bool", { default: "false" }),
    ro("bound", "bool", { default: "false" }),
    ro("inactive", "bool", { default: "true" }),
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ch: "M", name: "master", group: 0, test: (i) => i.master === "true" },
    { ch: "D", name: "dynamic", group: 1, test: (i) => i.dynamic === "true" },
    { ch: "B", name: "bound", group: 2, test: (i) => i.bound === "true" },
    { ...F_DISABLED, group: 3 },
    { ch: "I", name: "inactive", group: 4, test: (i) => i.inactive === "true" },
  ],
  columns: ["name", "radio-mac", "configuration"],
  unique: [{ props: ["name"], error: "failure: interface with such name exists" }],
};

/** `/interface/wifi/configuration`. */
const WIFI_CONFIGURATION: MenuDef = {
  path: "/interface/wifi/configuration",
  kind: "list",
  key: "name",
  releases: WIFI,
  props: [
    str("name", { required: true }),
    oneOf("mode", ["ap", "station", "station-bridge", "station-pseudobridge"]),
    str("ssid"),
    str("country"),
    bool("hide-ssid"),
    oneOf("manager", ["capsman", "capsman-or-local", "local"]),
    str("channel.band"),
    str("channel.frequency"),
    str("channel.width"),
    {
      name: "security.authentication-types",
      type: "list",
      values: [
        "owe",
        "wpa-eap",
        "wpa-psk",
        "wpa2-eap",
        "wpa2-psk",
        "wpa3-eap",
        "wpa3-eap-192",
        "wpa3-psk",
      ],
    },
    str("security.passphrase", { sensitive: true }),
    str("datapath.bridge"),
    int("datapath.vlan-id", undefined, { min: 1, max: 4095 }),
    bool("datapath.client-isolation"),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "mode", "ssid", "manager", "channel.band"],
  unique: [uniqueName("configuration")],
};

/** `/interface/wifi/provisioning`. */
const WIFI_PROVISIONING: MenuDef = {
  path: "/interface/wifi/provisioning",
  kind: "list",
  ordered: true,
  releases: WIFI,
  props: [
    oneOf("action", [
      "create-disabled",
      "create-dynamic-enabled",
      "create-enabled",
      "none",
      "use-network-config",
    ], "none"),
    { name: "master-configuration", type: "ref", ref: "/interface/wifi/configuration" },
    refList("slave-configurations", "/interface/wifi/configuration"),
    { name: "supported-bands", type: "list" },
    str("name-format"),
    str("slave-name-format", { releases: { from: "7.16" } }),
    { name: "radio-mac", type: "mac" },
    str("identity-regexp"),
    str("common-name-regexp"),
    str("address-ranges"),
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["action", "master-configuration", "supported-bands", "radio-mac"],
};

/** CAPsMAN menus: legacy on every release, wifi from 7.13. */
const LEGACY_MENUS: MenuDef[] = [
  manager("/caps-man/manager", undefined, [
    "none",
    "require-same-version",
    "suggest-same-upgrade",
  ]),
  CAPS_CONFIGURATION,
  CAPS_PROVISIONING,
  runTime("/caps-man/remote-cap", undefined, [
    "address",
    "identity",
    "board",
    "version",
    "state",
    "base-mac",
    "radios",
  ]),
  runTime("/caps-man/registration-table", undefined, [
    "interface",
    "mac-address",
    "ssid",
    "uptime",
    "rx-signal",
    "tx-rate",
    "rx-rate",
  ]),
  CAPS_INTERFACE,
];

/** CAPsMAN menus. */
export const CAPSMAN_MENUS: MenuDef[] = [
  ...LEGACY_MENUS.map((m) => ({ ...m, package: WIRELESS_PACKAGE })),
  manager("/interface/wifi/capsman", WIFI, [
    "none",
    "require-same-version",
    "suggest-same-version",
  ]),
  runTime("/interface/wifi/capsman/remote-cap", WIFI, [
    "address",
    "identity",
    "board-name",
    "version",
    "state",
    "base-mac",
    "serial",
    "uptime",
  ]),
  WIFI_CONFIGURATION,
  WIFI_PROVISIONING,
];
