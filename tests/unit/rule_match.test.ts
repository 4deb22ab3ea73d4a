/**
 * The firewall rule matcher (`lib/routeros/rule_match.ts`) on a table of
 * rules against one packet: an SSH connection's opening SYN from 10.0.0.5
 * to the router's 10.0.0.1:22, arriving on ether1 (IPv4), and its IPv6
 * twin; and the chain walk (`rule_chain.ts`): order, jumps, returns, each
 * table's actions.
 */
import assert from "node:assert/strict";
import {
  type FirewallRule,
  type Flow,
  matcherKind,
  matchRule,
  type RouterFacts,
} from "../../lib/routeros/rule_match.ts";
import { type Hit, walkChain } from "../../lib/routeros/rule_chain.ts";
import { interfaceListMembers } from "../../lib/routeros/interface_lists.ts";
import { addressInSpec } from "../../lib/routeros/prefix.ts";
import { capture, realOutputAvailable } from "../helpers/real_output.ts";
import { argsOf, trees, treesAvailable } from "../helpers/trees.ts";

const SYN: Flow = {
  srcAddress: "10.0.0.5",
  dstAddress: "10.0.0.1",
  protocol: "tcp",
  srcPort: { from: 1024, to: 65535 },
  dstPort: 22,
  inInterface: "ether1",
  outInterface: null,
  connectionState: "new",
  connectionNatState: [],
  connectionType: null,
  tcpFlags: ["syn"],
  srcAddressTypes: ["unicast"],
  dstAddressTypes: ["local", "unicast"],
};

const SYN6: Flow = { ...SYN, srcAddress: "2001:db8::5", dstAddress: "2001:db8::1" };

const FACTS: RouterFacts = {
  interfaceLists: new Map([
    ["LAN", new Set(["bridge"])],
    ["WAN", new Set(["ether1"])],
  ]),
  addressLists: new Map([
    ["admins", ["10.0.0.0/29"]],
    ["blocked", ["192.0.2.0/24", "198.51.100.7"]],
    ["by-name", ["vpn.example.com"]],
    ["range", ["10.0.0.4-10.0.0.6"]],
  ]),
  interfaceTypes: new Map([["ether1", "ether"], ["bridge", "bridge"]]),
};

