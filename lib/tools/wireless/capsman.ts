/**
 * Tools of the CAPsMAN menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/capsman.ts.
 *
 * @module
 */
import {
  capsManConfigurations,
  capsManInterfaces,
  capsManManager,
  capsManProvisioning,
  capsManRegistrations,
  capsManRemoteCaps,
  wifiCapsman,
  wifiConfigurations,
  wifiProvisioning,
  wifiRemoteCaps,
} from "../../routeros/schema/menus/capsman.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

const VERBS = ["list", "get", "add", "update", "remove"] as const;

/** The concept, for the legacy menus. */
const LEGACY =
  "CAPsMAN configures many access points (CAPs) from this router. /caps-man drives wireless-package radios: RouterOS 6, built in up to 7.12, the wireless package from 7.13; wifi radios use the wifi CAPsMAN (router_get_wifi_capsman, 7.13 on).";
/** The concept, for the wifi menus. */
const WIFI =
  "The wifi CAPsMAN (RouterOS 7.13 on) configures wifi access points (CAPs) from this router; wireless-package radios use /caps-man (router_get_capsman_manager).";

/** `/caps-man/manager`. */
const capsManManagerTools: MenuTools = {
  schema: capsManManager,
  toolset: "wireless",
  noun: noun("capsman_manager", "CAPsMAN manager (settings)"),
  verbs: ["get", "update"],
  columns: ["enabled", "certificate", "require-peer-certificate", "upgrade-policy"],
  notes: `${LEGACY} enabled makes this router the controller.`,
  example: { "update": { "upgrade_policy": "require-same-version" } },
};

/** `/caps-man/configuration`. */
const capsManConfigurationsTools: MenuTools = {
  schema: capsManConfigurations,
  toolset: "wireless",
  noun: noun("capsman_configuration", "CAPsMAN configuration"),
  verbs: VERBS,
  columns: ["name", "ssid", "mode", "channel.band", "security.authentication-types"],
  notes:
    `${LEGACY} A configuration is the SSID, channel, security and datapath a provisioning rule gives a CAP radio. The passphrase is write-only.`,
  example: {
    "add": {
      "name": "caps-cfg-example",
      "ssid": "example-ssid",
      "security_authentication_types": ["wpa2-psk"],
      "security_passphrase": "Example-Pa55phrase",
      "comment": "example",
    },
    "update": { "ssid": "example-ssid-2" },
  },
};

/** `/caps-man/provisioning`. */
const capsManProvisioningTools: MenuTools = {
  schema: capsManProvisioning,
  toolset: "wireless",
  noun: noun("capsman_provisioning_rule", "CAPsMAN provisioning rule"),
  verbs: [...VERBS, "enable", "disable", "move"],
  columns: ["radio-mac", "action", "master-configuration", "name-format", "disabled"],
  notes:
    `${LEGACY} Rules are matched top to bottom when a CAP radio connects; the first match creates its interface with master_configuration (a configuration name).`,
  example: {
    "add": {
      "action": "create-dynamic-enabled",
      "master_configuration": "caps-cfg-example",
      "comment": "example",
    },
    "update": { "name_format": "identity" },
    "requires": ["/caps-man/configuration"],
  },
};

/** `/caps-man/remote-cap`. */
const capsManRemoteCapsTools: MenuTools = {
  schema: capsManRemoteCaps,
  toolset: "wireless",
  noun: noun("capsman_remote_cap", "CAP connected to CAPsMAN", {
    many: "CAPs connected to CAPsMAN",
  }),
  verbs: ["list"],
  columns: ["address", "identity", "board", "version", "state"],
  notes: `${LEGACY} Read-only: access points connected now.`,
};

/** `/caps-man/registration-table`. */
const capsManRegistrationsTools: MenuTools = {
  schema: capsManRegistrations,
  toolset: "wireless",
  noun: noun("capsman_client", "connected CAPsMAN client"),
  verbs: ["list"],
  columns: ["interface", "mac-address", "ssid", "rx-signal", "uptime"],
  notes: `${LEGACY} Read-only: clients on CAP radios now.`,
};

