/**
 * Tools of the RouterOS 7 dynamic routing menus: toolset, names, verbs,
 * columns, notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/dynamic_routing.ts.
 *
 * @module
 */
import {
  bfdConfigurations,
  bfdSessions,
  bgpAdvertisements,
  bgpConnections,
  bgpSessions,
  bgpTemplates,
  ospfAreas,
  ospfInstances,
  ospfInterfaceTemplates,
  ospfLsas,
  ospfNeighbors,
  routingFilterRules,
  routingTables,
  vrfs,
} from "../../routeros/schema/menus/dynamic_routing.ts";
import { takesMembers } from "../guard/lockout_members.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

const VERBS = ["list", "get", "add", "update", "remove", "enable", "disable"] as const;

/** `/routing/table`. */
const routingTablesTools: MenuTools = {
  schema: routingTables,
  toolset: "dynamic-routing",
  noun: noun("routing_table", "routing table"),
  verbs: VERBS,
  columns: ["name", "fib", "dynamic", "disabled", "comment"],
  notes:
    "Extra tables for policy routing: routes name one with routing_table, mangle mark-routing sends traffic to it. fib=true is needed to forward by it.",
  example: {
    "add": { "name": "table-example", "fib": true, "comment": "example" },
    "update": { "fib": false },
  },
};

/** `/ip/vrf`. */
const vrfsTools: MenuTools = {
  schema: vrfs,
  toolset: "dynamic-routing",
  noun: noun("vrf", "VRF"),
  verbs: [...VERBS, "move"],
  lockout: takesMembers("interfaces", "VRF"),
  columns: ["name", "interfaces", "builtin", "disabled", "comment"],
  notes:
    "A VRF is a separate routing domain for its interfaces, with a routing table of its name. Moving the interface you manage the router through cuts the session.",
  example: {
    "add": { "name": "vrf-example", "interfaces": ["ether5"], "comment": "example" },
    "update": { "interfaces": ["ether4", "ether5"] },
  },
};

/** `/routing/filter/rule`. */
const routingFilterRulesTools: MenuTools = {
  schema: routingFilterRules,
  toolset: "dynamic-routing",
  noun: noun("routing_filter_rule", "routing filter rule"),
  verbs: [...VERBS, "move"],
  columns: ["chain", "rule", "inactive", "disabled", "comment"],
  notes:
    "Rules of a chain run in order on each route a BGP or OSPF chain setting names; rule is RouterOS's filter language: if (dst in 10.0.0.0/8) { set bgp-local-pref 200; accept }.",
  example: {
    "add": {
      "chain": "bgp-in-example",
      "rule": "if (dst in 10.99.0.0/16) { accept }",
      "comment": "example",
    },
    "update": { "rule": "if (dst in 10.99.0.0/16) { reject }" },
  },
};

/** `/routing/ospf/instance`. */
const ospfInstancesTools: MenuTools = {
  schema: ospfInstances,
  toolset: "dynamic-routing",
  noun: noun("ospf_instance", "OSPF instance"),
  verbs: VERBS,
  columns: ["name", "version", "router-id", "redistribute", "inactive", "disabled"],
  notes:
    "An OSPF process: add an instance, then areas (router_add_ospf_area) and interface templates saying where OSPF runs. version 2 is IPv4, 3 is IPv6.",
  example: {
    "add": {
      "name": "ospf-example",
      "version": "2",
      "router_id": "10.99.0.1",
      "redistribute": ["connected"],
    },
    "update": { "originate_default": "if-installed" },
  },
};

/** `/routing/ospf/area`. */
const ospfAreasTools: MenuTools = {
  schema: ospfAreas,
  toolset: "dynamic-routing",
  noun: noun("ospf_area", "OSPF area"),
  verbs: VERBS,
  columns: ["name", "instance", "area-id", "type", "inactive", "disabled"],
  notes: "Area 0.0.0.0 is the backbone; other areas attach to it. Stub areas get a default route.",
  example: {
    "requires": ["/routing/ospf/instance"],
    "add": { "name": "area-example", "instance": "ospf-example", "area_id": "0.0.0.1" },
    "update": { "type": "stub" },
  },
};

/** `/routing/ospf/interface-template`. */
const ospfInterfaceTemplatesTools: MenuTools = {
  schema: ospfInterfaceTemplates,
  toolset: "dynamic-routing",
  noun: noun("ospf_interface_template", "OSPF interface template"),
  verbs: [...VERBS, "move"],
  columns: ["area", "interfaces", "networks", "type", "cost", "passive", "inactive"],
  notes:
    "Where OSPF runs: interfaces (or networks) matching a template join its area with its settings; the first matching template wins. auth_key is write-only.",
  example: {
    "requires": ["/routing/ospf/instance", "/routing/ospf/area"],
    "add": { "area": "area-example", "interfaces": ["ether2"], "type": "ptp", "cost": 10 },
    "update": { "passive": true },
  },
};

