/**
 * What the firewall rule tables share (`/ip/firewall/filter|nat|mangle|raw`,
 * `/ipv6/firewall/filter|nat|mangle|raw`): writes, flags, the matchers and
 * what every rule reports and keeps. Each table takes the matchers its
 * release trees show (`omit` leaves out the others) and adds its own chain,
 * actions and action arguments.
 *
 * @module
 */
import { address, bool, duration, type Field, list, ports, text } from "../field.ts";
import { comment, counters, disabled, dynamic, invalid } from "../common.ts";

/** The writes of every rule table. */
export const RULE_WRITES = ["add", "set", "remove", "enable", "disable", "move"] as const;

/** The flags of every rule table. */
export const RULE_FLAGS = { "X": "disabled", "I": "invalid", "D": "dynamic" };

/** The chain of a table whose built-in chains are `chains`. */
export function chain(chains: string): Field {
  return text(`Chain: ${chains}, or a custom chain name`, { required: true });
}

/** The matchers of a rule table of `family`, without the ones in `omit`. */
export function matchers(
  family: "ipv4" | "ipv6",
  omit: readonly string[] = [],
): Record<string, Field> {
  const e = family === "ipv4" ? "192.168.88.0/24" : "2001:db8::/64";
  const all: Record<string, Field> = {
    "src-address": address(`Source address or prefix, e.g. ${e}`, { negatable: true, family }),
    "dst-address": address(`Destination address or prefix, e.g. ${e}`, {
      negatable: true,
      family,
    }),
    "src-address-list": text("Source must be in this firewall address list"),
    "dst-address-list": text("Destination must be in this firewall address list"),
    protocol: text(
      `IP protocol name or number, e.g. tcp, udp, ${family === "ipv4" ? "icmp" : "icmpv6"}, 47`,
    ),
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
  };
  for (const name of omit) {
    if (!(name in all)) throw new Error(`rule matchers: no matcher ${name} to leave out`);
    delete all[name];
  }
  return all;
}

/** What every rule reports and keeps. */
export function ruleState(): Record<string, Field> {
  return {
    ...counters(),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  };
}
