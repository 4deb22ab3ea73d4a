/**
 * Schema of the IPv6 service menus: prefix pools, router advertisements
 * (nd, nd prefix), the DHCPv6 client and server. RouterOS facts only;
 * tools live in lib/tools.
 *
 * @module
 */
import {
  bool,
  duration,
  int,
  ipv6Prefix,
  list,
  oneOf,
  ref,
  scriptText,
  state,
  text,
} from "../field.ts";
import { comment, disabled, dynamic, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** `/ipv6/pool`. */
export const ipv6Pools = menu({
  path: "/ipv6/pool",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove"],
  flags: { "D": "dynamic" },
  fields: {
    name: text("Pool name", { required: true }),
    prefix: ipv6Prefix("Prefix the pool hands out from, e.g. 2001:db8:100::/48", {
      required: true,
    }),
    "prefix-length": int("Length of each prefix handed out, e.g. 64", {
      required: true,
      min: 1,
      max: 128,
    }),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/ipv6/nd`. */
export const ipv6Nd = menu({
  path: "/ipv6/nd",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "*": "default" },
  fields: {
    interface: ref("/interface", "Interface to advertise on (all: every interface)", {
      required: true,
    }),
    "ra-interval": text("Interval between advertisements, e.g. 200s-600s"),
    "ra-lifetime": duration("How long hosts keep the router as default (none: not a default)", {
      words: ["none"],
    }),
    "hop-limit": text("Hop limit hosts should use (unspecified: theirs)"),
    mtu: text("MTU advertised (unspecified: none)"),
    "advertise-mac-address": bool("Include the router's MAC address"),
    "advertise-dns": oneOf(
      ["no", "self", "yes"],
      "Advertise DNS servers (RDNSS); self: the router",
    ),
    "managed-address-configuration": bool("Tell hosts to get addresses by DHCPv6 (M flag)"),
    "other-configuration": bool("Tell hosts to get other settings by DHCPv6 (O flag)"),
    dns: list("DNS servers to advertise (empty: the router's)", { releases: V7 }),
    "ra-preference": oneOf(["high", "low", "medium"], "Router preference", { releases: V7 }),
    default: state(bool("The built-in entry", { releases: V7 })),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ipv6/nd/prefix`. */
export const ipv6NdPrefixes = menu({
  path: "/ipv6/nd/prefix",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    prefix: ipv6Prefix("Prefix advertised, e.g. 2001:db8:1::/64", { required: true }),
    interface: ref("/interface", "Interface it is advertised on", { required: true }),
    "on-link": bool("Hosts may reach the prefix directly (L flag)"),
    autonomous: bool("Hosts may make their own addresses in it, SLAAC (A flag)"),
    "valid-lifetime": text("How long the prefix stays valid, e.g. 4w2d or infinity"),
    "preferred-lifetime": text("How long addresses stay preferred, e.g. 1w or infinity"),
    dynamic: dynamic(),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ipv6/dhcp-client`. */
export const ipv6DhcpClients = menu({
  path: "/ipv6/dhcp-client",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    interface: ref("/interface", "Interface facing the provider, e.g. ether1", {
      required: true,
    }),
    request: list('What to ask for: ["prefix"] (delegation), ["address"], or both', {
      required: true,
    }),
    "pool-name": text("IPv6 pool the delegated prefix goes into"),
    "pool-prefix-length": int("Length of the prefixes made from the delegated one, e.g. 64", {
      min: 1,
      max: 128,
    }),
    "prefix-hint": text("Prefix size to ask for, e.g. ::/56"),
    "add-default-route": bool("Add a default route through the server"),
    "default-route-distance": int("Distance of that route", {
      min: 0,
      max: 255,
      releases: V7,
    }),
    "use-peer-dns": bool("Use the DNS servers the server offers"),
    "rapid-commit": bool("Two-message exchange", { releases: V7 }),
    script: scriptText("Script run when the client's state changes", { releases: V7 }),
    status: state(text("State, e.g. bound, searching")),
    prefix: state(text("Delegated prefix and its lifetime")),
    address: state(text("Address got, with its lifetime")),
    dynamic: dynamic(),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ipv6/dhcp-server`. */
export const ipv6DhcpServers = menu({
  path: "/ipv6/dhcp-server",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "D": "dynamic" },
  fields: {
    name: text("Server name"),
    interface: ref("/interface", "Interface it serves, e.g. bridge", { required: true }),
    "address-pool": text("IPv6 pool prefixes are delegated from (static-only: bindings only)"),
    "lease-time": duration("Lease time, e.g. 1d"),
    preference: int("Preference among servers, 0-255", { min: 0, max: 255 }),
    "rapid-commit": bool("Two-message exchange", { releases: V7 }),
    "route-distance": int("Distance of routes to delegated prefixes", { releases: V7 }),
    "binding-script": scriptText("Script run when a binding is added or removed", {
      releases: V7,
    }),
    dynamic: dynamic(),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ipv6/dhcp-server/binding`. */
export const ipv6DhcpBindings = menu({
  path: "/ipv6/dhcp-server/binding",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    address: ipv6Prefix("Prefix delegated to the client, e.g. 2001:db8:1:100::/56", {
      required: true,
    }),
    duid: text("Client DUID, e.g. 0x000300010cc47a0b1c2d", { required: true }),
    iaid: int("Client IAID", { min: 0 }),
    server: text("DHCPv6 server (all: any)"),
    "life-time": duration("Binding lifetime, e.g. 3d"),
    status: state(text("State, e.g. bound, waiting")),
    "expires-after": state(text("Time until it expires", { releases: V7 })),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const IPV6_SCHEMAS: readonly MenuSchema[] = [
  ipv6Pools,
  ipv6Nd,
  ipv6NdPrefixes,
  ipv6DhcpClients,
  ipv6DhcpServers,
  ipv6DhcpBindings,
];
