/**
 * The settings MikroTik's "Securing your router" page hardens, each a
 * settings menu (print, get, set): the MAC server and its WinBox and ping
 * parts, neighbour discovery, the bandwidth test server, the web and SOCKS
 * proxies, UPnP and, from RouterOS 7, the password policy (`/user settings`).
 *
 * Property names per release are the `set` arguments of the real trees in
 * `../shared/fidelity` (7.12.2 to 7.24); only the properties a hardening
 * check reads or a fix writes are imitated (discovery: every property of
 * the trees but those only 7.24 has; its defaults, 30s between
 * announcements and the LLDP extras off, follow MikroTik's discovery
 * manual). RouterOS 6 has no tree: its menus follow MikroTik's v6 manual
 * (`allowed-interface-list` since 6.41, `discover-interface-list` without
 * `protocol`, `mode` or the LLDP settings, no `/user settings`).
 *
 * Defaults are those of a router with the default configuration (the one
 * the simulator imitates): the MAC server, MAC WinBox and discovery limited
 * to the `LAN` list, MAC ping and the bandwidth test server on, the
 * proxies and UPnP off, no password length minimum.
 *
 * No real capture of these menus' `print` is in `../shared`: print order is
 * the order below.
 *
 * @module
 */
import type { MenuDef, PropDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { bool, int, oneOf } from "./common.ts";
import { settingsMenu as settings } from "./settings_menu.ts";

/** An interface list name (or all/none), as these menus take it. */
function listRef(name: string): PropDef {
  return {
    name,
    type: "ref",
    ref: "/interface/list",
    refAllow: ["all", "none", "dynamic", "static"],
  };
}

const MAC_SERVER = settings("/tool/mac-server", [listRef("allowed-interface-list")], {
  "allowed-interface-list": "LAN",
});

const MAC_WINBOX = settings("/tool/mac-server/mac-winbox", [listRef("allowed-interface-list")], {
  "allowed-interface-list": "LAN",
});

const MAC_PING = settings("/tool/mac-server/ping", [bool("enabled", true)], { enabled: "true" });

const DISCOVERY = settings("/ip/neighbor/discovery-settings", [
  listRef("discover-interface-list"),
  {
    name: "protocol",
    type: "list",
    values: ["cdp", "lldp", "mndp"],
    default: "cdp,lldp,mndp",
    releases: V7,
  },
  oneOf("mode", ["rx-only", "tx-and-rx", "tx-only"], "tx-and-rx", { releases: V7 }),
  // from the 7.16.2 tree (lldp-med-net-policy-vlan in every 7.x tree); a VLAN id or disabled
  { name: "discover-interval", type: "time", default: "30s", releases: { from: "7.16" } },
  {
    name: "lldp-med-net-policy-vlan",
    type: "int",
    values: ["disabled"],
    min: 0,
    max: 4095,
    default: "disabled",
    releases: V7,
  },
  bool("lldp-mac-phy-config", false, { releases: { from: "7.16" } }),
  bool("lldp-max-frame-size", false, { releases: { from: "7.16" } }),
  bool("lldp-vlan-info", false, { releases: { from: "7.16" } }),
], {
  "discover-interface-list": "LAN",
  protocol: "cdp,lldp,mndp",
  mode: "tx-and-rx",
  "discover-interval": "30s",
  "lldp-med-net-policy-vlan": "disabled",
  "lldp-mac-phy-config": "false",
  "lldp-max-frame-size": "false",
  "lldp-vlan-info": "false",
});

const BANDWIDTH_SERVER = settings("/tool/bandwidth-server", [
  bool("enabled", true),
  bool("authenticate", true),
  int("max-sessions", 100, { min: 1, max: 1000 }),
], { enabled: "true", authenticate: "true", "max-sessions": "100" });

const PROXY = settings("/ip/proxy", [
  bool("enabled", false),
  int("port", 8080, { min: 1, max: 65535 }),
  bool("anonymous", false),
], { enabled: "false", port: "8080", anonymous: "false" });

const SOCKS = settings("/ip/socks", [
  bool("enabled", false),
  int("port", 1080, { min: 1, max: 65535 }),
  oneOf("version", ["4", "5"], "4"),
  oneOf("auth-method", ["none", "password"], "none"),
], { enabled: "false", port: "1080", version: "4", "auth-method": "none" });

const UPNP = settings("/ip/upnp", [
  bool("enabled", false),
  bool("allow-disable-external-interface", false),
], { enabled: "false", "allow-disable-external-interface": "false" });

const USER_SETTINGS = settings(
  "/user/settings",
  [
    int("minimum-password-length", 0, { min: 0, max: 4294967295 }),
    int("minimum-categories", 0, { min: 0, max: 4 }),
  ],
  { "minimum-password-length": "0", "minimum-categories": "0" },
  V7,
);

/** The hardening settings menus. */
export const MANAGEMENT_ACCESS_MENUS: MenuDef[] = [
  MAC_SERVER,
  MAC_WINBOX,
  MAC_PING,
  DISCOVERY,
  BANDWIDTH_SERVER,
  PROXY,
  SOCKS,
  UPNP,
  USER_SETTINGS,
];