/** [rule properties beside chain and action, the decision for SYN]. */
const TABLE: [Record<string, string>, "matches" | "no-match" | "unknown", Flow?][] = [
  // Issue 31, hole 5: the four rules that cut the session.
  [{ protocol: "tcp", "dst-port": "22" }, "matches"],
  [{ "src-address": "10.0.0.5" }, "matches"],
  [{ "src-address": "0.0.0.0/0" }, "matches"],
  [{ protocol: "tcp" }, "matches"],
  // ...and a harmless one.
  [{ "src-address": "192.0.2.99" }, "no-match"],
  [{}, "matches"],
  // Protocols by name and number, negated.
  [{ protocol: "6" }, "matches"],
  [{ protocol: "udp" }, "no-match"],
  [{ protocol: "!tcp" }, "no-match"],
  [{ protocol: "!17" }, "matches"],
  [{ protocol: "no-such-protocol" }, "unknown"],
  // Addresses: prefixes, ranges, negation, the other family.
  [{ "src-address": "10.0.0.0/24" }, "matches"],
  [{ "src-address": "!10.0.0.0/24" }, "no-match"],
  [{ "src-address": "10.0.0.1-10.0.0.9" }, "matches"],
  [{ "src-address": "10.0.0.6-10.0.0.9" }, "no-match"],
  [{ "src-address": "!10.0.0.6-10.0.0.9" }, "matches"],
  [{ "dst-address": "10.0.0.1/32" }, "matches"],
  [{ "dst-address": "10.0.0.2" }, "no-match"],
  [{ "src-address": "2001:db8::/32" }, "no-match"],
  [{ "src-address": "wan-hosts" }, "unknown"],
  // Ports: lists, ranges, negation; an ephemeral source port.
  [{ protocol: "tcp", "dst-port": "22,80" }, "matches"],
  [{ protocol: "tcp", "dst-port": "1000-2000" }, "no-match"],
  [{ protocol: "tcp", "dst-port": "20-25" }, "matches"],
  [{ protocol: "tcp", "dst-port": "!22" }, "no-match"],
  [{ protocol: "tcp", "dst-port": "!80,443,8000-9000" }, "matches"],
  [{ protocol: "tcp", "src-port": "1024-65535" }, "matches"],
  [{ protocol: "tcp", "src-port": "53" }, "no-match"],
  [{ protocol: "tcp", "src-port": "30000-40000" }, "unknown"],
  [{ protocol: "tcp", "src-port": "30001-65535,1024-30000" }, "matches"],
  [{ protocol: "tcp", port: "22" }, "matches"],
  [{ protocol: "tcp", port: "80" }, "no-match"],
  [{ protocol: "tcp", port: "8291" }, "unknown"],
  // Interfaces and interface lists, negated; no out-interface in input.
  [{ "in-interface": "ether1" }, "matches"],
  [{ "in-interface": "ether2" }, "no-match"],
  [{ "in-interface": "!ether1" }, "no-match"],
  [{ "in-interface": "all-ethernet" }, "matches"],
  [{ "in-interface": "all-ppp" }, "no-match"],
  [{ "in-interface-list": "WAN" }, "matches"],
  [{ "in-interface-list": "LAN" }, "no-match"],
  [{ "in-interface-list": "!LAN" }, "matches"],
  [{ "in-interface-list": "MGMT" }, "unknown"],
  [{ "out-interface": "ether1" }, "no-match"],
  [{ "out-interface": "!ether1" }, "matches"],
  [{ "in-interface": "ether1" }, "unknown", { ...SYN, inInterface: undefined }],
  // Address lists: prefixes, ranges, names the router resolves, lists not read.
  [{ "src-address-list": "admins" }, "matches"],
  [{ "src-address-list": "!admins" }, "no-match"],
  [{ "src-address-list": "blocked" }, "no-match"],
  [{ "src-address-list": "range" }, "matches"],
  [{ "src-address-list": "by-name" }, "unknown"],
  [{ "src-address-list": "never-read" }, "unknown"],
  [{ "dst-address-list": "admins" }, "matches"],
  // Connection tracking: a new connection.
  [{ "connection-state": "established,related" }, "no-match"],
  [{ "connection-state": "new" }, "matches"],
  [{ "connection-state": "established;related;new" }, "matches"],
  [{ "connection-state": "!established" }, "matches"],
  [{ "connection-nat-state": "dstnat" }, "no-match"],
  [{ "connection-nat-state": "!dstnat" }, "matches"],
  [{ "connection-type": "ftp" }, "no-match"],
  [{ "dst-address-type": "local" }, "matches"],
  [{ "src-address-type": "local" }, "no-match"],
  [{ "src-address-type": "!local" }, "matches"],
  [{ "tcp-flags": "syn" }, "matches"],
  [{ "tcp-flags": "syn,!ack" }, "matches"],
  [{ "tcp-flags": "!syn" }, "no-match"],
  [{ "tcp-flags": "ack" }, "no-match"],
  [{ "icmp-options": "8:0" }, "no-match"],
  // What no packet description holds.
  [{ protocol: "tcp", "layer7-protocol": "ssh" }, "unknown"],
  [{ content: "SSH-2.0" }, "unknown"],
  [{ time: "8h-17h,mon,tue" }, "unknown"],
  [{ limit: "10,5:packet" }, "unknown"],
  [{ "connection-limit": "3,32" }, "unknown"],
  [{ "connection-mark": "mgmt" }, "unknown"],
  [{ "connection-mark": "no-mark" }, "matches", { ...SYN, connectionMark: null }],
  [{ "src-mac-address": "48:A9:8A:12:34:01" }, "unknown"],
  [{ "ipsec-policy": "in,ipsec" }, "unknown"],
  [{ "a-future-matcher": "x" }, "unknown"],
  // An unknown matcher cannot save a rule another matcher rules out.
  [{ protocol: "udp", limit: "10,5:packet" }, "no-match"],
  // Disabled and invalid rules match nothing.
  [{ protocol: "tcp", disabled: "true" }, "no-match"],
  [{ protocol: "tcp", disabled: "yes" }, "no-match"],
  [{ protocol: "tcp", disabled: "false" }, "matches"],
  [{ protocol: "tcp", invalid: "true" }, "no-match"],
  // What a rule does is no matcher.
  [{ comment: "x", log: "true", "log-prefix": "ssh", "reject-with": "tcp-reset" }, "matches"],
  // IPv6.
  [{ "src-address": "2001:db8::/64" }, "matches", SYN6],
  [{ "src-address": "2001:db9::/32" }, "no-match", SYN6],
  [{ "src-address": "!2001:db8::5" }, "no-match", SYN6],
  [{ "dst-address": "2001:db8::1-2001:db8::ff" }, "matches", SYN6],
  [{ "src-address": "10.0.0.0/8" }, "no-match", SYN6],
  [{ protocol: "tcp", "dst-port": "22" }, "matches", SYN6],
];

