/**
 * IP menus: IPv4 addresses.
 *
 * @module
 */
import { flag, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";

/** `/ip/address`: IPv4 addresses on interfaces. */
export const ipAddress: Menu = {
  path: "/ip/address",
  toolset: "ip",
  singular: "ip_address",
  plural: "ip_addresses",
  noun: "IPv4 addresses",
  notes: "Addresses are in CIDR form (192.168.88.1/24).",
  fields: {
    address: text("IPv4 address with prefix length, e.g. 192.168.88.1/24", { required: true }),
    network: text("Network address; RouterOS derives it from address when not given"),
    interface: text("Interface the address is on, e.g. ether1 or bridge", {
      required: true,
      ref: "/interface",
    }),
    "actual-interface": state(
      text("Interface the address is really bound to (a bridge for a port)"),
    ),
    disabled: flag("Whether the address is disabled"),
    dynamic: state(flag("Whether the address was added by a service (DHCP client, PPP)")),
    invalid: state(flag("Whether RouterOS considers the address invalid (interface gone)")),
    comment: text("Free-text comment"),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["address", "network", "interface", "disabled", "dynamic", "comment"],
  example: {
    add: { address: "10.99.0.1/24", interface: "ether2", comment: "example" },
    update: { comment: "changed" },
  },
};
