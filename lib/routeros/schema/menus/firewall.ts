/**
 * Schema of the firewall menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { address, bool, duration, list, oneOf, ports, state, text } from "../field.ts";
import { comment, counters, disabled, dynamic, invalid } from "../common.ts";
import { menu } from "../menu.ts";

/** `/ip/firewall/filter`. */
export const firewallFilter = menu({
  path: "/ip/firewall/filter",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    chain: text("Chain: input, forward, output, or a custom chain name", { required: true }),
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
    "src-address": address("Source address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "dst-address": address("Destination address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": ports("Source ports (tcp/udp), e.g. 1024-65535 or 80,443", { negatable: true }),
    "dst-port": ports("Destination ports (tcp/udp), e.g. 22 or 80,443", { negatable: true }),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "connection-state": list(
      "Connection tracking states: established, related, new, invalid, untracked",
    ),
    "connection-mark": text("Connection mark set by mangle"),
    "packet-mark": text("Packet mark set by mangle"),
    "tcp-flags": text("TCP flags, e.g. syn,!ack"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": duration("How long added addresses stay, e.g. 1d, or none-dynamic", {
      words: ["none-dynamic", "none-static"],
    }),
    "reject-with": text(
      "ICMP error sent by action reject, e.g. icmp-network-unreachable or tcp-reset",
    ),
    "hw-offload": bool("Offload fasttracked connections to hardware", {
      releases: { until: "7.20" },
    }),
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/ip/firewall/nat`. */
export const firewallNat = menu({
  path: "/ip/firewall/nat",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    chain: text("Chain: srcnat, dstnat, or a custom chain name", { required: true }),
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
    "src-address": address("Source address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "dst-address": address("Destination address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": ports("Source ports (tcp/udp), e.g. 1024-65535 or 80,443", { negatable: true }),
    "dst-port": ports("Destination ports (tcp/udp), e.g. 22 or 80,443", { negatable: true }),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "connection-mark": text("Connection mark set by mangle"),
    "packet-mark": text("Packet mark set by mangle"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": duration("How long added addresses stay, e.g. 1d, or none-dynamic", {
      words: ["none-dynamic", "none-static"],
    }),
    "to-addresses": address("New address or range (src-nat, dst-nat, netmap)", { family: "ipv4" }),
    "to-ports": ports("New port or range (src-nat, dst-nat, redirect, masquerade)"),
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/ip/firewall/mangle`. */
export const firewallMangle = menu({
  path: "/ip/firewall/mangle",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    chain: text("Chain: prerouting, input, forward, output, postrouting or custom", {
      required: true,
    }),
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
    "src-address": address("Source address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "dst-address": address("Destination address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": ports("Source ports (tcp/udp), e.g. 1024-65535 or 80,443", { negatable: true }),
    "dst-port": ports("Destination ports (tcp/udp), e.g. 22 or 80,443", { negatable: true }),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "connection-state": list(
      "Connection tracking states: established, related, new, invalid, untracked",
    ),
    "connection-mark": text("Connection mark set by mangle"),
    "packet-mark": text("Packet mark set by mangle"),
    "tcp-flags": text("TCP flags, e.g. syn,!ack"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": duration("How long added addresses stay, e.g. 1d, or none-dynamic", {
      words: ["none-dynamic", "none-static"],
    }),
    "new-connection-mark": text("Mark set by mark-connection"),
    "new-packet-mark": text("Mark set by mark-packet"),
    "new-routing-mark": text("Routing table (v7) or mark (v6) set by mark-routing"),
    "new-mss": text("MSS set by change-mss, e.g. clamp-to-pmtu or 1400"),
    "new-dscp": text("DSCP value set by change-dscp, 0-63"),
    passthrough: bool("Continue with the next rule after this one matched"),
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/ip/firewall/raw`. */
export const firewallRaw = menu({
  path: "/ip/firewall/raw",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    chain: text("Chain: prerouting, output, or a custom chain name", { required: true }),
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
    "src-address": address("Source address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "dst-address": address("Destination address or prefix, e.g. 192.168.88.0/24", {
      negatable: true,
      family: "ipv4",
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": ports("Source ports (tcp/udp), e.g. 1024-65535 or 80,443", { negatable: true }),
    "dst-port": ports("Destination ports (tcp/udp), e.g. 22 or 80,443", { negatable: true }),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "packet-mark": text("Packet mark set by mangle"),
    "tcp-flags": text("TCP flags, e.g. syn,!ack"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": duration("How long added addresses stay, e.g. 1d, or none-dynamic", {
      words: ["none-dynamic", "none-static"],
    }),
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
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
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    chain: text("Chain: input, forward, output, or a custom chain name", { required: true }),
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
    "src-address": address("Source address or prefix, e.g. 2001:db8::/64", {
      negatable: true,
      family: "ipv6",
    }),
    "dst-address": address("Destination address or prefix, e.g. 2001:db8::/64", {
      negatable: true,
      family: "ipv6",
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text("IP protocol name or number, e.g. tcp, udp, icmp, 47"),
    "src-port": ports("Source ports (tcp/udp), e.g. 1024-65535 or 80,443", { negatable: true }),
    "dst-port": ports("Destination ports (tcp/udp), e.g. 22 or 80,443", { negatable: true }),
    "in-interface": text("Interface the packet came in on, e.g. ether1"),
    "out-interface": text("Interface the packet leaves on"),
    "in-interface-list": text("Interface list the packet came in on, e.g. WAN"),
    "out-interface-list": text("Interface list the packet leaves on"),
    "connection-state": list(
      "Connection tracking states: established, related, new, invalid, untracked",
    ),
    "connection-mark": text("Connection mark set by mangle"),
    "packet-mark": text("Packet mark set by mangle"),
    "tcp-flags": text("TCP flags, e.g. syn,!ack"),
    limit: text("Rate limit: count/time,burst, e.g. 10,5:packet", { filter: false }),
    "jump-target": text("Chain to jump to (action jump)"),
    log: bool("Log matching packets"),
    "log-prefix": text("Text prepended to log lines"),
    "address-list": text(
      "Address list the source or destination is added to (add-*-to-address-list)",
    ),
    "address-list-timeout": duration("How long added addresses stay, e.g. 1d, or none-dynamic", {
      words: ["none-dynamic", "none-static"],
    }),
    "reject-with": text(
      "ICMPv6 error sent by action reject, e.g. icmp-admin-prohibited or tcp-reset",
    ),
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
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
