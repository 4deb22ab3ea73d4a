/**
 * Tools of the IPv6 NAT, mangle and raw tables (the firewall toolset; the
 * IPv6 filter and address lists are in menus.ts with their IPv4
 * counterparts): names, verbs, columns, notes and examples. The RouterOS
 * facts are in lib/routeros/schema/menus/ipv6_firewall.ts.
 *
 * @module
 */
import {
  ipv6FirewallMangle,
  ipv6FirewallNat,
  ipv6FirewallRaw,
} from "../../routeros/schema/menus/ipv6_firewall.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";
import { firewallLockout } from "../guard/lockout_firewall.ts";
import { MANGLE_COLUMNS, RULE_VERBS, ruleColumns } from "./menus.ts";

/** `/ipv6/firewall/nat`. */
const ipv6FirewallNatTools: MenuTools = {
  schema: ipv6FirewallNat,
  toolset: "firewall",
  noun: noun("ipv6_firewall_nat_rule", "IPv6 NAT rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns("to-address"),
  lockout: firewallLockout(ipv6FirewallNat, "nat"),
  notes:
    "IPv6 NAT (RouterOS 7), rarely needed: global addresses route end to end. Rules are checked in order; netmap maps one prefix onto another.",
  example: {
    "add": {
      "chain": "srcnat",
      "action": "masquerade",
      "out_interface": "ether1",
      "comment": "example",
    },
    "update": { "log": true },
  },
};

/** `/ipv6/firewall/mangle`. */
const ipv6FirewallMangleTools: MenuTools = {
  schema: ipv6FirewallMangle,
  toolset: "firewall",
  noun: noun("ipv6_firewall_mangle_rule", "IPv6 mangle rule"),
  verbs: RULE_VERBS,
  columns: MANGLE_COLUMNS,
  lockout: firewallLockout(ipv6FirewallMangle, "mangle"),
  notes:
    "Marks IPv6 connections, packets and routing; marks are matched by filter rules and queues. passthrough=false stops at this rule.",
  example: {
    "add": {
      "chain": "prerouting",
      "action": "mark-connection",
      "new_connection_mark": "example-conn6",
      "passthrough": true,
      "comment": "example",
    },
    "update": { "protocol": "tcp" },
  },
};

/** `/ipv6/firewall/raw`. */
const ipv6FirewallRawTools: MenuTools = {
  schema: ipv6FirewallRaw,
  toolset: "firewall",
  noun: noun("ipv6_firewall_raw_rule", "IPv6 raw firewall rule"),
  verbs: RULE_VERBS,
  columns: ruleColumns(),
  lockout: firewallLockout(ipv6FirewallRaw, "raw"),
  notes:
    "IPv6 rules before connection tracking: drop floods cheaply, or notrack traffic that needs no state.",
  example: {
    "add": {
      "chain": "prerouting",
      "action": "notrack",
      "dst_address": "2001:db8:97::/64",
      "comment": "example",
    },
    "update": { "log": true },
  },
};

/** The IPv6 NAT, mangle and raw tables, in catalogue order (after the ipv6 toolset's menus). */
export const IPV6_FIREWALL_MENU_TOOLS: readonly MenuTools[] = [
  ipv6FirewallNatTools,
  ipv6FirewallMangleTools,
  ipv6FirewallRawTools,
];