Deno.test("matchRule: every matcher against a new SSH connection, on a table of rules", () => {
  for (const [props, want, flow] of TABLE) {
    const rule = { chain: "input", action: "drop", ...props };
    const got = matchRule(rule, flow ?? SYN, FACTS);
    assert.equal(got.decision, want, `${JSON.stringify(props)}: ${JSON.stringify(got.matchers)}`);
  }
});

Deno.test("matchRule: each matcher's answer says why it is unknown", () => {
  const got = matchRule(
    { chain: "input", protocol: "tcp", "dst-port": "22", limit: "10,5:packet" },
    SYN,
    FACTS,
  );
  assert.deepEqual(got.matchers, [
    { matcher: "protocol", value: "tcp", decision: "matches" },
    { matcher: "dst-port", value: "22", decision: "matches" },
    {
      matcher: "limit",
      value: "10,5:packet",
      decision: "unknown",
      why: "it depends on the packet rate",
    },
  ]);
  const nothing = matchRule({ chain: "input", "src-address-list": "x" }, {}, {});
  assert.equal(nothing.matchers[0].why, "the source address is not known");
});

const rule = (id: string, props: Record<string, string>): FirewallRule => ({ ".id": id, ...props });
const ids = (hits: readonly Hit[]) => hits.map((h) => `${h.rule[".id"]}${h.certain ? "" : "?"}`);

Deno.test("walkChain: order decides; an accept of established connections protects no new one", () => {
  const rules = [
    rule("*1", { chain: "input", action: "accept", "connection-state": "established,related" }),
    rule("*2", { chain: "forward", action: "drop" }),
    rule("*3", { chain: "input", action: "drop", protocol: "tcp", "dst-port": "22" }),
    rule("*4", { chain: "input", action: "accept" }),
  ];
  assert.equal(walkChain(rules, "filter", "input", SYN, FACTS).decider?.rule[".id"], "*3");
  const established = { ...SYN, connectionState: "established", tcpFlags: ["ack"] };
  assert.equal(walkChain(rules, "filter", "input", established, FACTS).decider?.rule[".id"], "*1");
  // An accept of this host before the drop decides first.
  const guarded = [
    rule("*0", { chain: "input", action: "accept", "src-address": "10.0.0.5" }),
    ...rules,
  ];
  assert.equal(walkChain(guarded, "filter", "input", SYN, FACTS).decider?.rule[".id"], "*0");
  // A passthrough, log or address-list action goes on; a disabled rule is not there.
  const on = [
    rule("*5", { chain: "input", action: "log" }),
    rule("*6", { chain: "input", action: "add-src-to-address-list", "address-list": "seen" }),
    rule("*7", { chain: "input", action: "accept", disabled: "true" }),
    rule("*8", { chain: "input", action: "reject", protocol: "tcp" }),
  ];
  const w = walkChain(on, "filter", "input", SYN, FACTS);
  assert.deepEqual(ids(w.hits), ["*8"]);
  assert.equal(w.decider?.rule.action, "reject");
  // Nothing decides: the packet leaves the chain at its end (accepted).
  assert.equal(walkChain(rules, "filter", "output", SYN, FACTS).decider, undefined);
});

