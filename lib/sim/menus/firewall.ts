/**
 * `/ip/firewall/{filter,nat,mangle,raw,address-list}` and `/ipv6/firewall/{filter,address-list}`.
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "../menu_types.ts";
import { isTrue } from "../values.ts";
import { fail } from "../errors.ts";
import {
  COMMENT,
  DISABLED,
  DYNAMIC,
  F_DISABLED,
  F_DYNAMIC,
  F_INVALID,
  INVALID,
  ro,
  str,
} from "./common.ts";

const CONN_STATES = ["established", "invalid", "new", "related", "untracked"];
const ACTIONS: Record<string, string[]> = {
  filter: [
    "accept",
    "add-dst-to-address-list",
    "add-src-to-address-list",
    "drop",
    "fasttrack-connection",
    "jump",
    "log",
    "passthrough",
    "reject",
    "return",
    "tarpit",
  ],
  nat: [
    "accept",
    "add-dst-to-address-list",
    "add-src-to-address-list",
    "dst-nat",
    "jump",
    "log",
    "masquerade",
    "netmap",
    "passthrough",
    "redirect",
    "return",
    "same",
    "src-nat",
    "endpoint-independent-nat",
  ],
  mangle: [
    "accept",
    "add-dst-to-address-list",
    "add-src-to-address-list",
    "change-dscp",
    "change-mss",
    "change-ttl",
    "clear-df",
    "fasttrack-connection",
    "jump",
    "log",
    "mark-connection",
    "mark-packet",
    "mark-routing",
    "passthrough",
    "return",
    "route",
    "set-priority",
    "sniff-pc",
    "sniff-tzsp",
    "strip-ipv4-options",
  ],
  raw: [
    "accept",
    "add-dst-to-address-list",
    "add-src-to-address-list",
    "drop",
    "jump",
    "log",
    "notrack",
    "passthrough",
    "return",
  ],
};

function ifList(name: string): PropDef {
  return {
    name,
    type: "str",
    validate: (v, _i, st) => {
      const n = v.startsWith("!") ? v.slice(1) : v;
      const lists = st.list(st.menuOf("/interface/list")).map((l) => l.name);
      return lists.includes(n) ? undefined : `input does not match any value of ${name}`;
    },
  };
}

function iface(name: string): PropDef {
  return {
    name,
    type: "str",
    validate: (v, _i, st) => {
      const n = v.startsWith("!") ? v.slice(1) : v;
      return st.findByKey("/interface", n)
        ? undefined
        : `input does not match any value of ${name}`;
    },
  };
}

/** What each table lacks, per every real 7.x command tree (`../shared/fidelity`). */
const MARKS = ["new-connection-mark", "new-packet-mark", "new-routing-mark", "passthrough"];
const LACKS: Record<string, string[]> = {
  filter: MARKS,
  nat: [
    "connection-state",
    "connection-nat-state",
    "tcp-flags",
    "reject-with",
    "hw-offload",
    ...MARKS,
  ],
  mangle: ["reject-with", "hw-offload"],
  raw: [
    "connection-state",
    "connection-nat-state",
    "connection-mark",
    "routing-mark",
    "reject-with",
    "hw-offload",
    ...MARKS,
  ],
};

