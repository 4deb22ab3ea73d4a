/**
 * The wireless interface menus: wifi, wifiwave2 and the v6-style wireless package.
 *
 * @module
 */
import type { MenuDef, PropDef } from "../menu_types.ts";
import type { ReleaseRange } from "../../routeros/release.ts";
import { V6 } from "../releases.ts";
import { fail } from "../errors.ts";
import { isTrue } from "../values.ts";
import {
  bool,
  COMMENT,
  DISABLED,
  F_DISABLED,
  F_RUNNING,
  int,
  mac,
  oneOf,
  ro,
  RUNNING,
  str,
} from "./common.ts";

import { nameUnique, renameCascade } from "./interface_common.ts";

const WIFI_PROPS: PropDef[] = [
  str("name"),
  ro("default-name", "str"),
  { name: "mac-address", type: "mac" },
  { name: "master-interface", type: "ref", ref: "/interface/wifi" },
  str("configuration.ssid"),
  oneOf("configuration.mode", ["ap", "station", "station-bridge"], "ap"),
  str("configuration.country"),
  {
    name: "security.authentication-types",
    type: "list",
    values: [
      "wpa-psk",
      "wpa2-psk",
      "wpa-eap",
      "wpa2-eap",
      "wpa3-psk",
      "owe",
      "wpa3-eap",
      "wpa3-eap-192",
    ],
  },
  str("security.passphrase", { sensitive: true }),
  oneOf("channel.band", [
    "2ghz-ax",
    "2ghz-g",
    "2ghz-n",
    "5ghz-a",
    "5ghz-ac",
    "5ghz-an",
    "5ghz-ax",
    "5ghz-n",
  ]),
  str("channel.width"),
  str("channel.frequency"),
  // More of the dotted names every real tree of 7.12 to 7.24 lists as arguments of
  // `/interface/wifi` (and `wifiwave2`) `set`, with their value lists from the
  // 7.22.3 tree: exports write them in groups (`channel.frequency=...
  // .skip-dfs-channels=10min-cac`, issue 34).
  oneOf("channel.skip-dfs-channels", ["10min-cac", "all", "disabled"]),
  str("channel.secondary-frequency"),
  bool("configuration.hide-ssid"),
  str("configuration.tx-power"),
  str("configuration.antenna-gain"),
  str("datapath.bridge"),
  str("datapath.vlan-id"),
  bool("datapath.client-isolation"),
  bool("security.ft"),
  bool("security.ft-over-ds"),
  oneOf("security.management-protection", ["allowed", "disabled", "required"]),
  RUNNING,
  ro("inactive", "bool", { compute: (i) => String(isTrue(i.disabled)) }),
  DISABLED,
  COMMENT,
];

/** `/interface/wifi` (7.13 and later). */
const WIFI: ReleaseRange = { from: "7.13" };
/** The wifiwave2 package's menus (7.12 and older 7.x). */
const WIFIWAVE2: ReleaseRange = { from: "7.0", until: "7.12" };

function wifiMenu(path: string, releases: ReleaseRange): MenuDef {
  return {
    path,
    table: "/interface",
    match: { type: "wifi" },
    kind: "list",
    key: "name",
    releases,
    unset: {},
    exportFindBy: "default-name",
    props: WIFI_PROPS.map((p) => (p.name === "master-interface" ? { ...p, ref: path } : p)),
    flags: [
      { ...F_DISABLED, group: 0 },
      F_RUNNING,
      { ch: "I", name: "inactive", group: 1, test: (i) => isTrue(i.inactive) },
    ],
    columns: ["name", "mac-address", "channel.band", "configuration.ssid"],
    unique: [nameUnique],
    afterChange: renameCascade,
    defaults: (st) => [
      {
        name: "wifi1",
        "default-name": "wifi1",
        type: "wifi",
        "mac-address": mac(0x10),
        "configuration.ssid": `MikroTik-${ssidTail(st.init.identity)}`,
        "configuration.mode": "ap",
        "configuration.country": "Latvia",
        "security.authentication-types": "wpa2-psk,wpa3-psk",
        "security.passphrase": "RouterPass123",
        "channel.band": "5ghz-ax",
        "channel.width": "20/40/80mhz",
        mtu: "1500",
        l2mtu: "1560",
        disabled: "false",
        dynamic: "false",
        running: "true",
        "link-downs": "0",
      },
      {
        name: "wifi2",
        "default-name": "wifi2",
        type: "wifi",
        "mac-address": mac(0x11),
        "configuration.ssid": `MikroTik-${ssidTail(st.init.identity)}`,
        "configuration.mode": "ap",
        "configuration.country": "Latvia",
        "security.authentication-types": "wpa2-psk,wpa3-psk",
        "security.passphrase": "RouterPass123",
        "channel.band": "2ghz-ax",
        "channel.width": "20/40mhz",
        mtu: "1500",
        l2mtu: "1560",
        disabled: "false",
        dynamic: "false",
        running: "true",
        "link-downs": "0",
      },
    ],
  };
}

