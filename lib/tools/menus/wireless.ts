/**
 * Wireless menus: the RouterOS 7.13+ `wifi` menus and the legacy `wireless`
 * menus (RouterOS 6, and RouterOS 7 devices with the wireless package).
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, FLAGS_X, running } from "./common.ts";

/** `/interface/wifi` exists from 7.13 (before: wifiwave2). */
const WIFI = { min: "7.13" };

/** `/interface/wifi`: wifi radios and virtual APs (RouterOS 7.13+). */
export const wifi: Menu = {
  path: "/interface/wifi",
  toolset: "wireless",
  singular: "wifi_interface",
  plural: "wifi_interfaces",
  noun: "wifi interfaces",
  notes: "The wifi menu of RouterOS 7.13 and later (wifi-qcom drivers); older devices use " +
    "the wireless menu (router_list_wireless_interfaces). Settings given here override the " +
    "named configuration, security and channel profiles. The passphrase is masked in all " +
    "output. Changing ssid, security or channel disconnects clients.",
  key: "name",
  versions: WIFI,
  fields: {
    name: text("Interface name, e.g. wifi1"),
    "default-name": state(text("Factory name of a radio")),
    "master-interface": state(text("Radio a virtual AP runs on")),
    "mac-address": state(text("MAC address")),
    mtu: num("MTU in bytes"),
    configuration: text("Named configuration profile (/interface wifi configuration)"),
    "configuration.mode": oneOf(
      ["ap", "station", "station-bridge"],
      "Role: ap, station or station-bridge",
    ),
    "configuration.ssid": text("Network name (SSID), up to 32 bytes"),
    "configuration.country": text("Regulatory country, e.g. Latvia"),
    "configuration.hide-ssid": flag("Do not broadcast the SSID"),
    security: text("Named security profile (/interface wifi security)"),
    "security.authentication-types": list(
      "Authentication: wpa2-psk, wpa3-psk, wpa2-eap, wpa3-eap, owe (empty: open network)",
    ),
    "security.passphrase": text("WPA passphrase, 8-63 characters", { secret: true }),
    channel: text("Named channel profile (/interface wifi channel)"),
    "channel.band": text("Band, e.g. 2ghz-ax or 5ghz-ax"),
    "channel.frequency": text("Frequencies in MHz, e.g. 2412 or 5180-5320"),
    "channel.width": text("Channel width, e.g. 20mhz, 20/40mhz, 20/40/80mhz"),
    running: running(),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: [
    "name",
    "configuration.ssid",
    "configuration.mode",
    "channel.band",
    "running",
    "disabled",
  ],
  flags: { X: "disabled", R: "running" },
  example: {
    target: { name: "wifi1" },
    update: { configuration_ssid: "example-ssid", security_passphrase: "Example-Pa55phrase" },
  },
};

/** `/interface/wifi/registration-table`: connected wifi clients. */
export const wifiRegistrations: Menu = {
  path: "/interface/wifi/registration-table",
  toolset: "wireless",
  singular: "wifi_client",
  plural: "wifi_clients",
  noun: "connected wifi clients",
  notes: "Read-only: stations associated now, with signal (dBm) and rates.",
  versions: WIFI,
  fields: {
    interface: state(text("Interface the client is on")),
    "mac-address": state(text("Client MAC address")),
    ssid: state(text("SSID the client joined")),
    uptime: state(text("Time associated")),
    signal: state(num("Signal strength in dBm")),
    band: state(text("Band in use")),
    "tx-rate": state(text("Rate to the client")),
    "rx-rate": state(text("Rate from the client")),
    "last-activity": state(text("Time since the last frame")),
    "auth-type": state(text("Authentication used")),
    authorized: state(flag("Whether the client completed authentication")),
  },
  verbs: ["list"],
  columns: ["interface", "mac-address", "ssid", "signal", "uptime"],
  flags: { A: "authorized" },
};

/** `/interface/wifi/access-list`: per-client admission rules. */
export const wifiAccessList: Menu = {
  path: "/interface/wifi/access-list",
  toolset: "wireless",
  singular: "wifi_access_rule",
  plural: "wifi_access_rules",
  noun: "wifi access list rules",
  notes: "Rules are checked top to bottom when a client connects; the first match decides " +
    "(accept or reject). A rule's passphrase gives that client its own key (masked in " +
    "output).",
  versions: WIFI,
  fields: {
    "mac-address": text("Client MAC address (empty: any)"),
    interface: text("Interface the rule applies to, or any"),
    "ssid-regexp": text("Regular expression the SSID must match"),
    "signal-range": text("Signal range in dBm, e.g. -80..120"),
    action: oneOf(["accept", "reject", "query-radius"], "What to do with matching clients"),
    passphrase: text("Passphrase for this client", { secret: true }),
    "vlan-id": num("VLAN id assigned to the client"),
    "client-isolation": flag("Keep the client from talking to other clients"),
    time: text("Time window, e.g. 8h-17h,mon,tue"),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["mac-address", "interface", "action", "signal-range", "disabled", "comment"],
  flags: FLAGS_X,
  example: {
    add: { mac_address: "02:00:00:00:99:03", action: "reject", comment: "example" },
    update: { action: "accept", passphrase: "Client-Pa55phrase" },
  },
};

/** `/interface/wireless`: legacy wireless radios and virtual APs. */
export const wireless: Menu = {
  path: "/interface/wireless",
  toolset: "wireless",
  singular: "wireless_interface",
  plural: "wireless_interfaces",
  noun: "legacy wireless interfaces",
  notes: "The wireless package menu: RouterOS 6, and RouterOS 7 devices with the wireless " +
    "package (newer devices use router_list_wifi_interfaces). The key is in the " +
    "security profile (router_update_wireless_security_profile). Changing ssid, band or " +
    "frequency disconnects clients.",
  key: "name",
  fields: {
    name: text("Interface name, e.g. wlan1"),
    "default-name": state(text("Factory name of a radio")),
    mode: oneOf(
      [
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
      ],
      "Role: ap-bridge for an access point, station for a client",
    ),
    ssid: text("Network name (SSID), up to 32 bytes"),
    band: text("Band and standards, e.g. 2ghz-b/g/n or 5ghz-a/n/ac"),
    frequency: text("Channel frequency in MHz, or auto"),
    "channel-width": text("Channel width, e.g. 20mhz or 20/40mhz-XX"),
    country: text("Regulatory country, e.g. latvia"),
    "security-profile": text("Security profile with the keys", {
      ref: "/interface/wireless/security-profiles",
    }),
    "wireless-protocol": text("802.11, nv2, nstreme or any"),
    "interface-type": state(text("Radio chip, e.g. Atheros AR9300")),
    "hide-ssid": flag("Do not broadcast the SSID"),
    "master-interface": state(text("Radio a virtual AP runs on")),
    "mac-address": state(text("MAC address")),
    mtu: num("MTU in bytes"),
    running: running(),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "mode", "ssid", "band", "frequency", "running", "disabled"],
  flags: { X: "disabled", R: "running" },
  example: { target: { name: "wlan1" }, update: { ssid: "example-ssid" } },
};

/** `/interface/wireless/security-profiles`: legacy wireless keys and ciphers. */
export const wirelessSecurityProfiles: Menu = {
  path: "/interface/wireless/security-profiles",
  toolset: "wireless",
  singular: "wireless_security_profile",
  plural: "wireless_security_profiles",
  noun: "legacy wireless security profiles",
  notes: "Interfaces use a profile by name (security_profile). mode dynamic-keys with " +
    "authentication_types wpa2-psk and a wpa2_pre_shared_key is a WPA2 personal network. " +
    "Keys are masked in all output. The profile named default cannot be removed.",
  key: "name",
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
    default: state(flag("Whether this is the default profile")),
  },
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "mode", "authentication-types", "unicast-ciphers", "wpa2-pre-shared-key"],
  flags: {},
  example: {
    add: {
      name: "profile-example",
      mode: "dynamic-keys",
      authentication_types: ["wpa2-psk"],
      wpa2_pre_shared_key: "Example-Pa55phrase",
    },
    update: { wpa2_pre_shared_key: "Changed-Pa55phrase" },
  },
};

