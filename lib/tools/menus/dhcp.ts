/**
 * DHCP server menus: servers, networks and leases.
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_XID, invalid } from "./common.ts";

/** `/ip/dhcp-server`: DHCP servers, one per interface. */
export const dhcpServers: Menu = {
  path: "/ip/dhcp-server",
  toolset: "dhcp",
  singular: "dhcp_server",
  plural: "dhcp_servers",
  noun: "DHCP servers",
  notes: "A server needs an IP address on its interface and a matching DHCP network " +
    "(router_add_dhcp_network) for gateway and DNS options. Durations are RouterOS times " +
    "such as 30m, 1d or 1d12:00:00.",
  key: "name",
  fields: {
    name: text("Server name, e.g. dhcp-lan (RouterOS picks dhcpN when not given)"),
    interface: text("Interface it serves, e.g. bridge", { required: true, ref: "/interface" }),
    "address-pool": text(
      "Pool to lease addresses from (router_list_ip_pools), or static-only for static leases only",
    ),
    "lease-time": text("Lease duration, e.g. 30m or 1d"),
    authoritative: oneOf(
      ["after-10sec-delay", "after-2sec-delay", "no", "yes"],
      "Answer clients whose leases it does not know (yes: right away)",
    ),
    "add-arp": flag("Add static ARP entries for leases (pair with arp=reply-only)"),
    "always-broadcast": flag("Always broadcast replies"),
    "conflict-detection": flag("Ping an address before offering it"),
    "lease-script": text("Script run when a lease is bound or released"),
    relay: text("Address of the DHCP relay this server answers through (0.0.0.0: none)"),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "interface", "address-pool", "lease-time", "disabled", "invalid", "comment"],
  flags: FLAGS_XID,
  example: {
    add: {
      name: "dhcp-example",
      interface: "ether1",
      address_pool: "static-only",
      lease_time: "1h",
      comment: "example",
    },
    update: { lease_time: "2h", comment: "changed" },
  },
};

/** `/ip/dhcp-server/network`: options handed out per subnet. */
export const dhcpNetworks: Menu = {
  path: "/ip/dhcp-server/network",
  toolset: "dhcp",
  singular: "dhcp_network",
  plural: "dhcp_networks",
  noun: "DHCP networks",
  notes: "Each entry gives the options (gateway, DNS, domain) for leases whose address is in " +
    "its subnet.",
  fields: {
    address: text("Subnet in CIDR form, e.g. 192.168.88.0/24", { required: true }),
    gateway: text("Default gateway handed out, e.g. 192.168.88.1"),
    netmask: num("Prefix length handed out (0: from address)"),
    "dns-server": list('DNS servers handed out, e.g. ["192.168.88.1"]'),
    domain: text("DNS domain handed out, e.g. lan"),
    "ntp-server": list("NTP servers handed out"),
    "wins-server": list("WINS servers handed out"),
    "dhcp-option": list("Extra DHCP options (names from /ip dhcp-server option)"),
    "next-server": text("TFTP server address for network boot"),
    "boot-file-name": text("Boot file name for network boot"),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["address", "gateway", "dns-server", "domain", "comment"],
  flags: {},
  example: {
    add: {
      address: "10.99.2.0/24",
      gateway: "10.99.2.1",
      dns_server: ["10.99.2.1"],
      comment: "example",
    },
    update: { domain: "example.lan" },
  },
};

/** `/ip/dhcp-server/lease`: leases, static and dynamic. */
export const dhcpLeases: Menu = {
  path: "/ip/dhcp-server/lease",
  toolset: "dhcp",
  singular: "dhcp_lease",
  plural: "dhcp_leases",
  noun: "DHCP leases",
  notes: "Adding a lease makes a static reservation (address for a MAC address). Dynamic " +
    "leases (dynamic=true) come and go with clients. status is waiting, offered or bound.",
  fields: {
    address: text("Leased IPv4 address, or a pool name to pick from", { required: true }),
    "mac-address": text("Client MAC address, e.g. 02:00:00:00:00:01"),
    "client-id": text("DHCP client id, when matching on it instead of the MAC address"),
    server: text("DHCP server the lease belongs to, or all"),
    "lease-time": text("Lease duration for this client, e.g. 1d (0s: the server's)"),
    "address-lists": list("Firewall address lists the client's address joins while bound"),
    "rate-limit": text("Simple-queue limit for the client, e.g. 10M/10M"),
    "always-broadcast": flag("Always broadcast replies to this client"),
    "block-access": flag("Do not answer this client"),
    "use-src-mac": flag("Use the source MAC address instead of the DHCP chaddr"),
    status: state(text("waiting, offered, bound, busy...")),
    "host-name": state(text("Host name the client sent")),
    "active-address": state(text("Address the client holds now")),
    "active-mac-address": state(text("MAC address of the active lease")),
    "active-server": state(text("Server that handed out the active lease")),
    "expires-after": state(text("Time left on the active lease")),
    "last-seen": state(text("Time since the client was last seen")),
    blocked: state(flag("Whether the lease is blocked")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "mac-address", "server", "status", "host-name", "dynamic", "comment"],
  flags: { X: "disabled", D: "dynamic", B: "blocked" },
  example: {
    add: { address: "192.168.88.250", mac_address: "02:00:00:00:99:01", comment: "example" },
    update: { lease_time: "1h", comment: "changed" },
  },
};
