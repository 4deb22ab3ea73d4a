/**
 * Firewall menus: IPv4 filter, NAT, mangle and raw rules, address lists,
 * and the IPv6 filter and address lists.
 *
 * @module
 */
import { type Field, flag, list, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, counters, disabled, dynamic, FLAGS_XD, FLAGS_XID, invalid } from "./common.ts";

const ORDER = "Rules are evaluated top to bottom within their chain and the first rule whose " +
  "action is final (accept, drop, reject...) decides; add puts a rule at the end, so use the " +
  "move tool to place it. Every matcher given must match. Prefix a value with ! to negate it " +
  '(in_interface "!ether1"). Dropping input traffic from your own management address cuts ' +
  "your access.";

const CONNECTION_STATES = "established, related, new, invalid, untracked";

/** Matchers common to every rule table. */
function matchers(family: "ip" | "ipv6"): Record<string, Field> {
  const example = family === "ip" ? "192.168.88.0/24" : "2001:db8::/64";
  return {
    "src-address": text(`Source address or prefix, e.g. ${example}`),
    "dst-address": text(`Destination address or prefix, e.g. ${example}`),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": text("Source ports (tcp/udp), e.g. 1024-65535 or 80,443"),
    "dst-port": text("Destination ports (tcp/udp), e.g. 22 or 80,443"),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "connection-state": list(`Connection tracking states: ${CONNECTION_STATES}`),
    "connection-mark": text("Connection mark set by mangle"),
    "packet-mark": text("Packet mark set by mangle"),
    "tcp-flags": text("TCP flags, e.g. syn,!ack"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: flag("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": text("How long added addresses stay, e.g. 1d, or none-dynamic"),
  };
}

const RULE_STATE = {
  ...counters(),
  disabled: disabled(),
  dynamic: dynamic(),
  invalid: invalid(),
  comment: comment(),
};

const RULE_VERBS = ["list", "get", "add", "update", "remove", "enable", "disable", "move"] as const;
const RULE_COLUMNS = [
  "chain",
  "action",
  "src-address",
  "dst-address",
  "protocol",
  "dst-port",
  "in-interface",
  "disabled",
  "comment",
];

const FILTER_ACTIONS = [
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
] as const;

/** `/ip/firewall/filter`: IPv4 packet filter rules. */
export const firewallFilter: Menu = {
  path: "/ip/firewall/filter",
  toolset: "firewall",
  singular: "firewall_filter_rule",
  plural: "firewall_filter_rules",
  noun: "IPv4 firewall filter rules",
  notes: "Chains: input (to the router), forward (through it), output (from it), or custom " +
    "chains reached by jump. " + ORDER,
  fields: {
    chain: text("Chain: input, forward, output, or a custom chain name", { required: true }),
    action: oneOf(FILTER_ACTIONS, "What to do with matching packets (default accept)"),
    ...matchers("ip"),
    "reject-with": text(
      "ICMP error sent by action reject, e.g. icmp-network-unreachable or tcp-reset",
    ),
    "hw-offload": flag("Offload fasttracked connections to hardware", { versions: { min: "7.0" } }),
    ...RULE_STATE,
  },
  verbs: RULE_VERBS,
  columns: RULE_COLUMNS,
  flags: FLAGS_XID,
  example: {
    add: {
      chain: "forward",
      action: "drop",
      src_address: "10.99.8.0/24",
      protocol: "tcp",
      dst_port: "23",
      comment: "example",
    },
    update: { action: "reject", reject_with: "tcp-reset" },
  },
};

/** `/ip/firewall/nat`: IPv4 address translation rules. */
export const firewallNat: Menu = {
  path: "/ip/firewall/nat",
  toolset: "firewall",
  singular: "firewall_nat_rule",
  plural: "firewall_nat_rules",
  noun: "IPv4 NAT rules",
  notes: "Chains: srcnat (outgoing: masquerade, src-nat) and dstnat (incoming: dst-nat port " +
    "forwards, redirect). Only the first packet of a connection passes NAT. " + ORDER,
  fields: {
    chain: text("Chain: srcnat, dstnat, or a custom chain name", { required: true }),
    action: oneOf(
      [
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
      ],
      "Translation to apply (default accept: leave the packet untranslated)",
    ),
    ...matchers("ip"),
    "to-addresses": text("New address or range (src-nat, dst-nat, netmap)"),
    "to-ports": text("New port or range (src-nat, dst-nat, redirect, masquerade)"),
    ...RULE_STATE,
  },
  verbs: RULE_VERBS,
  columns: [...RULE_COLUMNS.slice(0, 7), "to-addresses", "to-ports", "disabled", "comment"],
  flags: FLAGS_XID,
  example: {
    add: {
      chain: "dstnat",
      action: "dst-nat",
      protocol: "tcp",
      dst_port: "8080",
      to_addresses: "192.168.88.10",
      to_ports: "80",
      comment: "example",
    },
    update: { to_ports: "8081" },
  },
};

/** `/ip/firewall/mangle`: IPv4 packet marking rules. */
export const firewallMangle: Menu = {
  path: "/ip/firewall/mangle",
  toolset: "firewall",
  singular: "firewall_mangle_rule",
  plural: "firewall_mangle_rules",
  noun: "IPv4 mangle rules",
  notes: "Chains: prerouting, input, forward, output, postrouting. Marks (connection, packet, " +
    "routing) feed queues, routing tables and other rules; passthrough=false stops " +
    "evaluation after a match. " + ORDER,
  fields: {
    chain: text("Chain: prerouting, input, forward, output, postrouting or custom", {
      required: true,
    }),
    action: oneOf(
      [
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
      "What to do with matching packets",
    ),
    ...matchers("ip"),
    "new-connection-mark": text("Mark set by mark-connection"),
    "new-packet-mark": text("Mark set by mark-packet"),
    "new-routing-mark": text("Routing table (v7) or mark (v6) set by mark-routing"),
    "new-mss": text("MSS set by change-mss, e.g. clamp-to-pmtu or 1400"),
    "new-dscp": text("DSCP value set by change-dscp, 0-63"),
    passthrough: flag("Continue with the next rule after this one matched"),
    ...RULE_STATE,
  },
  verbs: RULE_VERBS,
  columns: [
    ...RULE_COLUMNS.slice(0, 4),
    "new-connection-mark",
    "new-packet-mark",
    "disabled",
    "comment",
  ],
  flags: FLAGS_XID,
  example: {
    add: {
      chain: "prerouting",
      action: "mark-connection",
      src_address: "10.99.9.0/24",
      new_connection_mark: "example-conn",
      passthrough: true,
      comment: "example",
    },
    update: { new_connection_mark: "changed-conn" },
  },
};

/** `/ip/firewall/raw`: IPv4 rules applied before connection tracking. */
export const firewallRaw: Menu = {
  path: "/ip/firewall/raw",
  toolset: "firewall",
  singular: "firewall_raw_rule",
  plural: "firewall_raw_rules",
  noun: "IPv4 raw firewall rules",
  notes: "Chains: prerouting and output. Evaluated before connection tracking, so " +
    "connection_state does not apply; notrack exempts packets from tracking. Cheap way to " +
    "drop floods. " + ORDER,
  fields: {
    chain: text("Chain: prerouting, output, or a custom chain name", { required: true }),
    action: oneOf(
      [
        "accept",
        "drop",
        "notrack",
        "jump",
        "return",
        "log",
        "passthrough",
        "add-src-to-address-list",
        "add-dst-to-address-list",
      ],
      "What to do with matching packets (default accept)",
    ),
    ...matchers("ip"),
    ...RULE_STATE,
  },
  verbs: RULE_VERBS,
  columns: RULE_COLUMNS,
  flags: FLAGS_XID,
  example: {
    add: { chain: "prerouting", action: "drop", src_address: "10.99.10.0/24", comment: "example" },
    update: { action: "notrack" },
  },
};

/** An address-list menu of one family. */
function addressList(family: "ip" | "ipv6"): Menu {
  const v6 = family === "ipv6";
  return {
    path: `/${family}/firewall/address-list`,
    toolset: "firewall",
    singular: v6 ? "ipv6_firewall_address_list_entry" : "firewall_address_list_entry",
    plural: v6 ? "ipv6_firewall_address_list_entries" : "firewall_address_list_entries",
    noun: v6 ? "IPv6 firewall address list entries" : "IPv4 firewall address list entries",
    notes: "A list is the set of entries sharing a list name; rules match it with " +
      "src_address_list or dst_address_list. An entry with a timeout is dynamic and " +
      "disappears when it runs out.",
    fields: {
      list: text("Name of the list, e.g. blocked", { required: true }),
      address: text(
        v6
          ? "IPv6 address or prefix, e.g. 2001:db8::/64"
          : "IPv4 address, prefix, range or DNS name, e.g. 203.0.113.0/24",
        { required: true },
      ),
      timeout: text("How long the entry lives, e.g. 1d (none: permanent)"),
      "creation-time": state(text("When the entry was added")),
      disabled: disabled(),
      dynamic: dynamic(),
      comment: comment(),
    },
    verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
    columns: ["list", "address", "timeout", "creation-time", "disabled", "comment"],
    flags: FLAGS_XD,
    example: {
      add: {
        list: "example-list",
        address: v6 ? "2001:db8:98::/64" : "203.0.113.7",
        comment: "example",
      },
      update: { comment: "changed" },
    },
  };
}

/** `/ip/firewall/address-list`. */
export const firewallAddressList: Menu = addressList("ip");

/** `/ipv6/firewall/filter`: IPv6 packet filter rules. */
export const ipv6FirewallFilter: Menu = {
  path: "/ipv6/firewall/filter",
  toolset: "firewall",
  singular: "ipv6_firewall_filter_rule",
  plural: "ipv6_firewall_filter_rules",
  noun: "IPv6 firewall filter rules",
  notes: "Chains: input, forward, output, or custom chains reached by jump. Do not drop " +
    "icmpv6 wholesale: neighbour discovery needs it. " + ORDER,
  fields: {
    chain: text("Chain: input, forward, output, or a custom chain name", { required: true }),
    action: oneOf(
      [
        "accept",
        "drop",
        "reject",
        "jump",
        "return",
        "log",
        "passthrough",
        "add-src-to-address-list",
        "add-dst-to-address-list",
      ],
      "What to do with matching packets (default accept)",
    ),
    ...matchers("ipv6"),
    "reject-with": text(
      "ICMPv6 error sent by action reject, e.g. icmp-admin-prohibited or tcp-reset",
    ),
    ...RULE_STATE,
  },
  verbs: RULE_VERBS,
  columns: RULE_COLUMNS,
  flags: FLAGS_XID,
  example: {
    add: {
      chain: "forward",
      action: "drop",
      src_address: "2001:db8:97::/64",
      comment: "example",
    },
    update: { action: "reject" },
  },
};

/** `/ipv6/firewall/address-list`. */
export const ipv6FirewallAddressList: Menu = addressList("ipv6");