function ruleProps(table: string, v6: boolean): PropDef[] {
  const chains = table === "nat"
    ? ["srcnat", "dstnat"]
    : ["input", "forward", "output", "prerouting", "postrouting"];
  const all: PropDef[] = [
    str("chain", {
      required: true,
      validate: (v) => (v && !/\s/.test(v) ? undefined : "invalid value for argument chain"),
    }),
    { name: "action", type: "enum", values: ACTIONS[table], default: "accept", exportAlways: true },
    str("src-address"),
    str("dst-address"),
    str("src-address-list"),
    str("dst-address-list"),
    str("protocol"),
    str("src-port"),
    str("dst-port"),
    str("port"),
    iface("in-interface"),
    iface("out-interface"),
    ifList("in-interface-list"),
    ifList("out-interface-list"),
    { name: "connection-state", type: "list", values: CONN_STATES },
    str("connection-nat-state"),
    str("connection-mark"),
    str("packet-mark"),
    str("routing-mark"),
    str("ipsec-policy"),
    str("icmp-options"),
    str("tcp-flags"),
    str("limit"),
    str("jump-target"),
    str("reject-with"),
    str("new-connection-mark"),
    str("new-packet-mark"),
    str("new-routing-mark"),
    { name: "passthrough", type: "bool" },
    // gone from filter rules in 7.21 (the 7.20.8 tree has it, 7.22.3 not); nat/raw never
    { name: "hw-offload", type: "bool", releases: { until: "7.20" } },
    ...(table === "nat" ? [str("to-addresses"), str("to-ports")] : []),
    str("address-list"),
    { name: "address-list-timeout", type: "str" },
    { name: "log", type: "bool", default: "false" },
    { name: "log-prefix", type: "str", default: "" },
    ro("bytes", "int", { compute: () => "0" }),
    ro("packets", "int", { compute: () => "0" }),
    { ...INVALID, compute: () => "false" },
    DYNAMIC,
    DISABLED,
    COMMENT,
  ];
  const lacks = [
    ...LACKS[table],
    ...(v6 ? ["connection-nat-state", "to-addresses", "hw-offload"] : []),
  ];
  return all.filter((p) => !lacks.includes(p.name))
    .map((p) => p.name === "chain" ? { ...p, values: chains } : p);
}

const RULE_FLAGS = [F_DISABLED, F_INVALID, F_DYNAMIC];
const RULE_COLS = [
  "chain",
  "action",
  "src-address",
  "dst-address",
  "src-address-list",
  "dst-address-list",
  "protocol",
  "src-port",
  "dst-port",
  "in-interface",
  "out-interface",
  "in-interface-list",
  "out-interface-list",
  "to-addresses",
  "to-ports",
];

/** A rule table: ordered rules with the matchers and actions of `table` (filter, nat, mangle, raw). */
export function rules(path: string, table: string, defaults: Item[], v6 = false): MenuDef {
  return {
    path,
    kind: "list",
    ordered: true,
    unset: {},
    props: ruleProps(table, v6),
    flags: RULE_FLAGS,
    dynColumns: RULE_COLS,
    columns6: ["chain", "action"],
    check: (it) => {
      if (it.action === "jump" && !it["jump-target"]) {
        throw fail("failure: jump-target not specified");
      }
    },
    defaults: () =>
      defaults.map((d) => ({
        action: "accept",
        log: "false",
        "log-prefix": "",
        disabled: "false",
        dynamic: "false",
        ...d,
      })),
    exportSkip: (it) => isTrue(it.dynamic),
  };
}

const DEF_FILTER: Item[] = [
  {
    chain: "input",
    action: "accept",
    "connection-state": "established,related,untracked",
    comment: "defconf: accept established,related,untracked",
  },
  {
    chain: "input",
    action: "drop",
    "connection-state": "invalid",
    comment: "defconf: drop invalid",
  },
  { chain: "input", action: "accept", protocol: "icmp", comment: "defconf: accept ICMP" },
  {
    chain: "input",
    action: "accept",
    "dst-address": "127.0.0.1",
    comment: "defconf: accept to local loopback (for CAPsMAN)",
  },
  {
    chain: "input",
    action: "drop",
    "in-interface-list": "!LAN",
    comment: "defconf: drop all not coming from LAN",
  },
  {
    chain: "forward",
    action: "accept",
    "ipsec-policy": "in,ipsec",
    comment: "defconf: accept in ipsec policy",
  },
  {
    chain: "forward",
    action: "accept",
    "ipsec-policy": "out,ipsec",
    comment: "defconf: accept out ipsec policy",
  },
  {
    chain: "forward",
    action: "fasttrack-connection",
    "connection-state": "established,related",
    "hw-offload": "true",
    comment: "defconf: fasttrack",
  },
  {
    chain: "forward",
    action: "accept",
    "connection-state": "established,related,untracked",
    comment: "defconf: accept established,related, untracked",
  },
  {
    chain: "forward",
    action: "drop",
    "connection-state": "invalid",
    comment: "defconf: drop invalid",
  },
  {
    chain: "forward",
    action: "drop",
    "connection-state": "new",
    "connection-nat-state": "!dstnat",
    "in-interface-list": "WAN",
    comment: "defconf: drop all from WAN not DSTNATed",
  },
];