Deno.test("walkChain: an unknown match may decide, so the walk goes on past it", () => {
  const rules = [
    rule("*1", { chain: "input", action: "accept", "src-address-list": "never-read" }),
    rule("*2", { chain: "input", action: "drop", protocol: "tcp", limit: "10,5:packet" }),
    rule("*3", { chain: "input", action: "drop", "in-interface-list": "!LAN" }),
    rule("*4", { chain: "input", action: "drop", protocol: "tcp" }),
  ];
  const w = walkChain(rules, "filter", "input", SYN, FACTS);
  assert.deepEqual(ids(w.hits), ["*1?", "*2?", "*3"]);
  assert.equal(w.decider?.rule[".id"], "*3");
  // goOnPast: every drop the packet may meet, up to the first certain accept.
  const all = walkChain(rules, "filter", "input", SYN, FACTS, {
    goOnPast: (h) => h.effect === "drop",
  });
  assert.deepEqual(ids(all.hits), ["*1?", "*2?", "*3", "*4"]);
  assert.equal(all.decider, undefined);
});

Deno.test("walkChain: jumps are followed, return comes back, a loop is walked once", () => {
  const rules = [
    rule("*1", {
      chain: "input",
      action: "jump",
      "jump-target": "wan-in",
      "in-interface-list": "WAN",
    }),
    rule("*2", { chain: "input", action: "accept" }),
    rule("*3", { chain: "wan-in", action: "return", "src-address": "10.0.0.0/24" }),
    rule("*4", { chain: "wan-in", action: "drop" }),
  ];
  assert.equal(walkChain(rules, "filter", "input", SYN, FACTS).decider?.rule[".id"], "*2");
  const stranger = { ...SYN, srcAddress: "203.0.113.9" };
  const w = walkChain(rules, "filter", "input", stranger, FACTS);
  assert.equal(w.decider?.rule[".id"], "*4");
  assert.deepEqual(w.decider?.via, ["input", "wan-in"]);
  // A jump whose match is unknown walks its target with every hit uncertain.
  const maybe = [
    rule("*1", { chain: "input", action: "jump", "jump-target": "x", limit: "1,1" }),
    rule("*2", { chain: "x", action: "drop" }),
    rule("*3", { chain: "input", action: "accept" }),
  ];
  assert.deepEqual(ids(walkChain(maybe, "filter", "input", SYN, FACTS).hits), ["*2?", "*3"]);
  // A chain that jumps back into itself ends.
  const loop = [
    rule("*1", { chain: "input", action: "jump", "jump-target": "a" }),
    rule("*2", { chain: "a", action: "jump", "jump-target": "input" }),
    rule("*3", { chain: "a", action: "jump", "jump-target": "a" }),
  ];
  assert.equal(walkChain(loop, "filter", "input", SYN, FACTS).decider, undefined);
});

