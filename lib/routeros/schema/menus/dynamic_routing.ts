/**
 * Schema of the RouterOS 7 dynamic routing menus: OSPF (instance, area,
 * interface template, neighbour), BGP (connection, template, session),
 * routing filter rules, routing tables and VRFs. RouterOS 6 had other
 * menus for all of these (`/routing ospf`, `/routing bgp peer`), which are
 * not declared: each menu here says it needs RouterOS 7.
 * RouterOS facts only; tools live in lib/tools.
 *
 * @module
 */
import { bool, duration, type Field, int, list, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };
const WRITES = ["add", "set", "remove", "enable", "disable"] as const;
const inactive = () => state(bool("Inactive (something it needs is missing)"));
const TIMER = (doc: string) => duration(doc, { words: ["infinity"] });

/** `/routing/table`. */
export const routingTables = menu({
  path: "/routing/table",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: V7,
  flags: { "X": "disabled", "D": "dynamic", "I": "invalid" },
  fields: {
    name: text("Table name, e.g. isp2 (main is built in)", { required: true }),
    fib: bool("Install its routes in the forwarding table (needed to route by it)"),
    dynamic: dynamic(),
    invalid: state(bool("Invalid")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/ip/vrf`. */
export const vrfs = menu({
  path: "/ip/vrf",
  kind: "list",
  key: "name",
  writes: [...WRITES, "move"],
  releases: V7,
  flags: { "X": "disabled", "*": "builtin" },
  fields: {
    name: text("VRF name (also the name of its routing table)", { required: true }),
    interfaces: list('Interfaces in the VRF, e.g. ["ether5"]', { required: true }),
    builtin: state(bool("The built-in main VRF")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/routing/filter/rule`. */
export const routingFilterRules = menu({
  path: "/routing/filter/rule",
  kind: "list",
  writes: [...WRITES, "move"],
  releases: V7,
  flags: { "X": "disabled", "I": "inactive" },
  fields: {
    chain: text("Chain the rule is in (BGP/OSPF filters name it)", { required: true }),
    rule: text("Rule text, e.g. if (dst in 10.0.0.0/8) { accept }", { required: true }),
    inactive: inactive(),
    disabled: disabled(),
    comment: comment(),
  },
});

const REDISTRIBUTE = 'Routes to announce by origin, e.g. ["connected", "static"]';

/** `/routing/ospf/instance`. */
export const ospfInstances = menu({
  path: "/routing/ospf/instance",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: V7,
  flags: { "X": "disabled", "I": "inactive" },
  fields: {
    name: text("Instance name", { required: true }),
    version: oneOf(["2", "3"], "OSPF version: 2 (IPv4) or 3 (IPv6)"),
    "router-id": text("Router id, an address or a /routing/id name (default: main)"),
    redistribute: list(REDISTRIBUTE),
    "originate-default": oneOf(["always", "if-installed", "never"], "Announce a default route"),
    "routing-table": text("Table OSPF routes go into (default main)"),
    vrf: text("VRF the instance runs in (default main)"),
    "in-filter-chain": text("Routing filter chain for received routes"),
    "out-filter-chain": text("Routing filter chain for announced routes"),
    inactive: inactive(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/routing/ospf/area`. */
export const ospfAreas = menu({
  path: "/routing/ospf/area",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: V7,
  flags: { "X": "disabled", "I": "inactive", "D": "dynamic" },
  fields: {
    name: text("Area name", { required: true }),
    instance: ref("/routing/ospf/instance", "Instance the area belongs to", { required: true }),
    "area-id": text("Area id, e.g. 0.0.0.0 (the backbone) or 0.0.0.1"),
    type: oneOf(["default", "nssa", "stub"], "Area type (the backbone must be default)"),
    "default-cost": int("Cost of the default route into a stub or NSSA area", { min: 0 }),
    "no-summaries": bool("Send no summary routes into the stub area"),
    inactive: inactive(),
    dynamic: dynamic(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/routing/ospf/interface-template`. */
export const ospfInterfaceTemplates = menu({
  path: "/routing/ospf/interface-template",
  kind: "list",
  writes: [...WRITES, "move"],
  releases: V7,
  flags: { "X": "disabled", "I": "inactive" },
  fields: {
    area: ref("/routing/ospf/area", "Area the matching interfaces join", { required: true }),
    interfaces: list('Interfaces to run OSPF on, e.g. ["ether2"]'),
    networks: list('Or the prefixes whose interfaces run OSPF, e.g. ["10.0.0.0/24"]'),
    type: oneOf(
      ["broadcast", "nbma", "ptmp", "ptmp-broadcast", "ptp", "ptp-unnumbered", "virtual-link"],
      "Network type: broadcast (LAN) or ptp (point-to-point links)",
    ),
    cost: int("Interface cost; lower is preferred", { min: 1, max: 65535 }),
    priority: int("Designated router priority, 0-255", { min: 0, max: 255 }),
    passive: bool("Announce the network but send no hellos (LAN edges)"),
    auth: oneOf(["md5", "sha1", "sha256", "sha384", "sha512", "simple"], "Authentication"),
    "auth-key": text("Authentication key (write-only: masked in all output)", { secret: true }),
    "auth-id": int("Key id", { min: 0, max: 255 }),
    "hello-interval": duration("Hello interval, e.g. 10s"),
    "dead-interval": duration("Neighbour down after this long without hellos, e.g. 40s"),
    inactive: inactive(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/routing/ospf/neighbor`. */
export const ospfNeighbors = menu({
  path: "/routing/ospf/neighbor",
  kind: "list",
  writes: ["set"],
  releases: V7,
  exports: false,
  flags: { "V": "virtual", "D": "dynamic" },
  fields: {
    instance: state(text("Instance")),
    area: state(text("Area")),
    address: state(text("Neighbour's address")),
    interface: state(text("Interface it is reached on")),
    "router-id": state(text("Neighbour's router id")),
    state: state(text("Adjacency state, e.g. Full, 2-Way, Init")),
    "state-changes": state(int("State changes so far")),
    comment: comment(),
  },
});

/** What BGP connections and templates share. */
function bgpCommon(): Record<string, Field> {
  return {
    name: text("Name", { required: true }),
    as: text("Local AS number, e.g. 65001"),
    "routing-table": text("Table received routes go into (default main)"),
    vrf: text("VRF (default main)"),
    "hold-time": TIMER("Hold time, e.g. 3m (infinity: none)"),
    "keepalive-time": TIMER("Keepalive interval, e.g. 1m"),
    multihop: bool("The peer is more than one hop away (eBGP multihop)"),
    "output.network": text("Address list whose prefixes are announced"),
    "output.redistribute": list(REDISTRIBUTE),
    "output.default-originate": oneOf(
      ["always", "if-installed", "never"],
      "Announce a default route",
    ),
    "output.filter-chain": text("Routing filter chain for announced routes"),
    "output.keep-sent-attributes": bool("Keep what was sent (router_list_bgp_advertisements)"),
    "input.filter": text("Routing filter chain for received routes"),
    "use-bfd": bool("Use BFD to detect a dead peer quickly"),
    disabled: disabled(),
    comment: comment(),
  };
}

/** `/routing/bgp/template`. */
export const bgpTemplates = menu({
  path: "/routing/bgp/template",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: V7,
  flags: { "X": "disabled", "*": "default" },
  fields: {
    ...bgpCommon(),
    default: state(bool("The built-in default template")),
  },
});

/** `/routing/bgp/connection`. */
export const bgpConnections = menu({
  path: "/routing/bgp/connection",
  kind: "list",
  key: "name",
  writes: WRITES,
  releases: V7,
  flags: { "X": "disabled", "I": "inactive", "D": "dynamic" },
  fields: {
    ...bgpCommon(),
    "remote.address": text("Peer address or prefix (a prefix accepts any peer in it)", {
      required: true,
    }),
    "remote.as": text("Peer's AS number (empty: any)"),
    "local.role": oneOf(
      [
        "ebgp",
        "ebgp-customer",
        "ebgp-peer",
        "ebgp-provider",
        "ebgp-rs",
        "ebgp-rs-client",
        "ibgp",
        "ibgp-rr",
      ],
      "Role toward the peer: ebgp, ibgp, ibgp-rr (route reflector)...",
      { required: true },
    ),
    "local.address": text("Local address to connect from"),
    templates: list('Templates to inherit settings from, e.g. ["default"]'),
    connect: bool("Initiate the connection"),
    listen: bool("Accept the peer's connection"),
    "tcp-md5-key": text("TCP MD5 key (write-only: masked in all output)", { secret: true }),
    inactive: inactive(),
    dynamic: dynamic(),
  },
});

/** `/routing/bgp/session`. */
export const bgpSessions = menu({
  path: "/routing/bgp/session",
  kind: "list",
  key: "name",
  releases: V7,
  exports: false,
  flags: { "E": "established", "S": "stopped" },
  fields: {
    name: state(text("Connection the session belongs to")),
    "remote.address": state(text("Peer address")),
    "remote.as": state(text("Peer AS")),
    "local.address": state(text("Local address")),
    established: state(bool("Whether the session is up")),
    uptime: state(text("How long it has been up")),
    "prefix-count": state(int("Prefixes received")),
    "input.last-notification": state(text("Last error the peer sent")),
  },
});

/** `/routing/bgp/advertisements`: what was sent to each peer (with keep-sent-attributes). */
export const bgpAdvertisements = menu({
  path: "/routing/bgp/advertisements",
  kind: "list",
  releases: V7,
  exports: false,
  flags: {},
  fields: {
    peer: state(text("Session the prefix was sent to")),
    dst: state(text("Prefix advertised")),
    afi: state(text("Address family, e.g. ip, ipv6")),
    nexthop: state(text("Next hop sent")),
    origin: state(text("Origin attribute (igp, egp, incomplete)")),
    "as-path": state(text("AS path sent")),
    "local-pref": state(int("Local preference sent (iBGP)")),
    med: state(int("Multi-exit discriminator sent")),
    communities: state(text("Communities sent")),
    "large-communities": state(text("Large communities sent")),
    withdrawn: state(bool("Whether the prefix was withdrawn")),
  },
});

/** `/routing/ospf/lsa`. */
export const ospfLsas = menu({
  path: "/routing/ospf/lsa",
  kind: "list",
  releases: V7,
  exports: false,
  flags: { "S": "self-originated", "F": "flushing", "W": "wraparound", "D": "dynamic" },
  fields: {
    instance: state(text("Instance")),
    area: state(text("Area")),
    type: state(text("LSA type, e.g. router, network, inter-area-prefix, external")),
    originator: state(text("Router id that originated it")),
    age: state(int("Age in seconds")),
    sequence: state(text("Sequence number")),
    "self-originated": state(bool("Originated by this router")),
  },
});

/** `/routing/bfd/configuration`. */
export const bfdConfigurations = menu({
  path: "/routing/bfd/configuration",
  kind: "list",
  writes: [...WRITES, "move"],
  releases: V7,
  flags: { "X": "disabled", "I": "inactive" },
  fields: {
    interfaces: list('Interfaces BFD runs on, e.g. ["ether1"] or ["all"]'),
    addresses: list("Or peer addresses BFD runs with"),
    "min-rx": duration("Slowest rate this router wants packets at, e.g. 200ms"),
    "min-tx": duration("Fastest rate this router sends at, e.g. 200ms"),
    multiplier: int("Missed packets before the peer is down", { min: 1, max: 255 }),
    "forbid-bfd": bool("Turn BFD off where this entry matches"),
    vrf: text("VRF (default main)"),
    inactive: inactive(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/routing/bfd/session`. */
export const bfdSessions = menu({
  path: "/routing/bfd/session",
  kind: "list",
  releases: V7,
  exports: false,
  flags: { "U": "up", "I": "inactive" },
  fields: {
    "remote-address": state(text("Peer address")),
    "local-address": state(text("Local address")),
    state: state(text("up, down, init or admin-down")),
    up: state(bool("Whether the session is up")),
    uptime: state(text("How long it has been up")),
    "state-changes": state(int("State changes so far")),
    multihop: state(bool("Multihop session")),
  },
});

/** The menus of this family. */
export const DYNAMIC_ROUTING_SCHEMAS: readonly MenuSchema[] = [
  routingTables,
  vrfs,
  routingFilterRules,
  ospfInstances,
  ospfAreas,
  ospfInterfaceTemplates,
  ospfNeighbors,
  bgpTemplates,
  bgpConnections,
  bgpSessions,
  bgpAdvertisements,
  ospfLsas,
  bfdConfigurations,
  bfdSessions,
];
