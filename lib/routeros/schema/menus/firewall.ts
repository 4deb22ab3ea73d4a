/**
 * Schema of the firewall menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { address, bool, duration, oneOf, ports, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";
import { chain, matchers, RULE_FLAGS, RULE_WRITES, ruleState } from "./rule_table.ts";

/** `/ip/firewall/filter`. */
export const firewallFilter = menu({
  path: "/ip/firewall/filter",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("input, forward, output"),
    action: oneOf([
      "accept",
      "drop",
      "reject",
      "jump",
      "return",
      "log",
      "passthrough",
      "add-src-to-address-list",
      "add-dst-to-address-list",
      "fasttrack-connection",
      "tarpit",
    ], "What to do with matching packets (default accept)"),
    ...matchers("ipv4"),
    "reject-with": text(
      "ICMP error sent by action reject, e.g. icmp-network-unreachable or tcp-reset",
    ),
    "hw-offload": bool("Offload fasttracked connections to hardware", {
      releases: { until: "7.20" },
    }),
    ...ruleState(),
  },
});

/** `/ip/firewall/nat`. */
export const firewallNat = menu({
  path: "/ip/firewall/nat",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("srcnat, dstnat"),
    action: oneOf([
      "accept",
      "masquerade",
      "src-nat",
      "dst-nat",
      "netmap",
      "redirect",
      "same",
      "jump",
      "return",
      "log",
      "passthrough",
      "endpoint-independent-nat",
      "add-src-to-address-list",
      "add-dst-to-address-list",
      "socksify",
    ], "Translation to apply (default accept: leave the packet untranslated)"),
    ...matchers("ipv4", ["connection-state", "tcp-flags"]),
    "to-addresses": address("New address or range (src-nat, dst-nat, netmap)", { family: "ipv4" }),
    "to-ports": ports("New port or range (src-nat, dst-nat, redirect, masquerade)"),
    ...ruleState(),
  },
});

/** `/ip/firewall/mangle`. */
export const firewallMangle = menu({
  path: "/ip/firewall/mangle",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("prerouting, input, forward, output, postrouting"),
    action: oneOf([
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
    ], "What to do with matching packets"),
    ...matchers("ipv4"),
    "new-connection-mark": text("Mark set by mark-connection"),
    "new-packet-mark": text("Mark set by mark-packet"),
    "new-routing-mark": text("Routing table (v7) or mark (v6) set by mark-routing"),
    "new-mss": text("MSS set by change-mss, e.g. clamp-to-pmtu or 1400"),
    "new-dscp": text("DSCP value set by change-dscp, 0-63"),
    passthrough: bool("Continue with the next rule after this one matched"),
    ...ruleState(),
  },
});

/** `/ip/firewall/raw`. */
export const firewallRaw = menu({
  path: "/ip/firewall/raw",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("prerouting, output"),
    action: oneOf([
      "accept",
      "drop",
      "notrack",
      "jump",
      "return",
      "log",
      "passthrough",
      "add-src-to-address-list",
      "add-dst-to-address-list",
    ], "What to do with matching packets (default accept)"),
    ...matchers("ipv4", ["connection-state", "connection-mark"]),
    ...ruleState(),
  },
});

/** `/ip/firewall/address-list`. */
export const firewallAddressList = menu({
  path: "/ip/firewall/address-list",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    list: text("Name of the list, e.g. blocked", { required: true }),
    address: text("IPv4 address, prefix, range or DNS name, e.g. 203.0.113.0/24", {
      required: true,
    }),
    timeout: duration("How long the entry lives, e.g. 1d (none: permanent)"),
    "creation-time": state(text("When the entry was added")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/ipv6/firewall/filter`. */
export const ipv6FirewallFilter = menu({
  path: "/ipv6/firewall/filter",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("input, forward, output"),
    action: oneOf([
      "accept",
      "drop",
      "reject",
      "jump",
      "return",
      "log",
      "passthrough",
      "add-src-to-address-list",
      "add-dst-to-address-list",
      "fasttrack-connection",
    ], "What to do with matching packets (default accept)"),
    ...matchers("ipv6"),
    "reject-with": text(
      "ICMPv6 error sent by action reject, e.g. icmp-admin-prohibited or tcp-reset",
    ),
    ...ruleState(),
  },
});

/** `/ipv6/firewall/address-list`. */
export const ipv6FirewallAddressList = menu({
  path: "/ipv6/firewall/address-list",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    list: text("Name of the list, e.g. blocked", { required: true }),
    address: address("IPv6 address or prefix, e.g. 2001:db8::/64", {
      required: true,
      family: "ipv6",
    }),
    timeout: duration("How long the entry lives, e.g. 1d (none: permanent)"),
    "creation-time": state(text("When the entry was added")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const FIREWALL_SCHEMAS: readonly MenuSchema[] = [
  firewallFilter,
  firewallNat,
  firewallMangle,
  firewallRaw,
  firewallAddressList,
  ipv6FirewallFilter,
  ipv6FirewallAddressList,
];
