/**
 * Tools of traffic-flow (NetFlow/IPFIX export): toolset, names, verbs,
 * columns, notes and examples. The RouterOS facts are in
 * lib/routeros/schema/menus/traffic_flow.ts.
 *
 * @module
 */
import { trafficFlow, trafficFlowTargets } from "../../routeros/schema/menus/traffic_flow.ts";
import { type MenuTools, noun } from "../menu_tools/spec.ts";

/** `/ip/traffic-flow`. */
const trafficFlowTools: MenuTools = {
  schema: trafficFlow,
  toolset: "services",
  noun: noun("traffic_flow_settings", "traffic-flow (NetFlow/IPFIX) export"),
  verbs: ["get", "update"],
  columns: ["enabled", "interfaces", "cache-entries", "active-flow-timeout"],
  notes:
    "Flows of interfaces are sent to the collectors of router_list_traffic_flow_targets. Accounting every packet costs CPU on a busy router: packet_sampling (RouterOS 7) lowers it.",
  example: { update: { enabled: true, interfaces: ["ether1"], active_flow_timeout: "1m" } },
};

/** `/ip/traffic-flow/target`. */
const targetsTools: MenuTools = {
  schema: trafficFlowTargets,
  toolset: "services",
  noun: noun("traffic_flow_target", "traffic-flow collector"),
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["dst-address", "port", "address", "version", "disabled"],
  notes:
    "RouterOS 7 takes dst_address and port (UDP, 2055 by default); RouterOS 6 takes address as IP:port.",
  example: {
    add: { dst_address: "192.0.2.10", port: 2055, address: "192.0.2.10:2055", version: "9" },
    update: { version: "ipfix" },
  },
};

/** The menus of this family, in catalogue order. */
export const TRAFFIC_FLOW_MENU_TOOLS: readonly MenuTools[] = [trafficFlowTools, targetsTools];
