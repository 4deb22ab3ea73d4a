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
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/interface/wifi`. */
const wifiTools: MenuTools = {
  schema: wifi,
  toolset: "wireless",
  noun: noun("wifi_interface", "wifi interface"),
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
const wifiRegistrationsTools: MenuTools = {
  schema: wifiRegistrations,
  toolset: "wireless",
  noun: noun("wifi_client", "connected wifi client"),
  verbs: ["list"],
  columns: ["interface", "mac-address", "ssid", "signal", "uptime"],
  notes: "Read-only: stations associated now, with signal (dBm) and rates.",
};

/** `/interface/wifi/access-list`. */
const wifiAccessListTools: MenuTools = {
  schema: wifiAccessList,
  toolset: "wireless",
  noun: noun("wifi_access_rule", "wifi access list rule"),
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
const wirelessTools: MenuTools = {
  schema: wireless,
  toolset: "wireless",
  noun: noun("wireless_interface", "legacy wireless interface"),
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "mode", "ssid", "band", "frequency", "running", "disabled"],
  notes:
    "The wireless package menu: RouterOS 6, and RouterOS 7 devices with the wireless package (newer devices use router_list_wifi_interfaces). The key is in the security profile (router_update_wireless_security_profile). Changing ssid, band or frequency disconnects clients.",
  example: { "target": { "name": "wlan1" }, "update": { "ssid": "example-ssid" } },
};

/** `/interface/wireless/security-profiles`. */
const wirelessSecurityProfilesTools: MenuTools = {
  schema: wirelessSecurityProfiles,
  toolset: "wireless",
  noun: noun("wireless_security_profile", "legacy wireless security profile"),
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
const wirelessRegistrationsTools: MenuTools = {
  schema: wirelessRegistrations,
  toolset: "wireless",
  noun: noun("wireless_client", "connected legacy wireless client"),
  verbs: ["list"],
  columns: ["interface", "mac-address", "signal-strength", "tx-rate", "uptime"],
  notes: "Read-only: stations associated now, with signal strength (dBm) and rates.",
};

/** `/interface/wireless/access-list`. */
const wirelessAccessListTools: MenuTools = {
  schema: wirelessAccessList,
  toolset: "wireless",
  noun: noun("wireless_access_rule", "legacy wireless access list rule"),
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

/** The menus of this family, in catalogue order. */
export const WIRELESS_MENU_TOOLS: readonly MenuTools[] = [
  wifiTools,
  wifiRegistrationsTools,
  wifiAccessListTools,
  wirelessTools,
  wirelessSecurityProfilesTools,
  wirelessRegistrationsTools,
  wirelessAccessListTools,
];