/** `/interface/wireless/registration-table`: connected legacy wireless clients. */
export const wirelessRegistrations: Menu = {
  path: "/interface/wireless/registration-table",
  toolset: "wireless",
  singular: "wireless_client",
  plural: "wireless_clients",
  noun: "connected legacy wireless clients",
  notes: "Read-only: stations associated now, with signal strength (dBm) and rates.",
  fields: {
    interface: state(text("Interface the client is on")),
    "mac-address": state(text("Client MAC address")),
    ssid: state(text("SSID of the link")),
    ap: state(flag("Whether the peer is an access point")),
    wds: state(flag("Whether the link is WDS")),
    uptime: state(text("Time associated")),
    "signal-strength": state(text("Signal strength, e.g. -61dBm@6Mbps")),
    "signal-to-noise": state(num("Signal to noise ratio in dB")),
    "tx-rate": state(text("Rate to the client")),
    "rx-rate": state(text("Rate from the client")),
    "last-activity": state(text("Time since the last frame")),
    "tx-ccq": state(num("Transmit connection quality in percent")),
  },
  verbs: ["list"],
  columns: ["interface", "mac-address", "signal-strength", "tx-rate", "uptime"],
  flags: { A: "ap", W: "wds" },
};

/** `/interface/wireless/access-list`: legacy per-client admission rules. */
export const wirelessAccessList: Menu = {
  path: "/interface/wireless/access-list",
  toolset: "wireless",
  singular: "wireless_access_rule",
  plural: "wireless_access_rules",
  noun: "legacy wireless access list rules",
  notes: "Rules are checked top to bottom when a client connects. authentication=false " +
    "rejects the client. private_pre_shared_key gives the client its own key (masked).",
  fields: {
    "mac-address": text("Client MAC address (00:00:00:00:00:00: any)"),
    interface: text("Interface the rule applies to, or all"),
    "signal-range": text("Signal range in dBm, e.g. -79..120"),
    authentication: flag("Accept the client (false: reject)"),
    forwarding: flag("Let the client talk to other clients"),
    "ap-tx-limit": num("Rate limit to the client in bits/s (0: none)"),
    "client-tx-limit": num("Rate limit from the client in bits/s (0: none)"),
    "private-pre-shared-key": text("WPA key for this client", { secret: true }),
    "vlan-mode": oneOf(["default", "no-tag", "use-service-tag", "use-tag"], "VLAN tagging"),
    "vlan-id": num("VLAN id for the client"),
    time: text("Time window, e.g. 8h-17h,mon,tue"),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["mac-address", "interface", "authentication", "signal-range", "disabled", "comment"],
  flags: FLAGS_X,
  example: {
    add: {
      mac_address: "02:00:00:00:99:02",
      interface: "all",
      authentication: true,
      comment: "example",
    },
    update: { forwarding: false },
  },
};