function ssidTail(identity: string): string {
  let h = 0;
  for (const c of identity) h = (h * 33 + c.charCodeAt(0)) >>> 0;
  return (h & 0xffffff).toString(16).toUpperCase().padStart(6, "0");
}

function regTable(path: string, releases: ReleaseRange, iface: string): MenuDef {
  return {
    path,
    kind: "list",
    releases,
    verbs: ["print", "find", "get", "remove"],
    noExport: true,
    props: [
      ro("interface", "str"),
      ro("mac-address", "mac"),
      ro("ssid", "str"),
      ro("uptime", "str"),
      ro("signal", "int"),
      ro("tx-rate", "str"),
      ro("rx-rate", "str"),
      ro("last-activity", "str"),
    ],
    columns: ["interface", "mac-address", "ssid", "uptime", "signal"],
    defaults: () => [
      {
        interface: iface,
        "mac-address": "3C:22:FB:11:22:33",
        ssid: "MikroTik",
        uptime: "1h2m3s",
        signal: "-58",
        "tx-rate": "864.8Mbps",
        "rx-rate": "648.5Mbps",
        "last-activity": "10ms",
      },
    ],
  };
}

function accessList(path: string, releases: ReleaseRange, ifaceRefPath: string): MenuDef {
  const legacy = path.includes("/wireless/");
  return {
    path,
    kind: "list",
    ordered: true,
    releases,
    unset: {},
    props: [
      { name: "mac-address", type: "mac" },
      { name: "interface", type: "ref", ref: ifaceRefPath, refAllow: ["any", "all"] },
      // the legacy wireless package of RouterOS 7 has no ssid-regexp (every 7.x tree)
      str("ssid-regexp", legacy ? { releases: V6 } : {}),
      str("signal-range"),
      str("time"),
      ...(legacy
        ? [
          bool("authentication", true),
          bool("forwarding", true),
          int("ap-tx-limit", 0),
          int("client-tx-limit", 0),
          str("private-pre-shared-key", { sensitive: true }),
          oneOf("vlan-mode", ["default", "no-tag", "use-service-tag", "use-tag"], "default"),
          int("vlan-id", 1, { min: 1, max: 4095 }),
        ]
        : [
          {
            name: "action",
            type: "enum",
            values: ["accept", "query-radius", "reject"],
            default: "accept",
          } as PropDef,
          int("vlan-id", undefined, { min: 1, max: 4095 }),
          bool("client-isolation", false),
          str("passphrase", { sensitive: true }),
        ]),
      DISABLED,
      COMMENT,
    ],
    flags: [F_DISABLED],
    columns: legacy
      ? ["mac-address", "interface", "signal-range", "authentication", "forwarding"]
      : ["mac-address", "interface", "signal-range", "action"],
  };
}

/** `/interface/wireless/security-profiles` (v6). */
const SECURITY_PROFILES: MenuDef = {
  path: "/interface/wireless/security-profiles",
  kind: "list",
  key: "name",
  props: [
    str("name", { required: true }),
    oneOf("mode", ["dynamic-keys", "none", "static-keys-optional", "static-keys-required"], "none"),
    {
      name: "authentication-types",
      type: "list",
      values: ["wpa-psk", "wpa2-psk", "wpa-eap", "wpa2-eap"],
      default: "",
    },
    { name: "unicast-ciphers", type: "list", values: ["aes-ccm", "tkip"], default: "aes-ccm" },
    { name: "group-ciphers", type: "list", values: ["aes-ccm", "tkip"], default: "aes-ccm" },
    str("wpa-pre-shared-key", { default: "", sensitive: true }),
    str("wpa2-pre-shared-key", { default: "", sensitive: true }),
    str("supplicant-identity", { default: "MikroTik" }),
    COMMENT,
  ],
  flags: [{ ch: "*", name: "default", group: 0, test: (i) => i.name === "default" }],
  exportFindBy: "name",
  columns: [
    "name",
    "mode",
    "authentication-types",
    "unicast-ciphers",
    "group-ciphers",
    "wpa-pre-shared-key",
    "wpa2-pre-shared-key",
  ],
  unique: [{ props: ["name"], error: "failure: profile with such name already exists" }],
  checkRemove: (i) => {
    if (i.name === "default") throw fail("failure: can not remove default profile");
  },
  defaults: () => [{
    name: "default",
    mode: "dynamic-keys",
    "authentication-types": "wpa2-psk",
    "unicast-ciphers": "aes-ccm",
    "group-ciphers": "aes-ccm",
    "wpa-pre-shared-key": "RouterPass123",
    "wpa2-pre-shared-key": "RouterPass123",
    "supplicant-identity": "MikroTik",
  }],
};

