/**
 * Schema of the CAPsMAN menus (RouterOS facts only; tools live in lib/tools).
 * CAPsMAN is a controller that configures many access points (CAPs) from one
 * router. The legacy `/caps-man` drives radios of the wireless package
 * (RouterOS 6, and 7 with the wireless package from 7.13; built in up to
 * 7.12); the wifi CAPsMAN of `/interface/wifi/capsman` (7.13 and later)
 * drives wifi radios, with configuration and provisioning under
 * `/interface/wifi`.
 *
 * @module
 */
import { bool, int, list, mac, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** The legacy CAPsMAN: every release (the wireless package from 7.13, built in before). */
const LEGACY = { package: "wireless" } as const;
/** The wifi CAPsMAN: 7.13 and later (7.12 had it as the wifiwave2 package's menu). */
const WIFI = { releases: { from: "7.13" } } as const;

const upgradePolicy = (values: readonly string[]) =>
  oneOf(values, "What CAPs of another RouterOS version are told: none, or to upgrade");

/** `/caps-man/manager`: the legacy controller's settings. */
export const capsManManager = menu({
  path: "/caps-man/manager",
  kind: "singleton",
  writes: ["set"],
  ...LEGACY,
  fields: {
    enabled: bool("Whether this router is a CAPsMAN controller"),
    certificate: text("Certificate CAPs see (none, auto or a certificate name)"),
    "ca-certificate": text("CA that signs CAP certificates (none, auto or a name)"),
    "require-peer-certificate": bool("Accept only CAPs with a valid certificate"),
    "package-path": text("Folder with packages for CAP upgrades, e.g. /caps-packages"),
    "upgrade-policy": upgradePolicy(["none", "require-same-version", "suggest-same-upgrade"]),
  },
});

/** `/caps-man/configuration`: named radio settings provisioning applies to CAP radios. */
export const capsManConfigurations = menu({
  path: "/caps-man/configuration",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  ...LEGACY,
  flags: {},
  fields: {
    name: text("Configuration name", { required: true }),
    mode: oneOf(["ap"], "Role of the radios (ap)"),
    ssid: text("Network name (SSID), up to 32 bytes"),
    country: text("Regulatory country, e.g. latvia"),
    "hide-ssid": bool("Do not broadcast the SSID"),
    "max-sta-count": int("Most clients per radio", { min: 1, max: 2007 }),
    "channel.band": text("Band, e.g. 2ghz-b/g/n or 5ghz-a/n/ac"),
    "channel.frequency": text("Frequency in MHz, e.g. 2412"),
    "channel.control-channel-width": text("Control channel width, e.g. 20mhz"),
    "security.authentication-types": list("wpa-psk, wpa2-psk, wpa-eap, wpa2-eap (empty: open)"),
    "security.encryption": list("Ciphers: aes-ccm, tkip"),
    "security.passphrase": text("WPA passphrase, 8-63 characters", { secret: true }),
    "datapath.bridge": text("Bridge client traffic joins, e.g. bridge"),
    "datapath.local-forwarding": bool("CAPs forward client traffic themselves"),
    "datapath.client-to-client-forwarding": bool("Let clients talk to each other"),
    "datapath.vlan-id": int("VLAN id of client traffic", { min: 1, max: 4095 }),
    comment: comment(),
  },
});

/** `/caps-man/provisioning`: which configuration a connecting CAP radio gets. */
export const capsManProvisioning = menu({
  path: "/caps-man/provisioning",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  ...LEGACY,
  flags: { "X": "disabled" },
  fields: {
    action: oneOf(
      ["create-disabled", "create-enabled", "create-dynamic-enabled", "none"],
      "What to make of a matching radio",
    ),
    "master-configuration": ref("/caps-man/configuration", "Configuration of the radio"),
    "slave-configurations": list("Configurations of extra virtual APs on the radio"),
    "name-format": oneOf(["cap", "identity", "prefix", "prefix-identity"], "How to name it"),
    "name-prefix": text("Name prefix for the prefix formats"),
    "radio-mac": mac("Only this radio (00:00:00:00:00:00: any)"),
    "hw-supported-modes": list("Only radios with these modes, e.g. gn or ac"),
    "identity-regexp": text("Only CAPs whose identity matches"),
    "common-name-regexp": text("Only CAPs whose certificate name matches"),
    "ip-address-ranges": text("Only CAPs from these addresses, e.g. 10.0.0.0/24"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/caps-man/remote-cap`: access points connected to this controller. */
export const capsManRemoteCaps = menu({
  path: "/caps-man/remote-cap",
  kind: "list",
  exports: false,
  writes: ["remove"],
  ...LEGACY,
  flags: {},
  fields: {
    address: state(text("Where the CAP connects from (MAC or IP)")),
    identity: state(text("The CAP's identity")),
    board: state(text("Hardware model")),
    version: state(text("RouterOS version of the CAP")),
    "base-mac": state(mac("The CAP's MAC address")),
    state: state(text("Connection state, e.g. Run")),
    radios: state(int("Radios the CAP has")),
  },
});

/** `/caps-man/registration-table`: clients on CAPsMAN radios now. */
export const capsManRegistrations = menu({
  path: "/caps-man/registration-table",
  kind: "list",
  exports: false,
  writes: ["remove"],
  ...LEGACY,
  flags: {},
  fields: {
    interface: state(text("CAPsMAN interface the client is on")),
    "mac-address": state(mac("Client MAC address")),
    ssid: state(text("SSID the client joined")),
    uptime: state(text("Time associated")),
    "rx-signal": state(int("Signal strength in dBm")),
    "tx-rate": state(text("Rate to the client")),
    "rx-rate": state(text("Rate from the client")),
  },
});

/** `/caps-man/interface`: the radios of connected CAPs, as the controller sees them. */
export const capsManInterfaces = menu({
  path: "/caps-man/interface",
  kind: "list",
  key: "name",
  // The controller's radios are interfaces of its own (type cap in /interface).
  interfaces: true,
  writes: ["add", "set", "remove", "enable", "disable"],
  ...LEGACY,
  flags: { "M": "master", "D": "dynamic", "B": "bound", "X": "disabled", "I": "inactive" },
  fields: {
    name: text("Interface name, e.g. cap1"),
    "mac-address": mac("MAC address"),
    "radio-mac": mac("MAC of the CAP radio it is bound to"),
    "master-interface": text("Radio a virtual AP runs on"),
    configuration: text("Configuration applied (/caps-man configuration)"),
    master: state(bool("A radio's master interface")),
    dynamic: state(bool("Made by provisioning (not saved)")),
    bound: state(bool("Bound to a CAP radio now")),
    inactive: state(bool("Not in use")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/wifi/capsman`: the wifi controller's settings. */
export const wifiCapsman = menu({
  path: "/interface/wifi/capsman",
  kind: "singleton",
  writes: ["set"],
  ...WIFI,
  fields: {
    enabled: bool("Whether this router is a wifi CAPsMAN controller"),
    interfaces: list("Interfaces CAPs may connect on (all, or names)"),
    certificate: text("Certificate CAPs see (none, auto or a certificate name)"),
    "ca-certificate": text("CA that signs CAP certificates (none, auto or a name)"),
    "require-peer-certificate": bool("Accept only CAPs with a valid certificate"),
    "package-path": text("Folder with packages for CAP upgrades"),
    "upgrade-policy": upgradePolicy(["none", "require-same-version", "suggest-same-version"]),
  },
});

/** `/interface/wifi/capsman/remote-cap`: wifi CAPs connected to this controller. */
export const wifiRemoteCaps = menu({
  path: "/interface/wifi/capsman/remote-cap",
  kind: "list",
  exports: false,
  writes: ["remove"],
  ...WIFI,
  flags: {},
  fields: {
    address: state(text("Where the CAP connects from")),
    identity: state(text("The CAP's identity")),
    "board-name": state(text("Hardware model")),
    version: state(text("RouterOS version of the CAP")),
    "base-mac": state(mac("The CAP's MAC address")),
    serial: state(text("Serial number")),
    state: state(text("Connection state, e.g. Ok")),
    uptime: state(text("Time connected")),
  },
});

/** `/interface/wifi/configuration`: named wifi settings for local and CAP radios. */
export const wifiConfigurations = menu({
  path: "/interface/wifi/configuration",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  ...WIFI,
  flags: { "X": "disabled" },
  fields: {
    name: text("Configuration name", { required: true }),
    mode: oneOf(
      ["ap", "station", "station-bridge", "station-pseudobridge"],
      "Role: ap, station, station-bridge or station-pseudobridge",
    ),
    ssid: text("Network name (SSID), up to 32 bytes"),
    country: text("Regulatory country, e.g. Latvia"),
    "hide-ssid": bool("Do not broadcast the SSID"),
    manager: oneOf(["capsman", "capsman-or-local", "local"], "Who may apply it"),
    "channel.band": text("Band, e.g. 2ghz-ax or 5ghz-ax"),
    "channel.frequency": text("Frequencies in MHz, e.g. 2412 or 5180-5320"),
    "channel.width": text("Channel width, e.g. 20mhz or 20/40/80mhz"),
    "security.authentication-types": list("wpa2-psk, wpa3-psk, wpa2-eap, owe... (empty: open)"),
    "security.passphrase": text("WPA passphrase, 8-63 characters", { secret: true }),
    "datapath.bridge": text("Bridge client traffic joins, e.g. bridge"),
    "datapath.vlan-id": int("VLAN id of client traffic", { min: 1, max: 4095 }),
    "datapath.client-isolation": bool("Keep clients from talking to each other"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/wifi/provisioning`: which configuration a wifi CAP radio gets. */
export const wifiProvisioning = menu({
  path: "/interface/wifi/provisioning",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  ...WIFI,
  flags: { "X": "disabled" },
  fields: {
    action: oneOf(
      [
        "create-disabled",
        "create-enabled",
        "create-dynamic-enabled",
        "none",
        // First seen in the 7.22.3 tree (the only one with value lists here): not offered before.
        ["use-network-config", { from: "7.22" }],
      ],
      "What to make of a matching radio",
    ),
    "master-configuration": ref("/interface/wifi/configuration", "Configuration of the radio"),
    "slave-configurations": list("Configurations of extra virtual APs on the radio"),
    "supported-bands": list("Only radios with these bands, e.g. 5ghz-ax"),
    "name-format": text("Interface name, e.g. %I-%b (identity, band)"),
    "slave-name-format": text("Name of the extra virtual APs", { releases: { from: "7.16" } }),
    "radio-mac": mac("Only this radio"),
    "identity-regexp": text("Only CAPs whose identity matches"),
    "common-name-regexp": text("Only CAPs whose certificate name matches"),
    "address-ranges": text("Only CAPs from these addresses, e.g. 10.0.0.0/24"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const CAPSMAN_SCHEMAS: readonly MenuSchema[] = [
  capsManManager,
  capsManConfigurations,
  capsManProvisioning,
  capsManRemoteCaps,
  capsManRegistrations,
  capsManInterfaces,
  wifiCapsman,
  wifiRemoteCaps,
  wifiConfigurations,
  wifiProvisioning,
];
