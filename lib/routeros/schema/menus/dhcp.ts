/**
 * Schema of the dhcp menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import {
  bool,
  duration,
  int,
  ipv4,
  ipv4Prefix,
  list,
  mac,
  oneOf,
  ref,
  scriptText,
  state,
  text,
} from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/ip/dhcp-server`. */
export const dhcpServers = menu({
  path: "/ip/dhcp-server",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    name: text("Server name, e.g. dhcp-lan (RouterOS picks dhcpN when not given)"),
    interface: ref("/interface", "Interface it serves, e.g. bridge", { required: true }),
    "address-pool": text(
      "Pool to lease addresses from (router_list_ip_pools), or static-only for static leases only",
    ),
    "lease-time": duration("Lease duration, e.g. 30m or 1d"),
    authoritative: oneOf(
      ["after-10sec-delay", "after-2sec-delay", "no", "yes"],
      "Answer clients whose leases it does not know (yes: right away)",
    ),
    "add-arp": bool("Add static ARP entries for leases (pair with arp=reply-only)"),
    "always-broadcast": bool("Always broadcast replies"),
    "conflict-detection": bool("Ping an address before offering it"),
    "lease-script": scriptText("Script run when a lease is bound or released"),
    relay: text("Address of the DHCP relay this server answers through (0.0.0.0: none)"),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/ip/dhcp-server/network`. */
export const dhcpNetworks = menu({
  path: "/ip/dhcp-server/network",
  kind: "list",
  writes: ["add", "set", "remove"],
  flags: {},
  fields: {
    address: ipv4Prefix("Subnet in CIDR form, e.g. 192.168.88.0/24", { required: true }),
    gateway: ipv4("Default gateway handed out, e.g. 192.168.88.1"),
    netmask: int("Prefix length handed out (0: from address)", { min: 0, max: 32 }),
    "dns-server": list('DNS servers handed out, e.g. ["192.168.88.1"]', { item: "ipv4" }),
    domain: text("DNS domain handed out, e.g. lan"),
    "ntp-server": list("NTP servers handed out", { item: "address" }),
    "wins-server": list("WINS servers handed out"),
    "dhcp-option": list("Extra DHCP options (names from /ip dhcp-server option)"),
    "next-server": ipv4("TFTP server address for network boot"),
    "boot-file-name": text("Boot file name for network boot"),
    comment: comment(),
  },
});

/** `/ip/dhcp-server/lease`. */
export const dhcpLeases = menu({
  path: "/ip/dhcp-server/lease",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic", "B": "blocked" },
  fields: {
    address: text("Leased IPv4 address, or a pool name to pick from", { required: true }),
    "mac-address": mac("Client MAC address, e.g. 02:00:00:00:00:01"),
    "client-id": text("DHCP client id, when matching on it instead of the MAC address"),
    server: text("DHCP server the lease belongs to, or all"),
    "lease-time": duration("Lease duration for this client, e.g. 1d (0s: the server's)"),
    "address-lists": list("Firewall address lists the client's address joins while bound"),
    "rate-limit": text("Simple-queue limit for the client, e.g. 10M/10M"),
    "always-broadcast": bool("Always broadcast replies to this client"),
    "block-access": bool("Do not answer this client"),
    "use-src-mac": bool("Use the source MAC address instead of the DHCP chaddr"),
    status: state(text("waiting, offered, bound, busy...")),
    "host-name": state(text("Host name the client sent")),
    "active-address": state(ipv4("Address the client holds now")),
    "active-mac-address": state(mac("MAC address of the active lease")),
    "active-server": state(text("Server that handed out the active lease")),
    "expires-after": state(duration("Time left on the active lease")),
    "last-seen": state(duration("Time since the client was last seen")),
    blocked: state(bool("Whether the lease is blocked")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const DHCP_SCHEMAS: readonly MenuSchema[] = [
  dhcpServers,
  dhcpNetworks,
  dhcpLeases,
];
