/**
 * `/interface/ovpn-server/server`: the one server's settings up to 7.16, a
 * list of named servers from 7.17 (as the real trees show).
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { V6, V7 } from "../releases.ts";
import { bool, COMMENT, DISABLED, F_DISABLED, int, oneOf, str } from "./common.ts";

const SETTINGS_UNTIL = { until: "7.16" };
const SERVERS_FROM = { from: "7.17" };

/** What the settings and the servers share. */
function server(): PropDef[] {
  return [
    int("port", 1194, { min: 1, max: 65535 }),
    oneOf("protocol", ["tcp", "udp"], "tcp", { releases: V7 }),
    oneOf("mode", ["ethernet", "ip"], "ip"),
    int("netmask", 24, { min: 0, max: 32 }),
    { name: "mac-address", type: "mac", default: "FE:21:5C:4B:0D:6A" },
    int("max-mtu", 1500, { min: 0, max: 65535 }),
    str("keepalive-timeout", { default: "60" }),
    { name: "default-profile", type: "ref", ref: "/ppp/profile", default: "default" },
    str("certificate", { default: "none" }),
    bool("require-client-certificate", false),
    {
      name: "auth",
      type: "list",
      values: ["md5", "null", "sha1", "sha256", "sha512"],
      default: "sha1,md5,sha256,sha512",
    },
    {
      name: "cipher",
      type: "list",
      values: ["aes128", "aes192", "aes256", "blowfish128", "null"],
      default: "blowfish128,aes128",
      releases: V6,
    },
    {
      name: "cipher",
      type: "list",
      values: [
        "aes128-cbc",
        "aes128-gcm",
        "aes192-cbc",
        "aes192-gcm",
        "aes256-cbc",
        "aes256-gcm",
        "blowfish128",
        "null",
      ],
      default: "aes128-cbc,blowfish128",
      releases: V7,
    },
    oneOf("tls-version", ["any", "only-1.2"], "any", { releases: V7 }),
    {
      name: "redirect-gateway",
      type: "list",
      values: ["def1", "disabled", "ipv6"],
      default: "disabled",
      releases: V7,
    },
    bool("enable-tun-ipv6", false, { releases: V7 }),
    int("ipv6-prefix-len", 64, { min: 1, max: 128, releases: V7 }),
    str("tun-server-ipv6", { default: "::", releases: V7 }),
    int("reneg-sec", 3600, { min: 0, releases: V7 }),
  ];
}

/** Default values of the settings a release has. */
function settingsDefaults(st: RouterState): Item {
  const out: Item = { enabled: "false" };
  for (const p of server()) {
    if (typeof p.default !== "string") continue;
    if (p.releases === V7 && st.v6) continue;
    if (p.releases === V6 && !st.v6) continue;
    out[p.name] = p.default;
  }
  return out;
}

/** Up to 7.16: the settings of the one server. */
const SETTINGS: MenuDef = {
  path: "/interface/ovpn-server/server",
  kind: "single",
  releases: SETTINGS_UNTIL,
  props: [
    bool("enabled", false),
    ...server(),
    str("push-routes", { default: "", releases: { from: "7.16" } }),
  ],
  defaults: (st) => [settingsDefaults(st)],
};

/** From 7.17: named servers, none on a fresh router. */
const SERVERS: MenuDef = {
  path: "/interface/ovpn-server/server",
  kind: "list",
  key: "name",
  releases: SERVERS_FROM,
  props: [
    str("name", { default: (_i, st) => `ovpn-server${st.stored(SERVERS).length + 1}` }),
    ...server(),
    str("push-routes", { default: "" }),
    str("push-routes-ipv6", { default: "", releases: { from: "7.22" } }),
    oneOf("user-auth-method", ["mschap2", "pap"], "pap"),
    { name: "vrf", type: "ref", ref: "/ip/vrf", default: "main" },
    DISABLED,
    COMMENT,
  ],
  flags: [F_DISABLED],
  columns: ["name", "port", "protocol", "mode", "certificate"],
  unique: [{ props: ["name"], error: "failure: ovpn server with the same name already exists" }],
};

/** The OpenVPN server menus. */
export const OVPN_MENUS: MenuDef[] = [SETTINGS, SERVERS];
