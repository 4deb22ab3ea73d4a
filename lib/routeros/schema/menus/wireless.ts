/**
 * Schema of the wireless menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, int, list, mac, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/interface/wifi`. */
export const wifi = menu({
  path: "/interface/wifi",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  releases: { from: "7.13" },
  flags: { "X": "disabled", "R": "running" },
  fields: {
    name: text("Interface name, e.g. wifi1"),
    "default-name": state(text("Factory name of a radio")),
    "master-interface": state(text("Radio a virtual AP runs on")),
    "mac-address": state(text("MAC address")),
    mtu: int("MTU in bytes"),
    configuration: text("Named configuration profile (/interface wifi configuration)"),
    "configuration.mode": oneOf(
      ["ap", "station", "station-bridge", "station-pseudobridge"],
      "Role: ap, station, station-bridge or station-pseudobridge",
    ),
    "configuration.ssid": text("Network name (SSID), up to 32 bytes"),
    "configuration.country": text("Regulatory country, e.g. Latvia"),
    "configuration.hide-ssid": bool("Do not broadcast the SSID"),
    security: text("Named security profile (/interface wifi security)"),
    "security.authentication-types": list(
      "Authentication: wpa2-psk, wpa3-psk, wpa2-eap, wpa3-eap, owe (empty: open network)",
    ),
    "security.passphrase": text("WPA passphrase, 8-63 characters", { secret: true }),
    channel: text("Named channel profile (/interface wifi channel)"),
    "channel.band": text("Band, e.g. 2ghz-ax or 5ghz-ax"),
    "channel.frequency": text("Frequencies in MHz, e.g. 2412 or 5180-5320"),
    "channel.width": text("Channel width, e.g. 20mhz, 20/40mhz, 20/40/80mhz"),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/wifi/registration-table`. */
export const wifiRegistrations = menu({
  path: "/interface/wifi/registration-table",
  kind: "list",
  exports: false,
  writes: ["remove"],
  releases: { from: "7.13" },
  flags: { "A": "authorized" },
  fields: {
    interface: state(text("Interface the client is on")),
    "mac-address": state(mac("Client MAC address")),
    ssid: state(text("SSID the client joined")),
    uptime: state(text("Time associated")),
    signal: state(int("Signal strength in dBm")),
    band: state(text("Band in use")),
    "tx-rate": state(text("Rate to the client")),
    "rx-rate": state(text("Rate from the client")),
    "last-activity": state(text("Time since the last frame")),
    "auth-type": state(text("Authentication used")),
    authorized: state(bool("Whether the client completed authentication")),
  },
});

/** `/interface/wifi/access-list`. */
export const wifiAccessList = menu({
  path: "/interface/wifi/access-list",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  releases: { from: "7.13" },
  flags: { "X": "disabled" },
  fields: {
    "mac-address": mac("Client MAC address (empty: any)"),
    interface: text("Interface the rule applies to, or any"),
    "ssid-regexp": text("Regular expression the SSID must match"),
    "signal-range": text("Signal range in dBm, e.g. -80..120"),
    action: oneOf(["accept", "reject", "query-radius"], "What to do with matching clients"),
    passphrase: text("Passphrase for this client", { secret: true }),
    "vlan-id": int("VLAN id assigned to the client"),
    "client-isolation": bool("Keep the client from talking to other clients"),
    time: text("Time window, e.g. 8h-17h,mon,tue"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/wireless`. */
export const wireless = menu({
  path: "/interface/wireless",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  // extra package on ['7.13.5', '7.16.2', '7.20.8', '7.22.3', '7.24']
  flags: { "X": "disabled", "R": "running" },
  fields: {
    name: text("Interface name, e.g. wlan1"),
    "default-name": state(text("Factory name of a radio")),
    mode: oneOf([
      "ap-bridge",
      "bridge",
      "station",
      "station-bridge",
      "station-pseudobridge",
      "station-pseudobridge-clone",
      "station-wds",
      "wds-slave",
      "alignment-only",
      "nstreme-dual-slave",
    ], "Role: ap-bridge for an access point, station for a client"),
    ssid: text("Network name (SSID), up to 32 bytes"),
    band: text("Band and standards, e.g. 2ghz-b/g/n or 5ghz-a/n/ac"),
    frequency: text("Channel frequency in MHz, or auto"),
    "channel-width": text("Channel width, e.g. 20mhz or 20/40mhz-XX"),
    country: text("Regulatory country, e.g. latvia"),
    "security-profile": ref(
      "/interface/wireless/security-profiles",
      "Security profile with the keys",
    ),
    "wireless-protocol": text("802.11, nv2, nstreme or any"),
    "interface-type": state(text("Radio chip, e.g. Atheros AR9300")),
    "hide-ssid": bool("Do not broadcast the SSID"),
    "master-interface": state(text("Radio a virtual AP runs on")),
    "mac-address": state(text("MAC address")),
    mtu: int("MTU in bytes"),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/wireless/security-profiles`. */
export const wirelessSecurityProfiles = menu({
  path: "/interface/wireless/security-profiles",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  // extra package on ['7.13.5', '7.16.2', '7.20.8', '7.22.3', '7.24']
  flags: {},
  fields: {
    name: text("Profile name", { required: true }),
    mode: oneOf(
      ["none", "static-keys-optional", "static-keys-required", "dynamic-keys"],
      "none (open), dynamic-keys (WPA) or static-keys-* (WEP)",
    ),
    "authentication-types": list("WPA types: wpa-psk, wpa2-psk, wpa-eap, wpa2-eap"),
    "unicast-ciphers": list("Unicast ciphers: aes-ccm, tkip"),
    "group-ciphers": list("Group ciphers: aes-ccm, tkip"),
    "wpa-pre-shared-key": text("WPA passphrase, 8-63 characters", { secret: true }),
    "wpa2-pre-shared-key": text("WPA2 passphrase, 8-63 characters", { secret: true }),
    "supplicant-identity": text("EAP identity in station mode"),
    "management-protection": oneOf(["disabled", "allowed", "required"], "802.11w frame protection"),
    default: state(bool("Whether this is the default profile")),
  },
});

/** `/interface/wireless/registration-table`. */
export const wirelessRegistrations = menu({
  path: "/interface/wireless/registration-table",
  kind: "list",
  exports: false,
  writes: ["remove"],
  // extra package on ['7.13.5', '7.16.2', '7.20.8', '7.22.3', '7.24']
  flags: { "A": "ap", "W": "wds" },
  fields: {
    interface: state(text("Interface the client is on")),
    "mac-address": state(mac("Client MAC address")),
    ssid: state(text("SSID of the link")),
    ap: state(bool("Whether the peer is an access point")),
    wds: state(bool("Whether the link is WDS")),
    uptime: state(text("Time associated")),
    "signal-strength": state(text("Signal strength, e.g. -61dBm@6Mbps")),
    "signal-to-noise": state(int("Signal to noise ratio in dB")),
    "tx-rate": state(text("Rate to the client")),
    "rx-rate": state(text("Rate from the client")),
    "last-activity": state(text("Time since the last frame")),
    "tx-ccq": state(int("Transmit connection quality in percent")),
  },
});

/** `/interface/wireless/access-list`. */
export const wirelessAccessList = menu({
  path: "/interface/wireless/access-list",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  // extra package on ['7.13.5', '7.16.2', '7.20.8', '7.22.3', '7.24']
  flags: { "X": "disabled" },
  fields: {
    "mac-address": mac("Client MAC address (00:00:00:00:00:00: any)"),
    interface: text("Interface the rule applies to, or all"),
    "signal-range": text("Signal range in dBm, e.g. -79..120"),
    authentication: bool("Accept the client (false: reject)"),
    forwarding: bool("Let the client talk to other clients"),
    "ap-tx-limit": int("Rate limit to the client in bits/s (0: none)"),
    "client-tx-limit": int("Rate limit from the client in bits/s (0: none)"),
    "private-pre-shared-key": text("WPA key for this client", { secret: true }),
    "vlan-mode": oneOf(["default", "no-tag", "use-service-tag", "use-tag"], "VLAN tagging"),
    "vlan-id": int("VLAN id for the client"),
    time: text("Time window, e.g. 8h-17h,mon,tue"),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const WIRELESS_SCHEMAS: readonly MenuSchema[] = [
  wifi,
  wifiRegistrations,
  wifiAccessList,
  wireless,
  wirelessSecurityProfiles,
  wirelessRegistrations,
  wirelessAccessList,
];
