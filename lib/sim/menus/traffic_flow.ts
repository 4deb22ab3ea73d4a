/**
 * Traffic-flow (NetFlow/IPFIX export): `/ip/traffic-flow` (settings) and
 * `/ip/traffic-flow/target`.
 *
 * Sources:
 * - arguments: `../shared/fidelity/tree-*.json` (the same on 7.12.2 to
 *   7.24; `monitor` of the settings and `/ip/traffic-flow/ipfix` are not
 *   imitated); values: the value lists of `tree-7.22.3.json` (`cache-entries`
 *   1k to 32M, `version` 1, 5, 9, ipfix);
 * - RouterOS 6 has no tree: a target is one `address=IP:port` there
 *   (MikroTik's v6 manual and RouterOS 6 configurations published with it),
 *   and packet sampling is left to RouterOS 7;
 * - defaults: MikroTik's traffic-flow manual (off, all interfaces, 4k cache
 *   entries, flows exported after 30m active or 15s idle; targets on UDP
 *   2055, NetFlow 9, templates every 20 packets or 30m).
 *
 * No real capture of these menus' `print` is in `../shared`: print order is
 * the order below.
 *
 * @module
 */
import type { MenuDef } from "../menu_types.ts";
import { V6, V7 } from "../releases.ts";
import { isIp6, parseIp4 } from "../ipaddr.ts";
import { bool, DISABLED, F_DISABLED, int, oneOf, str } from "./common.ts";
import { settingsMenu } from "./settings_menu.ts";

const CACHE = [
  "1k",
  "2k",
  "4k",
  "8k",
  "16k",
  "32k",
  "64k",
  "128k",
  "256k",
  "512k",
  "1M",
  "2M",
  "4M",
  "8M",
  "16M",
  "32M",
];

/** `/ip/traffic-flow`: off, as a new router has it. */
const TRAFFIC_FLOW = settingsMenu("/ip/traffic-flow", [
  bool("enabled", false),
  { name: "interfaces", type: "list", default: "all" },
  oneOf("cache-entries", CACHE, "4k"),
  { name: "active-flow-timeout", type: "time", default: "30m" },
  { name: "inactive-flow-timeout", type: "time", default: "15s" },
  bool("packet-sampling", false, { releases: V7 }),
  int("sampling-interval", 0, { min: 0, max: 4294967295, releases: V7 }),
  int("sampling-space", 0, { min: 0, max: 4294967295, releases: V7 }),
], {
  enabled: "false",
  interfaces: "all",
  "cache-entries": "4k",
  "active-flow-timeout": "30m",
  "inactive-flow-timeout": "15s",
  "packet-sampling": "false",
  "sampling-interval": "0",
  "sampling-space": "0",
});

/** RouterOS 6's `address=IP:port` of a target. */
function ipPort(v: string): string | undefined {
  const m = /^([^:]+):(\d{1,5})$/.exec(v);
  return m && parseIp4(m[1]) !== null && Number(m[2]) <= 65535
    ? undefined
    : "invalid value for argument address";
}

/** An IPv4 or IPv6 address (RouterOS 7's `dst-address`, `src-address`). */
function anyIp(name: string) {
  return (v: string) =>
    parseIp4(v) !== null || isIp6(v) ? undefined : `invalid value for argument ${name}`;
}

/** `/ip/traffic-flow/target`: none on a new router. */
const TARGET: MenuDef = {
  path: "/ip/traffic-flow/target",
  kind: "list",
  props: [
    { name: "address", type: "str", required: true, validate: ipPort, releases: V6 },
    {
      name: "dst-address",
      type: "str",
      required: true,
      validate: anyIp("dst-address"),
      releases: V7,
    },
    int("port", 2055, { min: 1, max: 65535, releases: V7 }),
    str("src-address", { validate: anyIp("src-address"), releases: V7 }),
    oneOf("version", ["1", "5", "9", "ipfix"], "9"),
    int("v9-template-refresh", 20, { min: 1, max: 4294967295 }),
    { name: "v9-template-timeout", type: "time", default: "30m" },
    DISABLED,
  ],
  flags: [F_DISABLED],
  columns: ["dst-address", "port", "version"],
  columns6: ["address", "version"],
};

/** The menus of this family. */
export const TRAFFIC_FLOW_MENUS: readonly MenuDef[] = [TRAFFIC_FLOW, TARGET];
