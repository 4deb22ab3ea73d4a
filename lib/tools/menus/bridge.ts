/**
 * Bridge menus: bridges, their ports and their VLAN table.
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_XD, FLAGS_XR, running } from "./common.ts";
import { arpField } from "./interfaces.ts";

const FRAME_TYPES = [
  "admit-all",
  "admit-only-untagged-and-priority-tagged",
  "admit-only-vlan-tagged",
] as const;

/** `/interface/bridge`: software bridges (switches). */
export const bridges: Menu = {
  path: "/interface/bridge",
  toolset: "bridge",
  singular: "bridge",
  plural: "bridges",
  noun: "bridges",
  notes: "Ports are added with router_add_bridge_port. Turning vlan_filtering on without " +
    "bridge VLAN entries for your management VLAN locks you out of the router.",
  key: "name",
  fields: {
    name: text("Bridge name, e.g. bridge1 (RouterOS picks bridgeN when not given)"),
    mtu: text("Layer-3 MTU in bytes, or auto (the smallest MTU of the ports)"),
    "actual-mtu": state(num("MTU in effect, in bytes")),
    l2mtu: state(num("Layer-2 MTU in bytes")),
    arp: arpField(),
    "admin-mac": text("Static MAC address used when auto_mac is off"),
    "auto-mac": flag("Take the MAC address of the first port (off: use admin_mac)"),
    "mac-address": state(text("MAC address in use")),
    "protocol-mode": oneOf(["none", "rstp", "stp", "mstp"], "Spanning tree protocol"),
    "vlan-filtering": flag("Filter by the bridge VLAN table and port pvid/frame_types"),
    pvid: num("VLAN id of untagged traffic to and from the bridge interface itself, 1-4094"),
    "frame-types": oneOf(FRAME_TYPES, "Frames the bridge interface accepts (vlan filtering)"),
    "ingress-filtering": flag("Drop frames of VLANs the bridge interface is not a member of"),
    "igmp-snooping": flag("Forward multicast only to ports with listeners"),
    "dhcp-snooping": flag("Only trusted ports may answer DHCP"),
    "fast-forward": flag("Fast path for bridges with exactly two ports"),
    "ageing-time": text("How long learned MAC addresses are kept, e.g. 5m"),
    running: running(),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "mtu", "protocol-mode", "vlan-filtering", "running", "disabled", "comment"],
  flags: FLAGS_XR,
  example: {
    add: { name: "bridge-example", protocol_mode: "rstp", comment: "example" },
    update: { igmp_snooping: true, comment: "changed" },
  },
};

/** `/interface/bridge/port`: interfaces enslaved to bridges. */
export const bridgePorts: Menu = {
  path: "/interface/bridge/port",
  toolset: "bridge",
  singular: "bridge_port",
  plural: "bridge_ports",
  noun: "bridge ports",
  notes: "An interface can be in one bridge only. Addresses on a port move to the bridge: " +
    "moving the port you manage the router through cuts your access.",
  fields: {
    interface: text("Interface to add to the bridge, e.g. ether3", {
      required: true,
      ref: "/interface",
    }),
    bridge: text("Bridge the interface joins", { required: true, ref: "/interface/bridge" }),
    pvid: num("VLAN id for untagged ingress traffic (vlan filtering), 1-4094"),
    "frame-types": oneOf(FRAME_TYPES, "Frames the port accepts (vlan filtering)"),
    "ingress-filtering": flag("Drop ingress frames of VLANs the port is not a member of"),
    horizon: text("Split-horizon group number, or none"),
    edge: oneOf(["auto", "no", "no-discover", "yes", "yes-discover"], "STP edge port"),
    "point-to-point": oneOf(["auto", "no", "yes"], "STP point-to-point link"),
    "path-cost": num("STP path cost"),
    priority: text("STP port priority in hex, e.g. 0x80"),
    learn: oneOf(["auto", "no", "yes"], "Learn source MAC addresses"),
    hw: flag("Offload switching to the switch chip when possible"),
    trusted: flag("Trusted for DHCP snooping"),
    "bpdu-guard": flag("Disable the port when it receives a BPDU"),
    inactive: state(flag("Whether the port is inactive (interface down or missing)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["interface", "bridge", "pvid", "hw", "inactive", "disabled", "comment"],
  flags: { X: "disabled", I: "inactive", D: "dynamic" },
  example: {
    add: { interface: "ether1", bridge: "bridge", comment: "example" },
    update: { pvid: 10, comment: "changed" },
  },
};

/** `/interface/bridge/vlan`: the bridge VLAN table. */
export const bridgeVlans: Menu = {
  path: "/interface/bridge/vlan",
  toolset: "bridge",
  singular: "bridge_vlan",
  plural: "bridge_vlans",
  noun: "bridge VLAN entries",
  notes: "Only used when the bridge has vlan_filtering on. Tag the bridge itself to reach " +
    "the router on a VLAN. Ports whose pvid matches get dynamic untagged membership.",
  fields: {
    bridge: text("Bridge the entry belongs to", { required: true, ref: "/interface/bridge" }),
    "vlan-ids": list('VLAN ids or ranges, e.g. ["10", "20-29"]', { required: true }),
    tagged: list("Ports (or the bridge) that carry these VLANs tagged"),
    untagged: list("Ports that carry these VLANs untagged"),
    "current-tagged": state(list("Tagged members in effect (including dynamic ones)")),
    "current-untagged": state(list("Untagged members in effect (including dynamic ones)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["bridge", "vlan-ids", "current-tagged", "current-untagged", "disabled", "comment"],
  flags: FLAGS_XD,
  example: {
    add: { bridge: "bridge", vlan_ids: ["99"], tagged: ["bridge", "ether2"], comment: "example" },
    update: { untagged: ["ether3"], comment: "changed" },
  },
};