/** `/caps-man/interface`. */
const capsManInterfacesTools: MenuTools = {
  schema: capsManInterfaces,
  toolset: "wireless",
  noun: noun("capsman_interface", "CAPsMAN interface"),
  verbs: ["list"],
  columns: ["name", "radio-mac", "configuration", "bound", "disabled"],
  notes: `${LEGACY} Read-only here: the CAP radios, made by provisioning rules.`,
};

/** `/interface/wifi/capsman`. */
const wifiCapsmanTools: MenuTools = {
  schema: wifiCapsman,
  toolset: "wireless",
  noun: noun("wifi_capsman", "wifi CAPsMAN (settings)"),
  verbs: ["get", "update"],
  columns: ["enabled", "interfaces", "certificate", "upgrade-policy"],
  notes: `${WIFI} enabled makes this router the controller, for CAPs on interfaces.`,
  example: { "update": { "upgrade_policy": "suggest-same-version" } },
};

/** `/interface/wifi/capsman/remote-cap`. */
const wifiRemoteCapsTools: MenuTools = {
  schema: wifiRemoteCaps,
  toolset: "wireless",
  noun: noun("wifi_remote_cap", "wifi CAP connected to CAPsMAN", {
    many: "wifi CAPs connected to CAPsMAN",
  }),
  verbs: ["list"],
  columns: ["address", "identity", "board-name", "version", "state"],
  notes: `${WIFI} Read-only: access points connected now.`,
};

/** `/interface/wifi/configuration`. */
const wifiConfigurationsTools: MenuTools = {
  schema: wifiConfigurations,
  toolset: "wireless",
  noun: noun("wifi_configuration", "wifi configuration"),
  verbs: [...VERBS, "enable", "disable"],
  columns: ["name", "mode", "ssid", "manager", "channel.band", "disabled"],
  notes:
    `${WIFI} A configuration names SSID, channel and security for wifi interfaces (their configuration) or CAP radios (manager=capsman). The passphrase is write-only.`,
  example: {
    "add": {
      "name": "wifi-cfg-example",
      "ssid": "example-ssid",
      "manager": "capsman",
      "security_authentication_types": ["wpa2-psk", "wpa3-psk"],
      "security_passphrase": "Example-Pa55phrase",
      "comment": "example",
    },
    "update": { "ssid": "example-ssid-2" },
  },
};

/** `/interface/wifi/provisioning`. */
const wifiProvisioningTools: MenuTools = {
  schema: wifiProvisioning,
  toolset: "wireless",
  noun: noun("wifi_provisioning_rule", "wifi provisioning rule"),
  verbs: [...VERBS, "enable", "disable", "move"],
  columns: ["action", "master-configuration", "supported-bands", "radio-mac", "disabled"],
  notes:
    `${WIFI} Rules are matched top to bottom when a CAP radio connects; the first match creates its interface with master_configuration (a wifi configuration name).`,
  example: {
    "add": {
      "action": "create-dynamic-enabled",
      "master_configuration": "wifi-cfg-example",
      "supported_bands": ["5ghz-ax"],
      "comment": "example",
    },
    "update": { "name_format": "cap-%I" },
    "requires": ["/interface/wifi/configuration"],
  },
};

/** The menus of this family, in catalogue order. */
export const CAPSMAN_MENU_TOOLS: readonly MenuTools[] = [
  capsManManagerTools,
  capsManConfigurationsTools,
  capsManProvisioningTools,
  capsManRemoteCapsTools,
  capsManRegistrationsTools,
  capsManInterfacesTools,
  wifiCapsmanTools,
  wifiRemoteCapsTools,
  wifiConfigurationsTools,
  wifiProvisioningTools,
];
