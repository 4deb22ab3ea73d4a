/**
 * `/ip/firewall/connection`: the connection tracking table. RouterOS fills
 * it; a user can only read it and remove an entry (every 7.x tree in
 * `../shared/fidelity` lists find, get, print and remove, no add or set).
 *
 * Print order, flags and value forms come from
 * `real-output/terse-firewall-connection-v7.txt`:
 * `0 SAC protocol=tcp src-address=... src-port=... dst-address=... dst-port=22
 * reply-src-address=... reply-src-port=22 reply-dst-address=...
 * reply-dst-port=... tcp-state=established timeout=23h59m52s orig-packets=520
 * orig-bytes=47 603 ... orig-rate=1760bps repl-rate=6.4kbps`, an ICMP entry
 * with `icmp-type= icmp-code= icmp-id=` after the reply addresses, counters
 * printed with a space between thousands (`47 603`), and the flag letters S
 * (seen-reply), A (assured), C (confirmed) and s (srcnat). The other flag
 * names are those of the print property list of `tree-7.22.3.json`
 * (dstnat dying expected fasttrack hw-offload); their letters follow
 * MikroTik's manual. The rates are kept as printed (`1760bps`): no capture
 * shows them as values.
 *
 * The demo router tracks what its LAN hosts do with it: the laptop's SSH
 * session, a DNS query of the phone and a ping.
 *
 * @module
 */
import type { FlagDef, MenuDef, PropDef } from "../menu_types.ts";
import { V7 } from "../releases.ts";
import { isTrue } from "../values.ts";
import { ro, statusTable } from "./common.ts";

/** `47603` -> `47 603`, as connection counters print (terse-firewall-connection-v7.txt). */
export function thousands(v: string): string {
  return /^\d+$/.test(v) ? v.replace(/\B(?=(\d{3})+$)/g, " ") : v;
}

const counter = (name: string): PropDef => ro(name, "int", { show: thousands });

/** Flag letters in the order a terse line shows them (`SAC`, `S Cs`). */
const FLAG_NAMES: [string, string, boolean?][] = [
  ["E", "expected"],
  ["S", "seen-reply"],
  ["A", "assured"],
  ["C", "confirmed"],
  ["D", "dying"],
  ["F", "fasttrack"],
  ["H", "hw-offload", true],
  ["s", "srcnat"],
  ["d", "dstnat"],
];

/** One column each in a table, so that `SAC` shows whole. */
const FLAGS: FlagDef[] = FLAG_NAMES.map(([ch, name, v7], group) => ({
  ch,
  name,
  group,
  ...(v7 ? { releases: V7 } : {}),
  test: (i) => isTrue(i[name]),
}));

/** `/ip/firewall/connection`. */
const CONNECTION = statusTable({
  path: "/ip/firewall/connection",
  props: [
    ro("protocol", "str"),
    ro("src-address", "str"),
    ro("src-port", "str"),
    ro("dst-address", "str"),
    ro("dst-port", "str"),
    ro("reply-src-address", "str"),
    ro("reply-src-port", "str"),
    ro("reply-dst-address", "str"),
    ro("reply-dst-port", "str"),
    ro("icmp-type", "str"),
    ro("icmp-code", "str"),
    ro("icmp-id", "str"),
    ro("tcp-state", "str"),
    ro("timeout", "time"),
    counter("orig-packets"),
    counter("orig-bytes"),
    counter("orig-fasttrack-packets"),
    counter("orig-fasttrack-bytes"),
    counter("repl-packets"),
    counter("repl-bytes"),
    counter("repl-fasttrack-packets"),
    counter("repl-fasttrack-bytes"),
    ro("orig-rate", "str"),
    ro("repl-rate", "str"),
    ...FLAG_NAMES.map(([, name, v7]) =>
      ro(name, "bool", { default: "false", ...(v7 ? { releases: V7 } : {}) })
    ),
  ],
  flags: FLAGS,
  columns: ["protocol", "src-address", "dst-address", "tcp-state", "timeout"],
  defaults: (st) => {
    const flags = (on: string[]) =>
      Object.fromEntries(
        FLAG_NAMES.filter(([, , v7]) => !(v7 && st.v6)).map((
          [, name],
        ) => [name, String(on.includes(name))]),
      );
    const fasttrack = {
      "orig-fasttrack-packets": "0",
      "orig-fasttrack-bytes": "0",
      "repl-fasttrack-packets": "0",
      "repl-fasttrack-bytes": "0",
    };
    return [{
      protocol: "tcp",
      "src-address": "192.168.88.254",
      "src-port": "56454",
      "dst-address": "192.168.88.1",
      "dst-port": "22",
      "reply-src-address": "192.168.88.1",
      "reply-src-port": "22",
      "reply-dst-address": "192.168.88.254",
      "reply-dst-port": "56454",
      "tcp-state": "established",
      timeout: "23h59m52s",
      "orig-packets": "520",
      "orig-bytes": "47603",
      "repl-packets": "363",
      "repl-bytes": "53460",
      ...fasttrack,
      "orig-rate": "1760bps",
      "repl-rate": "6.4kbps",
      ...flags(["seen-reply", "assured", "confirmed"]),
    }, {
      protocol: "udp",
      "src-address": "192.168.88.253",
      "src-port": "41735",
      "dst-address": "192.168.88.1",
      "dst-port": "53",
      "reply-src-address": "192.168.88.1",
      "reply-src-port": "53",
      "reply-dst-address": "192.168.88.253",
      "reply-dst-port": "41735",
      timeout: "8s",
      "orig-packets": "1",
      "orig-bytes": "71",
      "repl-packets": "1",
      "repl-bytes": "135",
      ...fasttrack,
      "orig-rate": "0bps",
      "repl-rate": "0bps",
      ...flags(["seen-reply", "confirmed"]),
    }, {
      protocol: "icmp",
      "src-address": "192.168.88.254",
      "dst-address": "192.168.88.1",
      "reply-src-address": "192.168.88.1",
      "reply-dst-address": "192.168.88.254",
      "icmp-type": "8",
      "icmp-code": "0",
      "icmp-id": "69",
      timeout: "9s",
      "orig-packets": "7269",
      "orig-bytes": "610596",
      "repl-packets": "7269",
      "repl-bytes": "610596",
      ...fasttrack,
      "orig-rate": "1344bps",
      "repl-rate": "1344bps",
      ...flags(["seen-reply", "confirmed"]),
    }];
  },
}, { remove: true });

/** Connection tracking menus. */
export const CONNECTION_MENUS: MenuDef[] = [CONNECTION];