Deno.test("walkChain: each table's actions (raw, NAT, mangle)", () => {
  const raw = [
    rule("*1", { chain: "prerouting", action: "notrack", protocol: "tcp" }),
    rule("*2", { chain: "prerouting", action: "drop", "dst-port": "22", protocol: "tcp" }),
  ];
  assert.equal(walkChain(raw, "raw", "prerouting", SYN, FACTS).decider?.effect, "drop");
  const nat = [
    rule("*1", { chain: "dstnat", action: "dst-nat", protocol: "tcp", "dst-port": "8080" }),
    rule("*2", {
      chain: "dstnat",
      action: "redirect",
      protocol: "tcp",
      "dst-port": "22",
      "to-ports": "2222",
    }),
  ];
  const n = walkChain(nat, "nat", "dstnat", SYN, FACTS);
  assert.equal(n.decider?.rule[".id"], "*2");
  assert.equal(n.decider?.effect, "translate");
  const accepted = [
    rule("*0", { chain: "dstnat", action: "accept", "src-address": "10.0.0.5" }),
    ...nat,
  ];
  assert.equal(walkChain(accepted, "nat", "dstnat", SYN, FACTS).decider?.effect, "accept");
  const reply: Flow = {
    ...SYN,
    srcAddress: "10.0.0.1",
    dstAddress: "10.0.0.5",
    srcPort: 22,
    dstPort: { from: 1024, to: 65535 },
    inInterface: null,
    outInterface: "ether1",
    connectionState: "established",
  };
  const mangle = [
    rule("*1", {
      chain: "output",
      action: "mark-routing",
      "new-routing-mark": "isp2",
      "dst-address": "10.0.0.0/24",
    }),
    rule("*2", {
      chain: "output",
      action: "mark-packet",
      "new-packet-mark": "p",
      passthrough: "false",
    }),
    rule("*3", { chain: "output", action: "route", "route-dst": "192.0.2.1" }),
  ];
  const m = walkChain(mangle, "mangle", "output", reply, FACTS);
  assert.deepEqual(ids(m.hits), ["*1", "*2"]);
  assert.equal(m.hits[0].effect, "reroute");
  assert.equal(m.decider?.effect, "stop");
});

Deno.test("interface lists: members, include and exclude, built-in lists, cycles", () => {
  const lists = interfaceListMembers(
    [
      { name: "LAN" },
      { name: "WAN" },
      { name: "ALL-UPLINKS", include: "WAN,LTE", exclude: "" },
      { name: "NOT-LTE", include: "all", exclude: "LTE" },
      { name: "LOOP-A", include: "LOOP-B" },
      { name: "LOOP-B", include: "LOOP-A" },
      { name: "LTE" },
    ],
    [
      { list: "LAN", interface: "bridge" },
      { list: "WAN", interface: "ether1" },
      { list: "LTE", interface: "lte1" },
      { list: "LAN", interface: "ether5", disabled: "true" },
    ],
    [
      { name: "ether1" },
      { name: "bridge" },
      { name: "lte1", dynamic: "false" },
      { name: "pppoe-out1", dynamic: "true" },
    ],
  );
  assert.deepEqual([...lists.get("LAN")!], ["bridge"]);
  assert.deepEqual([...lists.get("ALL-UPLINKS")!].sort(), ["ether1", "lte1"]);
  assert.deepEqual([...lists.get("NOT-LTE")!].sort(), ["bridge", "ether1", "pppoe-out1"]);
  assert.deepEqual([...lists.get("dynamic")!], ["pppoe-out1"]);
  assert.deepEqual([...lists.get("none")!], []);
  assert.equal(lists.has("LOOP-A"), false, "a cycle stays unknown");
  assert.equal(
    interfaceListMembers([], [], undefined).has("all"),
    false,
    "all needs the interfaces",
  );
});

