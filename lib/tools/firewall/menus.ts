/**
 * Tools of the firewall menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/firewall.ts.
 *
 * @module
 */
import {
  firewallAddressList,
  firewallFilter,
  firewallMangle,
  firewallNat,
  firewallRaw,
  ipv6FirewallAddressList,
  ipv6FirewallFilter,
} from "../../routeros/schema/menus/firewall.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { firewallLockout } from "../guard/lockout_firewall.ts";
import { addressListLockout } from "../guard/lockout_lists.ts";

/** What every rule menu's notes end with: order, matching, negation, and the lock-out risk. */

/** The verbs of every rule table's tools. */
export const RULE_VERBS = [
  "list",
  "get",
  "add",
  "update",
  "remove",
  "enable",
  "disable",
  "move",
] as const;

/** A rule table's columns: what a rule matches, then `extra`, then its state. */
export function ruleColumns(...extra: string[]): string[] {
  return [
    "chain",
    "action",
    "src-address",
    "dst-address",
    "protocol",
    "dst-port",
    "in-interface",
    ...extra,
    "disabled",
    "comment",
  ];
}

/** A mangle table's columns: the marks it sets instead of ports and interfaces. */
export const MANGLE_COLUMNS = [
  "chain",
  "action",
  "src-address",
  "dst-address",
  "new-connection-mark",
  "new-packet-mark",
  "disabled",
  "comment",
];

const RULES =
  " Rules run top to bottom within their chain; the first final action (accept, drop, " +
  "reject...) decides. add appends a rule: place it with the move tool. Every matcher given " +
  'must match; prefix a value with ! to negate it (in_interface "!ether1"). Dropping input ' +
  "traffic from your own management address cuts your access.";

/** `/ip/firewall/filter`. */
const firewallFilterTools: MenuTools = {
  schema: firewallFilter,
  toolset: "firewall",
  noun: noun("firewall_filter_rule", "IPv4 firewall filter rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns(),
  notes:
    "Chains: input (to the router), forward (through it), output (from it), or custom chains reached by jump." +
    RULES,
  example: {
    "add": {
      "chain": "forward",
      "action": "drop",
      "src_address": "10.99.8.0/24",
      "protocol": "tcp",
      "dst_port": "23",
      "comment": "example",
    },
    "update": { "action": "reject", "reject_with": "tcp-reset" },
  },
  lockout: firewallLockout(firewallFilter, "filter"),
};

/** `/ip/firewall/nat`. */
const firewallNatTools: MenuTools = {
  schema: firewallNat,
  toolset: "firewall",
  noun: noun("firewall_nat_rule", "IPv4 NAT rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns("to-addresses", "to-ports"),
  notes:
    "Chains: srcnat (outgoing: masquerade, src-nat) and dstnat (incoming: dst-nat port forwards, redirect). Only the first packet of a connection passes NAT." +
    RULES,
  example: {
    "add": {
      "chain": "dstnat",
      "action": "dst-nat",
      "protocol": "tcp",
      "dst_port": "8080",
      "to_addresses": "192.168.88.10",
      "to_ports": "80",
      "comment": "example",
    },
    "update": { "to_ports": "8081" },
  },
  lockout: firewallLockout(firewallNat, "nat"),
};

/** `/ip/firewall/mangle`. */
const firewallMangleTools: MenuTools = {
  schema: firewallMangle,
  toolset: "firewall",
  noun: noun("firewall_mangle_rule", "IPv4 mangle rule"),
  verbs: RULE_VERBS,
  columns: MANGLE_COLUMNS,
  notes:
    "Chains: prerouting, input, forward, output, postrouting. Marks (connection, packet, routing) feed queues, routing tables and other rules; passthrough=false stops evaluation after a match." +
    RULES,
  example: {
    "add": {
      "chain": "prerouting",
      "action": "mark-connection",
      "src_address": "10.99.9.0/24",
      "new_connection_mark": "example-conn",
      "passthrough": true,
      "comment": "example",
    },
    "update": { "new_connection_mark": "changed-conn" },
  },
  lockout: firewallLockout(firewallMangle, "mangle"),
};

/** `/ip/firewall/raw`. */
const firewallRawTools: MenuTools = {
  schema: firewallRaw,
  toolset: "firewall",
  noun: noun("firewall_raw_rule", "IPv4 raw firewall rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns(),
  notes:
    "Chains: prerouting and output. Evaluated before connection tracking, so connection_state does not apply; notrack exempts packets from tracking. Cheap way to drop floods." +
    RULES,
  example: {
    "add": {
      "chain": "prerouting",
      "action": "drop",
      "src_address": "10.99.10.0/24",
      "comment": "example",
    },
    "update": { "action": "notrack" },
  },
  lockout: firewallLockout(firewallRaw, "raw"),
};

/**
 * An address list's tools: `/ip/firewall/address-list` (4) and
 * `/ipv6/firewall/address-list` (6) differ only in their schema, noun and
 * example address.
 */
function addressListTools(
  schema: MenuTools["schema"],
  family: 4 | 6,
  exampleAddress: string,
): MenuTools {
  return {
    schema,
    toolset: "firewall",
    noun: noun(
      `${family === 4 ? "" : "ipv6_"}firewall_address_list_entry`,
      `IPv${family} firewall address list entry`,
    ),
    verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
    columns: ["list", "address", "timeout", "creation-time", "disabled", "comment"],
    notes:
      "A list is the set of entries sharing a list name; rules match it with src_address_list or dst_address_list. An entry with a timeout is dynamic and disappears when it runs out.",
    example: {
      "add": { "list": "example-list", "address": exampleAddress, "comment": "example" },
      "update": { "comment": "changed" },
    },
    lockout: addressListLockout(family),
  };
}

/** `/ip/firewall/address-list`. */
const firewallAddressListTools = addressListTools(firewallAddressList, 4, "203.0.113.7");

/** `/ipv6/firewall/filter`. */
const ipv6FirewallFilterTools: MenuTools = {
  schema: ipv6FirewallFilter,
  toolset: "firewall",
  noun: noun("ipv6_firewall_filter_rule", "IPv6 firewall filter rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns(),
  notes:
    "Chains: input, forward, output, or custom chains reached by jump. Do not drop icmpv6 wholesale: neighbour discovery needs it." +
    RULES,
  example: {
    "add": {
      "chain": "forward",
      "action": "drop",
      "src_address": "2001:db8:97::/64",
      "comment": "example",
    },
    "update": { "action": "reject" },
  },
  lockout: firewallLockout(ipv6FirewallFilter, "filter"),
};

/** `/ipv6/firewall/address-list`. */
const ipv6FirewallAddressListTools = addressListTools(
  ipv6FirewallAddressList,
  6,
  "2001:db8:98::/64",
);

/** The menus of this family, in catalogue order. */
export const FIREWALL_MENU_TOOLS: readonly MenuTools[] = [
  firewallFilterTools,
  firewallNatTools,
  firewallMangleTools,
  firewallRawTools,
  firewallAddressListTools,
  ipv6FirewallFilterTools,
  ipv6FirewallAddressListTools,
];
