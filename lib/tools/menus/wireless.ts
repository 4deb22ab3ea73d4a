/**
 * Tools of the wireless menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/wireless.ts.
 *
 * @module
 */
import {
  wifi,
  wifiAccessList,
  wifiRegistrations,
  wireless,
  wirelessAccessList,
  wirelessRegistrations,
  wirelessSecurityProfiles,
} from "../../routeros/schema/menus/wireless.ts";
import type { MenuTools } from "../menu_tools/spec.ts";
import { NOUNS } from "../nouns.ts";

/** `/interface/wifi`. */
export const wifiTools: MenuTools = {
  schema: wifi,
  toolset: "wireless",
  noun: NOUNS.wifi_interface,
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: [
    "name",
    "configuration.ssid",
    "configuration.mode",
    "channel.band",
    "running",
    "disabled",
  ],
  notes:
    "The wifi menu of RouterOS 7.13 and later (wifi-qcom drivers); older devices use the wireless menu (router_list_wireless_interfaces). Settings given here override the named configuration, security and channel profiles. The passphrase is masked in all output. Changing ssid, security or channel disconnects clients.",
  example: {
    "target": { "name": "wifi1" },
    "update": { "configuration_ssid": "example-ssid", "security_passphrase": "Example-Pa55phrase" },
  },
};

/** `/interface/wifi/registration-table`. */
export const wifiRegistrationsTools: MenuTools = {
  schema: wifiRegistrations,
  toolset: "wireless",
  noun: NOUNS.wifi_client,
  verbs: ["list"],
  columns: ["interface", "mac-address", "ssid", "signal", "uptime"],
  notes: "Read-only: stations associated now, with signal (dBm) and rates.",
};

/** `/interface/wifi/access-list`. */
export const wifiAccessListTools: MenuTools = {
  schema: wifiAccessList,
  toolset: "wireless",
  noun: NOUNS.wifi_access_rule,
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["mac-address", "interface", "action", "signal-range", "disabled", "comment"],
  notes:
    "Rules are checked top to bottom when a client connects; the first match decides (accept or reject). A rule's passphrase gives that client its own key (masked in output).",
  example: {
    "add": { "mac_address": "02:00:00:00:99:03", "action": "reject", "comment": "example" },
    "update": { "action": "accept", "passphrase": "Client-Pa55phrase" },
  },
};

/** `/interface/wireless`. */
export const wirelessTools: MenuTools = {
  schema: wireless,
  toolset: "wireless",
  noun: NOUNS.wireless_interface,
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "mode", "ssid", "band", "frequency", "running", "disabled"],
  notes:
    "The wireless package menu: RouterOS 6, and RouterOS 7 devices with the wireless package (newer devices use router_list_wifi_interfaces). The key is in the security profile (router_update_wireless_security_profile). Changing ssid, band or frequency disconnects clients.",
  example: { "target": { "name": "wlan1" }, "update": { "ssid": "example-ssid" } },
};

/** `/interface/wireless/security-profiles`. */
export const wirelessSecurityProfilesTools: MenuTools = {
  schema: wirelessSecurityProfiles,
  toolset: "wireless",
  noun: NOUNS.wireless_security_profile,
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["name", "mode", "authentication-types", "unicast-ciphers", "wpa2-pre-shared-key"],
  notes:
    "Interfaces use a profile by name (security_profile). mode dynamic-keys with authentication_types wpa2-psk and a wpa2_pre_shared_key is a WPA2 personal network. Keys are masked in all output. The profile named default cannot be removed.",
  example: {
    "add": {
      "name": "profile-example",
      "mode": "dynamic-keys",
      "authentication_types": ["wpa2-psk"],
      "wpa2_pre_shared_key": "Example-Pa55phrase",
    },
    "update": { "wpa2_pre_shared_key": "Changed-Pa55phrase" },
  },
};

/** `/interface/wireless/registration-table`. */
export const wirelessRegistrationsTools: MenuTools = {
  schema: wirelessRegistrations,
  toolset: "wireless",
  noun: NOUNS.wireless_client,
  verbs: ["list"],
  columns: ["interface", "mac-address", "signal-strength", "tx-rate", "uptime"],
  notes: "Read-only: stations associated now, with signal strength (dBm) and rates.",
};

/** `/interface/wireless/access-list`. */
export const wirelessAccessListTools: MenuTools = {
  schema: wirelessAccessList,
  toolset: "wireless",
  noun: NOUNS.wireless_access_rule,
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["mac-address", "interface", "authentication", "signal-range", "disabled", "comment"],
  notes:
    "Rules are checked top to bottom when a client connects. authentication=false rejects the client. private_pre_shared_key gives the client its own key (masked).",
  example: {
    "add": {
      "mac_address": "02:00:00:00:99:02",
      "interface": "all",
      "authentication": true,
      "comment": "example",
    },
    "update": { "forwarding": false },
  },
};