/** `/routing/ospf/neighbor`. */
const ospfNeighborsTools: MenuTools = {
  schema: ospfNeighbors,
  toolset: "dynamic-routing",
  noun: noun("ospf_neighbor", "OSPF neighbour"),
  verbs: ["list"],
  columns: ["instance", "area", "address", "interface", "router-id", "state"],
  notes: "Read-only: OSPF routers heard now; state Full means routes are exchanged.",
};

/** `/routing/bgp/template`. */
const bgpTemplatesTools: MenuTools = {
  schema: bgpTemplates,
  toolset: "dynamic-routing",
  noun: noun("bgp_template", "BGP template"),
  verbs: VERBS,
  columns: ["name", "as", "output.network", "output.redistribute", "disabled"],
  notes:
    "Settings connections inherit (templates of a connection); the template named default is built in.",
  example: {
    "add": { "name": "template-example", "as": "65001", "output_redistribute": ["connected"] },
    "update": { "hold_time": "2m" },
  },
};

/** `/routing/bgp/connection`. */
const bgpConnectionsTools: MenuTools = {
  schema: bgpConnections,
  toolset: "dynamic-routing",
  noun: noun("bgp_connection", "BGP connection (peer)", { many: "BGP connections (peers)" }),
  verbs: VERBS,
  columns: ["name", "as", "remote.address", "remote.as", "local.role", "inactive", "disabled"],
  notes:
    "A BGP peer: local as, remote_address, remote_as and local_role (ebgp/ibgp). output_network names an address list of prefixes to announce; see router_list_bgp_sessions for the state. tcp_md5_key is write-only.",
  example: {
    "add": {
      "name": "bgp-example",
      "as": "65001",
      "remote_address": "192.0.2.50",
      "remote_as": "65002",
      "local_role": "ebgp",
      "comment": "example",
    },
    "update": { "multihop": true },
  },
};

/** `/routing/bgp/session`. */
const bgpSessionsTools: MenuTools = {
  schema: bgpSessions,
  toolset: "dynamic-routing",
  noun: noun("bgp_session", "BGP session"),
  verbs: ["list"],
  columns: ["name", "remote.address", "remote.as", "established", "uptime", "prefix-count"],
  notes: "Read-only: BGP sessions of the connections, established or not, with prefixes received.",
};

/** `/routing/bgp/advertisements`. */
const bgpAdvertisementsTools: MenuTools = {
  schema: bgpAdvertisements,
  toolset: "dynamic-routing",
  noun: noun("bgp_advertisement", "BGP advertisement"),
  verbs: ["list"],
  columns: ["peer", "dst", "nexthop", "as-path", "local-pref", "med", "withdrawn"],
  notes:
    "Read-only: prefixes sent to each BGP peer, with their attributes. Only filled for connections with output_keep_sent_attributes=true (router_update_bgp_connection).",
};

/** `/routing/ospf/lsa`. */
const ospfLsasTools: MenuTools = {
  schema: ospfLsas,
  toolset: "dynamic-routing",
  noun: noun("ospf_lsa", "OSPF LSA"),
  verbs: ["list"],
  columns: ["instance", "area", "type", "originator", "age"],
  notes: "Read-only: the OSPF link-state database, what every router in the area announced.",
};

/** `/routing/bfd/configuration`. */
const bfdConfigurationsTools: MenuTools = {
  schema: bfdConfigurations,
  toolset: "dynamic-routing",
  noun: noun("bfd_configuration", "BFD configuration entry"),
  verbs: [...VERBS, "move"],
  columns: ["interfaces", "addresses", "min-rx", "min-tx", "multiplier", "disabled"],
  notes:
    "Where BFD runs and how fast; OSPF and BGP use it with use_bfd to notice a dead link in under a second. The first matching entry wins.",
  example: {
    "add": { "interfaces": ["ether2"], "min_rx": "300ms", "min_tx": "300ms", "comment": "example" },
    "update": { "multiplier": 3 },
  },
};

/** `/routing/bfd/session`. */
const bfdSessionsTools: MenuTools = {
  schema: bfdSessions,
  toolset: "dynamic-routing",
  noun: noun("bfd_session", "BFD session"),
  verbs: ["list"],
  columns: ["remote-address", "local-address", "state", "uptime", "state-changes"],
  notes: "Read-only: BFD sessions with neighbours, up or down.",
};

/** The menus of this family, in catalogue order. */
export const DYNAMIC_ROUTING_MENU_TOOLS: readonly MenuTools[] = [
  routingTablesTools,
  vrfsTools,
  routingFilterRulesTools,
  ospfInstancesTools,
  ospfAreasTools,
  ospfInterfaceTemplatesTools,
  ospfNeighborsTools,
  ospfLsasTools,
  bgpTemplatesTools,
  bgpConnectionsTools,
  bgpSessionsTools,
  bgpAdvertisementsTools,
  bfdConfigurationsTools,
  bfdSessionsTools,
];
