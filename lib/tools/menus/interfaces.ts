/**
 * Interface menus: every interface, VLAN interfaces, Ethernet ports and PoE.
 *
 * @module
 */
import { flag, list, num, oneOf, state, text } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { comment, disabled, dynamic, FLAGS_XR, running } from "./common.ts";

const ARP = ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"] as const;

/** `arp` of L3 interfaces. */
export const arpField = () =>
  oneOf(ARP, "ARP mode: enabled (normal), disabled, reply-only, proxy-arp or local-proxy-arp");

/** `/interface`: every interface, whatever its kind. */
export const interfaces: Menu = {
  path: "/interface",
  toolset: "interfaces",
  singular: "interface",
  plural: "interfaces",
  noun: "interfaces",
  notes: "Covers every kind (ether, bridge, vlan, wg, wifi...); kind-specific settings are in " +
    "the menus of each kind (router_update_ethernet_port, router_update_bridge, ...). " +
    "Interfaces cannot be added or removed here. Disabling the interface you manage the " +
    "router through cuts your own access.",
  key: "name",
  fields: {
    name: text("Interface name, e.g. ether1 (renaming updates every reference to it)"),
    "default-name": state(text("Factory name of a physical port")),
    type: state(text("Kind of interface: ether, bridge, vlan, wg, wifi, pppoe-out...")),
    mtu: text("Layer-3 MTU in bytes, or auto (bridges)"),
    "actual-mtu": state(num("MTU in effect, in bytes")),
    l2mtu: state(num("Layer-2 MTU in bytes (without the Ethernet header)")),
    "max-l2mtu": state(num("Largest layer-2 MTU the hardware supports")),
    "mac-address": state(text("MAC address, e.g. 48:A9:8A:12:34:01")),
    "last-link-up-time": state(text("When the link last came up")),
    "last-link-down-time": state(text("When the link last went down")),
    "link-downs": state(num("How many times the link went down since boot")),
    running: running(),
    slave: state(flag("Whether the interface is a port of a bridge (or bond)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
  verbs: ["list", "get", "update", "enable", "disable"],
  columns: ["name", "type", "actual-mtu", "mac-address", "running", "disabled", "comment"],
  flags: { D: "dynamic", X: "disabled", R: "running", S: "slave" },
  example: { target: { name: "ether3" }, update: { comment: "changed" } },
};

/** `/interface/vlan`: 802.1Q VLAN interfaces. */
export const vlans: Menu = {
  path: "/interface/vlan",
  toolset: "interfaces",
  singular: "vlan",
  plural: "vlans",
  noun: "VLAN interfaces",
  notes: "A VLAN interface tags traffic with vlan_id on its parent interface; put IP " +
    "addresses on it with router_add_ip_address. For VLAN filtering inside a bridge use " +
    "bridge VLANs instead.",
  key: "name",
  fields: {
    name: text("Interface name, e.g. vlan10 (RouterOS picks vlanN when not given)"),
    "vlan-id": num("VLAN id, 1-4094", { required: true }),
    interface: text("Parent interface the tagged frames go out of, e.g. ether1 or bridge", {
      required: true,
      ref: "/interface",
    }),
    mtu: num("Layer-3 MTU in bytes (default 1500)"),
    l2mtu: state(num("Layer-2 MTU in bytes")),
    "mac-address": state(text("MAC address (the parent's)")),
    arp: arpField(),
    "use-service-tag": flag("Use an 802.1ad service tag (QinQ outer tag) instead of 802.1Q"),
    running: running(),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "add", "update", "remove", "enable", "disable"],
  columns: ["name", "vlan-id", "interface", "mtu", "running", "disabled", "comment"],
  flags: FLAGS_XR,
  example: {
    add: { name: "vlan99", vlan_id: 99, interface: "ether2", comment: "example" },
    update: { mtu: 1400, comment: "changed" },
  },
};

/** `/interface/ethernet`: physical Ethernet ports. */
export const ethernet: Menu = {
  path: "/interface/ethernet",
  toolset: "interfaces",
  singular: "ethernet_port",
  plural: "ethernet_ports",
  noun: "Ethernet ports",
  notes: "Physical ports cannot be added or removed. Changing speed, auto-negotiation or MTU " +
    "bounces the link.",
  key: "name",
  fields: {
    name: text("Interface name, e.g. ether1"),
    "default-name": state(text("Factory name of the port")),
    mtu: num("Layer-3 MTU in bytes"),
    l2mtu: num("Layer-2 MTU in bytes"),
    "mac-address": text("MAC address in use, e.g. 48:A9:8A:12:34:01"),
    "orig-mac-address": state(text("Factory MAC address")),
    arp: arpField(),
    "auto-negotiation": flag("Negotiate speed and duplex with the link partner"),
    speed: text("Forced speed when auto-negotiation is off, e.g. 1G-baseT-full (v7) or 1Gbps (v6)"),
    "full-duplex": flag("Forced full duplex when auto-negotiation is off"),
    advertise: list("Speeds advertised during auto-negotiation, e.g. 1G-baseT-full"),
    "tx-flow-control": oneOf(["auto", "off", "on"], "Send pause frames"),
    "rx-flow-control": oneOf(["auto", "off", "on"], "Honour received pause frames"),
    "poe-out": oneOf(
      ["auto-on", "forced-on", "off"],
      "PoE output (only on PoE-capable ports; see router_list_poe_ports)",
    ),
    running: running(),
    slave: state(flag("Whether the port is in a bridge")),
    disabled: disabled(),
    comment: comment(),
  },
  verbs: ["list", "get", "update"],
  columns: ["name", "default-name", "mtu", "mac-address", "running", "slave", "comment"],
  flags: { X: "disabled", R: "running", S: "slave" },
  example: { target: { name: "ether3" }, update: { mtu: 1400, comment: "changed" } },
};

/** `/interface/ethernet/poe`: Power over Ethernet output of ports. */
export const poe: Menu = {
  path: "/interface/ethernet/poe",
  toolset: "interfaces",
  singular: "poe_port",
  plural: "poe_ports",
  noun: "PoE ports",
  notes: "Only PoE-capable ports are listed (none on devices without PoE out). Turning " +
    "poe_out off powers down the device fed by that port.",
  key: "name",
  fields: {
    name: state(text("Port name, e.g. ether5")),
    "poe-out": oneOf(
      ["auto-on", "forced-on", "off"],
      "auto-on (power only detected PoE devices), forced-on (always power) or off",
    ),
    "poe-out-status": state(text("PoE state, e.g. powered-on, waiting-for-load, short-circuit")),
    "poe-priority": num("Priority when the power budget is short, 0 (highest) to 99"),
    "poe-voltage": oneOf(["auto", "high", "low"], "Output voltage selection"),
    "power-cycle-ping-enabled": flag(
      "Power-cycle the port when power_cycle_ping_address stops answering",
    ),
    "power-cycle-ping-address": text("Address pinged to decide on a power cycle"),
    "power-cycle-ping-timeout": text("How long pings may fail before a power cycle, e.g. 5s"),
    "power-cycle-interval": text("Power-cycle the port at this interval, e.g. 1d (none: off)"),
  },
  verbs: ["list", "get", "update"],
  columns: ["name", "poe-out", "poe-priority", "poe-voltage"],
  flags: {},
  example: { target: { name: "ether5" }, update: { poe_priority: 5 } },
};
