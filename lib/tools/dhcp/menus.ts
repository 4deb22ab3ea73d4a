/**
 * Tools of the dhcp menus: toolset, names, verbs, columns, notes and examples.
 * The RouterOS facts are in lib/routeros/schema/menus/dhcp.ts.
 *
 * @module
 */
import { dhcpLeases, dhcpNetworks, dhcpServers } from "../../routeros/schema/menus/dhcp.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/ip/dhcp-server`. */
const dhcpServersTools: MenuTools = {
  schema: dhcpServers,
  toolset: "dhcp",
  noun: noun("dhcp_server", "DHCP server"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "interface", "address-pool", "lease-time", "disabled", "invalid", "comment"],
  notes:
    "A server needs an IP address on its interface and a matching DHCP network (router_add_dhcp_network) for gateway and DNS options. Durations are RouterOS times such as 30m, 1d or 1d12:00:00.",
  example: {
    "add": {
      "name": "dhcp-example",
      "interface": "ether1",
      "address_pool": "static-only",
      "lease_time": "1h",
      "comment": "example",
    },
    "update": { "lease_time": "2h", "comment": "changed" },
  },
};

/** `/ip/dhcp-server/network`. */
const dhcpNetworksTools: MenuTools = {
  schema: dhcpNetworks,
  toolset: "dhcp",
  noun: noun("dhcp_network", "DHCP network"),
  verbs: ["list", "get", "add", "update", "remove"],
  columns: ["address", "gateway", "dns-server", "domain", "comment"],
  notes:
    "Each entry gives the options (gateway, DNS, domain) for leases whose address is in its subnet.",
  example: {
    "add": {
      "address": "10.99.2.0/24",
      "gateway": "10.99.2.1",
      "dns_server": ["10.99.2.1"],
      "comment": "example",
    },
    "update": { "domain": "example.lan" },
  },
};

/** `/ip/dhcp-server/lease`. */
const dhcpLeasesTools: MenuTools = {
  schema: dhcpLeases,
  toolset: "dhcp",
  noun: noun("dhcp_lease", "DHCP lease"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "mac-address", "server", "status", "host-name", "dynamic", "comment"],
  notes:
    "Adding a lease makes a static reservation (address for a MAC address). Dynamic leases (dynamic=true) come and go with clients. status is waiting, offered or bound.",
  example: {
    "add": {
      "address": "192.168.88.250",
      "mac_address": "02:00:00:00:99:01",
      "comment": "example",
    },
    "update": { "lease_time": "1h", "comment": "changed" },
  },
};

/** The menus of this family, in catalogue order. */
export const DHCP_MENU_TOOLS: readonly MenuTools[] = [
  dhcpServersTools,
  dhcpNetworksTools,
  dhcpLeasesTools,
];
