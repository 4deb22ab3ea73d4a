/**
 * Schema of the bridge menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, duration, int, list, mac, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/interface/bridge`. */
export const bridges = menu({
  path: "/interface/bridge",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "R": "running" },
  fields: {
    name: text("Bridge name, e.g. bridge1 (RouterOS picks bridgeN when not given)"),
    mtu: text("Layer-3 MTU in bytes, or auto (the smallest MTU of the ports)"),
    "actual-mtu": state(int("MTU in effect, in bytes")),
    l2mtu: state(int("Layer-2 MTU in bytes")),
    arp: oneOf(
      ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"],
      "ARP mode: enabled (normal), disabled, reply-only, proxy-arp or local-proxy-arp",
    ),
    "admin-mac": mac("Static MAC address used when auto_mac is off"),
    "auto-mac": bool("Take the MAC address of the first port (off: use admin_mac)"),
    "mac-address": state(mac("MAC address in use")),
    "protocol-mode": oneOf(["none", "rstp", "stp", "mstp"], "Spanning tree protocol"),
    "vlan-filtering": bool("Filter by the bridge VLAN table and port pvid/frame_types"),
    pvid: int("VLAN id of untagged traffic to and from the bridge interface itself, 1-4094"),
    "frame-types": oneOf([
      "admit-all",
      "admit-only-untagged-and-priority-tagged",
      "admit-only-vlan-tagged",
    ], "Frames the bridge interface accepts (vlan filtering)"),
    "ingress-filtering": bool("Drop frames of VLANs the bridge interface is not a member of"),
    "igmp-snooping": bool("Forward multicast only to ports with listeners"),
    "dhcp-snooping": bool("Only trusted ports may answer DHCP"),
    "fast-forward": bool("Fast path for bridges with exactly two ports"),
    "ageing-time": duration("How long learned MAC addresses are kept, e.g. 5m"),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/bridge/port`. */
export const bridgePorts = menu({
  path: "/interface/bridge/port",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable", "move"],
  flags: { "X": "disabled", "I": "inactive", "D": "dynamic" },
  fields: {
    interface: ref("/interface", "Interface to add to the bridge, e.g. ether3", { required: true }),
    bridge: ref("/interface/bridge", "Bridge the interface joins", { required: true }),
    pvid: int("VLAN id for untagged ingress traffic (vlan filtering), 1-4094"),
    "frame-types": oneOf([
      "admit-all",
      "admit-only-untagged-and-priority-tagged",
      "admit-only-vlan-tagged",
    ], "Frames the port accepts (vlan filtering)"),
    "ingress-filtering": bool("Drop ingress frames of VLANs the port is not a member of"),
    horizon: text("Split-horizon group number, or none"),
    edge: oneOf(["auto", "no", "no-discover", "yes", "yes-discover"], "STP edge port"),
    "point-to-point": oneOf(["auto", "no", "yes"], "STP point-to-point link"),
    "path-cost": int("STP path cost"),
    priority: text("STP port priority in hex, e.g. 0x80"),
    learn: oneOf(["auto", "no", "yes"], "Learn source MAC addresses"),
    hw: bool("Offload switching to the switch chip when possible"),
    trusted: bool("Trusted for DHCP snooping"),
    "bpdu-guard": bool("Disable the port when it receives a BPDU"),
    inactive: state(bool("Whether the port is inactive (interface down or missing)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/interface/bridge/vlan`. */
export const bridgeVlans = menu({
  path: "/interface/bridge/vlan",
  kind: "list",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "D": "dynamic" },
  fields: {
    bridge: ref("/interface/bridge", "Bridge the entry belongs to", { required: true }),
    "vlan-ids": list('VLAN ids or ranges, e.g. ["10", "20-29"]', { required: true }),
    tagged: list("Ports (or the bridge) that carry these VLANs tagged"),
    untagged: list("Ports that carry these VLANs untagged"),
    "current-tagged": state(list("Tagged members in effect (including dynamic ones)")),
    "current-untagged": state(list("Untagged members in effect (including dynamic ones)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const BRIDGE_SCHEMAS: readonly MenuSchema[] = [
  bridges,
  bridgePorts,
  bridgeVlans,
];
