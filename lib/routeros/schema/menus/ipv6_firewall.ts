/**
 * Schema of the IPv6 NAT, mangle and raw firewall tables (the filter and
 * address lists are in firewall.ts). RouterOS facts only; tools live in
 * lib/tools.
 *
 * @module
 */
import { address, bool, type Field, list, oneOf, ports, text } from "../field.ts";
import { comment, counters, disabled, dynamic, invalid } from "../common.ts";
import { menu } from "../menu.ts";

const V7 = { from: "7.0" };
const WRITES = ["add", "set", "remove", "enable", "disable", "move"] as const;
const FLAGS = { "X": "disabled", "I": "invalid", "D": "dynamic" };

/** Matchers every IPv6 rule table has. */
function matchers(chains: string): Record<string, Field> {
  return {
    chain: text(`Chain: ${chains}, or a custom chain`, { required: true }),
    "src-address": address("Source prefix, e.g. 2001:db8::/64", {
      negatable: true,
      family: "ipv6",
    }),
    "dst-address": address("Destination prefix", { negatable: true, family: "ipv6" }),
    "src-address-list": text("Source in this address list"),
    "dst-address-list": text("Destination in this address list"),
    protocol: text("IP protocol, e.g. tcp, udp, icmpv6"),
    "src-port": ports("Source ports, e.g. 1024-65535", { negatable: true }),
    "dst-port": ports("Destination ports, e.g. 80,443", { negatable: true }),
    "in-interface": text("Incoming interface"),
    "out-interface": text("Outgoing interface"),
    "in-interface-list": text("Incoming interface list, e.g. WAN"),
    "out-interface-list": text("Outgoing interface list"),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
  };
}

/** What every rule table reports and keeps. */
const TAIL = (): Record<string, Field> => ({
  ...counters(),
  disabled: disabled(),
  dynamic: dynamic(),
  invalid: invalid(),
  comment: comment(),
});

/** `/ipv6/firewall/nat`. */
export const ipv6FirewallNat = menu({
  path: "/ipv6/firewall/nat",
  kind: "list",
  writes: WRITES,
  releases: V7,
  flags: FLAGS,
  fields: {
    ...matchers("srcnat, dstnat"),
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
    ...TAIL(),
  },
});

/** `/ipv6/firewall/mangle`. */
export const ipv6FirewallMangle = menu({
  path: "/ipv6/firewall/mangle",
  kind: "list",
  writes: WRITES,
  flags: FLAGS,
  fields: {
    ...matchers("prerouting, input, forward, output, postrouting"),
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
    "connection-state": list("Connection states: established, related, new, invalid"),
    "connection-mark": text("Connection mark to match"),
    "packet-mark": text("Packet mark to match"),
    "new-connection-mark": text("Mark set by mark-connection"),
    "new-packet-mark": text("Mark set by mark-packet"),
    "new-routing-mark": text("Routing table (v7) or mark (v6) set by mark-routing"),
    passthrough: bool("Continue with the next rule after a match"),
    ...TAIL(),
  },
});

/** `/ipv6/firewall/raw`. */
export const ipv6FirewallRaw = menu({
  path: "/ipv6/firewall/raw",
  kind: "list",
  writes: WRITES,
  flags: FLAGS,
  fields: {
    ...matchers("prerouting, output"),
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
    ...TAIL(),
  },
});