Deno.test("addressInSpec: addresses, prefixes and ranges of both families; undefined for names", () => {
  assert.equal(addressInSpec("10.0.0.0/8", "10.1.2.3"), true);
  assert.equal(addressInSpec("10.0.0.5-10.0.0.9", "10.0.0.9"), true);
  assert.equal(addressInSpec("10.0.0.5-10.0.0.9", "10.0.0.10"), false);
  assert.equal(addressInSpec("2001:db8::1-2001:db8::9", "2001:db8::5"), true);
  assert.equal(addressInSpec("10.0.0.5-2001:db8::9", "10.0.0.6"), undefined);
  assert.equal(addressInSpec("10.0.0.0/8", "2001:db8::1"), false);
  assert.equal(addressInSpec("example.com", "10.0.0.1"), undefined);
  assert.equal(addressInSpec("10.0.0.0/33", "10.0.0.1"), undefined);
  assert.equal(addressInSpec("10.0.0.1", "not an address"), undefined);
});

/** Rules of a `print` listing (`N X ;;; comment` then `key=value` lines), flag X as disabled. */
function printedRules(text: string): FirewallRule[] {
  const rules: Record<string, string>[] = [];
  for (const line of text.split("\n")) {
    if (/^Flags:|^\d\d:\d\d:\d\d echo:/.test(line)) continue;
    const start = /^\s*(\d+)\s+(X\s+)?(.*)$/.exec(line);
    const pairs = start ? start[3] : /^\s+\S+=/.test(line) ? line : "";
    if (start) {
      rules.push({ ".id": `*${Number(start[1]) + 1}`, ...(start[2] ? { disabled: "true" } : {}) });
    }
    if (pairs.startsWith(";;;") || !rules.length) continue;
    for (const m of pairs.matchAll(/([a-z0-9-]+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
      rules[rules.length - 1][m[1]] = m[2].replace(/^"(.*)"$/, "$1");
    }
  }
  return rules;
}

Deno.test("walkChain on a real RouterOS 6 filter table (defconf plus site rules)", () => {
  if (!realOutputAvailable()) return;
  const { blocks } = capture("print-firewall-filter-all-v6.txt");
  const rules = printedRules(blocks[0]);
  assert.equal(rules.length, 23);
  assert.equal(rules[13].disabled, "true");
  assert.equal(rules[7]["dst-port"], "4430,22,8291");
  const facts: RouterFacts = {
    ...FACTS,
    addressLists: new Map([["Supervision", ["203.0.113.0/24"]], ["Eqinoxe", []]]),
  };
  const from = (src: string, iface: string): Flow => ({
    ...SYN,
    srcAddress: src,
    dstAddress: "192.168.88.1",
    inInterface: iface,
  });
  // From the LAN nothing drops it: the packet leaves input at its end, accepted.
  const lan = walkChain(rules, "filter", "input", from("192.168.88.10", "bridge"), facts);
  assert.equal(lan.decider, undefined, JSON.stringify(lan.decider?.rule));
  // From the WAN, the supervision hosts are accepted (rule 7), others dropped (rule 10).
  const sup = walkChain(rules, "filter", "input", from("203.0.113.5", "ether1"), facts);
  assert.equal(sup.decider?.index, 7);
  const wan = walkChain(rules, "filter", "input", from("198.51.100.20", "ether1"), facts);
  assert.equal(wan.decider?.index, 10);
  assert.equal(wan.decider?.rule["in-interface-list"], "!LAN");
});

Deno.test("the matcher knows every argument of the rule tables' add in every real command tree", () => {
  if (!treesAvailable()) return;
  const tables = ["filter", "nat", "mangle", "raw"].flatMap((
    t,
  ) => [`/ip/firewall/${t}`, `/ipv6/firewall/${t}`]);
  const unheard: string[] = [];
  const undecidable = new Set<string>();
  for (const tree of trees()) {
    for (const path of tables) {
      for (const arg of argsOf(tree, path, "add") ?? []) {
        const kind = matcherKind(arg);
        if (kind === "unheard-of") unheard.push(`${tree.release.text} ${path} ${arg}`);
        if (kind === "undecidable") undecidable.add(arg);
      }
    }
  }
  assert.deepEqual(unheard, []);
  console.log(`left unknown by nature: ${[...undecidable].sort().join(" ")}`);
});
