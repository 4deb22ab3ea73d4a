/**
 * Schema of the ip menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, ipv4, ipv4Prefix, ipv6Prefix, list, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/ip/address`. */
export const ipAddress = menu({
  path: "/ip/address",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  fields: {
    address: ipv4Prefix("IPv4 address with prefix length, e.g. 192.168.88.1/24", {
      required: true,
    }),
    network: ipv4("Network address; RouterOS derives it from address when not given"),
    interface: ref("/interface", "Interface the address is on, e.g. ether1 or bridge", {
      required: true,
    }),
    "actual-interface": state(
      text("Interface the address is really bound to (a bridge for a port)"),
    ),
    disabled: bool("Whether the address is disabled"),
    dynamic: state(bool("Whether the address was added by a service (DHCP client, PPP)")),
    invalid: state(bool("Whether RouterOS considers the address invalid (interface gone)")),
    comment: comment(),
  },
});

/** `/ipv6/address`. */
export const ipv6Address = menu({
  path: "/ipv6/address",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic", "L": "link-local" },
  fields: {
    address: ipv6Prefix("IPv6 address with prefix length, e.g. 2001:db8::1/64", { required: true }),
    "from-pool": text("IPv6 pool to take the prefix from (instead of a fixed address)"),
    interface: ref("/interface", "Interface the address is on, e.g. ether1 or bridge", {
      required: true,
    }),
    "actual-interface": state(text("Interface the address is really bound to")),
    "eui-64": bool("Derive the interface id (last 64 bits) from the MAC address"),
    advertise: bool("Advertise the prefix in router advertisements (SLAAC)"),
    "no-dad": bool("Skip duplicate address detection"),
    "link-local": state(bool("Whether it is a link-local (fe80::/10) address")),
    disabled: disabled(),
    dynamic: dynamic(),
    invalid: invalid(),
    comment: comment(),
  },
});

/** `/ip/pool`. */
export const ipPool = menu({
  path: "/ip/pool",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: {},
  fields: {
    name: text("Pool name, e.g. dhcp-lan", { required: true }),
    ranges: list('Address ranges, e.g. ["10.0.0.10-10.0.0.100"]', {
      required: true,
      item: "address",
    }),
    "next-pool": text("Pool to take addresses from when this one is exhausted, or none"),
    comment: comment(),
  },
});

/** `/ip/pool/used`. */
export const ipPoolUsed = menu({
  path: "/ip/pool/used",
  kind: "list",
  exports: false,
  writes: ["set"],
  flags: {},
  fields: {
    pool: state(ref("/ip/pool", "Pool the address was taken from")),
    address: state(ipv4("The address handed out")),
    owner: state(text("Service holding it (e.g. DHCP server name)")),
    info: state(text("Holder details, e.g. the client MAC address")),
  },
});

/** The menus of this family. */
export const IP_SCHEMAS: readonly MenuSchema[] = [
  ipAddress,
  ipv6Address,
  ipPool,
  ipPoolUsed,
];
