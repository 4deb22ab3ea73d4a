/**
 * Schema of the IPv6 NAT, mangle and raw firewall tables (the filter and
 * address lists are in firewall.ts). RouterOS facts only; tools live in
 * lib/tools.
 *
 * @module
 */
import { address, bool, oneOf, ports, text } from "../field.ts";
import { menu, type MenuSchema } from "../menu.ts";
import { chain, matchers, RULE_FLAGS, RULE_WRITES, ruleState } from "./rule_table.ts";

const V7 = { from: "7.0" };
/** Matchers the IPv6 NAT and raw tables are declared without. */
const NOT_NAT_RAW = [
  "connection-state",
  "connection-mark",
  "packet-mark",
  "tcp-flags",
  "limit",
  "address-list",
  "address-list-timeout",
];
/** `/ipv6/firewall/nat`. */
export const ipv6FirewallNat = menu({
  path: "/ipv6/firewall/nat",
  kind: "list",
  writes: RULE_WRITES,
  releases: V7,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("srcnat, dstnat"),
    ...matchers("ipv6", NOT_NAT_RAW),
    action: oneOf([
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
      "src-nat",
    ], "Translation to apply (default accept: none)"),
    "to-address": address("New address or prefix (src-nat, dst-nat, netmap)", {
      family: "ipv6",
    }),
    "to-ports": ports("New port or range"),
    ...ruleState(),
  },
});

/** `/ipv6/firewall/mangle`. */
export const ipv6FirewallMangle = menu({
  path: "/ipv6/firewall/mangle",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("prerouting, input, forward, output, postrouting"),
    ...matchers("ipv6", ["tcp-flags", "limit", "address-list", "address-list-timeout"]),
    action: oneOf([
      "accept",
      "add-dst-to-address-list",
      "add-src-to-address-list",
      "change-dscp",
      "change-hop-limit",
      "change-mss",
      ["dnpt", V7],
      "jump",
      "log",
      "mark-connection",
      "mark-packet",
      "mark-routing",
      "passthrough",
      "return",
      "set-priority",
      "sniff-pc",
      "sniff-tzsp",
      ["snpt", V7],
    ], "What to do with matching packets"),
    "new-connection-mark": text("Mark set by mark-connection"),
    "new-packet-mark": text("Mark set by mark-packet"),
    "new-routing-mark": text("Routing table (v7) or mark (v6) set by mark-routing"),
    passthrough: bool("Continue with the next rule after a match"),
    ...ruleState(),
  },
});

/** `/ipv6/firewall/raw`. */
export const ipv6FirewallRaw = menu({
  path: "/ipv6/firewall/raw",
  kind: "list",
  writes: RULE_WRITES,
  flags: RULE_FLAGS,
  fields: {
    chain: chain("prerouting, output"),
    ...matchers("ipv6", NOT_NAT_RAW),
    action: oneOf([
      "accept",
      "add-dst-to-address-list",
      "add-src-to-address-list",
      "drop",
      "jump",
      "log",
      "notrack",
      "passthrough",
      "return",
    ], "What to do with matching packets (default accept)"),
    ...ruleState(),
  },
});

/** The menus of this family. */
export const IPV6_FIREWALL_SCHEMAS: readonly MenuSchema[] = [
  ipv6FirewallNat,
  ipv6FirewallMangle,
  ipv6FirewallRaw,
];