/** `/interface/wireless` (v6). */
const WIRELESS: MenuDef = {
  path: "/interface/wireless",
  table: "/interface",
  match: { type: "wlan" },
  kind: "list",
  key: "name",
  exportFindBy: "default-name",
  props: [
    str("name"),
    ro("default-name", "str"),
    int("mtu", 1500),
    { name: "mac-address", type: "mac" },
    str("ssid", { default: "MikroTik" }),
    bool("hide-ssid", false),
    oneOf("mode", [
      "alignment-only",
      "ap-bridge",
      "bridge",
      "station",
      "station-bridge",
      "station-pseudobridge",
      "wds-slave",
    ], "station"),
    oneOf("band", [
      "2ghz-b",
      "2ghz-b/g",
      "2ghz-b/g/n",
      "2ghz-onlyg",
      "2ghz-onlyn",
      "5ghz-a",
      "5ghz-a/n",
      "5ghz-a/n/ac",
      "5ghz-onlyac",
      "5ghz-onlyn",
    ]),
    str("frequency", { default: "auto" }),
    str("channel-width"),
    str("country", { default: "etsi" }),
    {
      name: "security-profile",
      type: "ref",
      ref: "/interface/wireless/security-profiles",
      default: "default",
    },
    oneOf("wireless-protocol", [
      "802.11",
      "any",
      "nstreme",
      "nv2",
      "nv2-nstreme",
      "nv2-nstreme-802.11",
      "unspecified",
    ], "802.11"),
    ro("interface-type", "str"),
    RUNNING,
    DISABLED,
    COMMENT,
  ],
  flags: [
    { ...F_DISABLED, group: 0 },
    F_RUNNING,
  ],
  columns: ["name", "mtu", "mac-address", "mode", "ssid", "frequency", "band"],
  unique: [nameUnique],
  afterChange: renameCascade,
  defaults: () => [
    {
      name: "wlan1",
      "default-name": "wlan1",
      type: "wlan",
      mtu: "1500",
      l2mtu: "1600",
      "mac-address": mac(0x10),
      ssid: "MikroTik-12A3B4",
      mode: "ap-bridge",
      band: "2ghz-b/g/n",
      frequency: "auto",
      "channel-width": "20/40mhz-XX",
      country: "etsi",
      "security-profile": "default",
      "wireless-protocol": "802.11",
      "hide-ssid": "false",
      "interface-type": "Atheros AR9300",
      disabled: "false",
      dynamic: "false",
      running: "true",
      "link-downs": "0",
    },
    {
      name: "wlan2",
      "default-name": "wlan2",
      type: "wlan",
      mtu: "1500",
      l2mtu: "1600",
      "mac-address": mac(0x11),
      ssid: "MikroTik-12A3B5",
      mode: "ap-bridge",
      band: "5ghz-a/n/ac",
      frequency: "auto",
      "channel-width": "20/40/80mhz-XXXX",
      country: "etsi",
      "security-profile": "default",
      "wireless-protocol": "802.11",
      "hide-ssid": "false",
      "interface-type": "IPQ4019",
      disabled: "false",
      dynamic: "false",
      running: "true",
      "link-downs": "0",
    },
  ],
};

/** Wireless menus: wifi (7.13 and later), wifiwave2 (7.12 and older 7.x), wireless (v6 and 7). */
export const WIRELESS_MENUS: MenuDef[] = [
  // `/interface/wifi` from 7.13; before, the wifiwave2 package (installed here).
  wifiMenu("/interface/wifi", WIFI),
  wifiMenu("/interface/wifiwave2", WIFIWAVE2),
  regTable("/interface/wifi/registration-table", WIFI, "wifi1"),
  regTable("/interface/wifiwave2/registration-table", WIFIWAVE2, "wifi1"),
  accessList("/interface/wifi/access-list", WIFI, "/interface/wifi"),
  accessList("/interface/wifiwave2/access-list", WIFIWAVE2, "/interface/wifiwave2"),
  SECURITY_PROFILES,
  WIRELESS,
  regTable("/interface/wireless/registration-table", {}, "wlan1"),
  accessList("/interface/wireless/access-list", {}, "/interface/wireless"),
];