const DEF_NAT: Item[] = [
  {
    chain: "srcnat",
    action: "masquerade",
    "ipsec-policy": "out,none",
    "out-interface-list": "WAN",
    comment: "defconf: masquerade",
  },
];

const DEF6_FILTER: Item[] = [
  {
    chain: "input",
    action: "accept",
    "connection-state": "established,related,untracked",
    comment: "defconf: accept established,related,untracked",
  },
  {
    chain: "input",
    action: "drop",
    "connection-state": "invalid",
    comment: "defconf: drop invalid",
  },
  { chain: "input", action: "accept", protocol: "icmpv6", comment: "defconf: accept ICMPv6" },
  {
    chain: "input",
    action: "accept",
    "dst-port": "33434-33534",
    protocol: "udp",
    comment: "defconf: accept UDP traceroute",
  },
  {
    chain: "input",
    action: "drop",
    "in-interface-list": "!LAN",
    comment: "defconf: drop everything else not coming from LAN",
  },
  {
    chain: "forward",
    action: "accept",
    "connection-state": "established,related,untracked",
    comment: "defconf: accept established,related,untracked",
  },
  {
    chain: "forward",
    action: "drop",
    "connection-state": "invalid",
    comment: "defconf: drop invalid",
  },
  {
    chain: "forward",
    action: "drop",
    "in-interface-list": "!LAN",
    comment: "defconf: drop everything else not coming from LAN",
  },
];

function addressList(path: string, v6: boolean): MenuDef {
  return {
    path,
    kind: "list",
    props: [
      str("list", { required: true }),
      str("address", { required: true }),
      // print order `list= address= creation-time= timeout=`, on 6.x as on 7.x
      // (real-output/terse-address-list-v4.txt)
      ro("creation-time", "str"),
      { name: "timeout", type: "time" },
      DYNAMIC,
      DISABLED,
      COMMENT,
    ],
    // One flag column: `13 X list=`, `14 D list=` (real-output/terse-address-list-v4.txt, v6).
    flags: [F_DISABLED, { ...F_DYNAMIC, group: 0 }],
    columns: ["list", "address", "creation-time", "timeout"],
    columns6: ["list", "address", "timeout"],
    unique: [{ props: ["list", "address"], error: "failure: already have such entry" }],
    check: (it, st, old) => {
      if (!old) it["creation-time"] = st.nowText();
      // an entry with a timeout is dynamic: `14 D list=... timeout=4m52s` (same capture)
      if (!old && it.timeout !== undefined) it.dynamic = "true";
      if (v6 && !it.address.includes(":")) throw fail("invalid value for argument address");
    },
    defaults: () => [],
  };
}

/** Firewall menus. */
export const FIREWALL_MENUS: MenuDef[] = [
  rules("/ip/firewall/filter", "filter", DEF_FILTER),
  rules("/ip/firewall/nat", "nat", DEF_NAT),
  rules("/ip/firewall/mangle", "mangle", []),
  rules("/ip/firewall/raw", "raw", []),
  addressList("/ip/firewall/address-list", false),
  rules("/ipv6/firewall/filter", "filter", DEF6_FILTER, true),
  addressList("/ipv6/firewall/address-list", true),
];
