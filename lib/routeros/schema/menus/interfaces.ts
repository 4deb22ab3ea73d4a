/**
 * Schema of the interfaces menus (RouterOS facts only; tools live in lib/tools).
 *
 * @module
 */
import { bool, int, list, mac, oneOf, ref, state, text } from "../field.ts";
import { comment, disabled, dynamic } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

/** `/interface`. */
export const interfaces = menu({
  path: "/interface",
  kind: "list",
  key: "name",
  writes: ["set", "enable", "disable"],
  flags: { "D": "dynamic", "X": "disabled", "R": "running", "S": "slave" },
  fields: {
    name: text("Interface name, e.g. ether1 (renaming updates every reference to it)"),
    "default-name": state(text("Factory name of a physical port")),
    type: state(text("Kind of interface: ether, bridge, vlan, wg, wifi, pppoe-out...")),
    mtu: text("Layer-3 MTU in bytes, or auto (bridges)"),
    "actual-mtu": state(int("MTU in effect, in bytes")),
    l2mtu: state(int("Layer-2 MTU in bytes (without the Ethernet header)")),
    "max-l2mtu": state(int("Largest layer-2 MTU the hardware supports")),
    "mac-address": state(mac("MAC address, e.g. 48:A9:8A:12:34:01")),
    "last-link-up-time": state(text("When the link last came up")),
    "last-link-down-time": state(text("When the link last went down")),
    "link-downs": state(int("How many times the link went down since boot")),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    slave: state(bool("Whether the interface is a port of a bridge (or bond)")),
    disabled: disabled(),
    dynamic: dynamic(),
    comment: comment(),
  },
});

/** `/interface/ethernet`. */
export const ethernet = menu({
  path: "/interface/ethernet",
  kind: "list",
  key: "name",
  writes: ["set", "enable", "disable"],
  flags: { "X": "disabled", "R": "running", "S": "slave" },
  fields: {
    name: text("Interface name, e.g. ether1"),
    "default-name": state(text("Factory name of the port")),
    mtu: int("Layer-3 MTU in bytes"),
    l2mtu: int("Layer-2 MTU in bytes"),
    "mac-address": mac("MAC address in use, e.g. 48:A9:8A:12:34:01"),
    "orig-mac-address": state(mac("Factory MAC address")),
    arp: oneOf(
      ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"],
      "ARP mode: enabled (normal), disabled, reply-only, proxy-arp or local-proxy-arp",
    ),
    "auto-negotiation": bool("Negotiate speed and duplex with the link partner"),
    speed: text("Forced speed when auto-negotiation is off, e.g. 1G-baseT-full (v7) or 1Gbps (v6)"),
    "full-duplex": bool("Forced full duplex when auto-negotiation is off", { hardware: true }),
    advertise: list("Speeds advertised during auto-negotiation, e.g. 1G-baseT-full"),
    "tx-flow-control": oneOf(["auto", "off", "on"], "Send pause frames"),
    "rx-flow-control": oneOf(["auto", "off", "on"], "Honour received pause frames"),
    "poe-out": oneOf(
      ["auto-on", "forced-on", "off"],
      "PoE output (only on PoE-capable ports; see router_list_poe_ports)",
      { hardware: true },
    ),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    slave: state(bool("Whether the port is in a bridge")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/vlan`. */
export const vlans = menu({
  path: "/interface/vlan",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "R": "running" },
  fields: {
    name: text("Interface name, e.g. vlan10 (RouterOS picks vlanN when not given)"),
    "vlan-id": int("VLAN id, 1-4094", { required: true, min: 1, max: 4094 }),
    interface: ref(
      "/interface",
      "Parent interface the tagged frames go out of, e.g. ether1 or bridge",
      { required: true },
    ),
    mtu: int("Layer-3 MTU in bytes (default 1500)"),
    l2mtu: state(int("Layer-2 MTU in bytes")),
    "mac-address": state(mac("MAC address (the parent's)")),
    arp: oneOf(
      ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"],
      "ARP mode: enabled (normal), disabled, reply-only, proxy-arp or local-proxy-arp",
    ),
    "use-service-tag": bool("Use an 802.1ad service tag (QinQ outer tag) instead of 802.1Q"),
    running: state(bool("Whether the interface is running (link up and enabled)")),
    disabled: disabled(),
    comment: comment(),
  },
});

/** `/interface/ethernet/poe`. */
export const poe = menu({
  path: "/interface/ethernet/poe",
  kind: "list",
  key: "name",
  // Its items are Ethernet ports: power off on the one that carries the
  // session stops the device it feeds (a radio uplink).
  interfaces: true,
  writes: ["set"],
  hardware: true,
  flags: {},
  fields: {
    name: state(text("Port name, e.g. ether5")),
    "poe-out": oneOf(
      ["auto-on", "forced-on", "off"],
      "auto-on (power only detected PoE devices), forced-on (always power) or off",
    ),
    "poe-out-status": state(text("PoE state, e.g. powered-on, waiting-for-load, short-circuit")),
    "poe-priority": int("Priority when the power budget is short, 0 (highest) to 99"),
    "poe-voltage": oneOf(["auto", "high", "low"], "Output voltage selection"),
    "power-cycle-ping-enabled": bool(
      "Power-cycle the port when power_cycle_ping_address stops answering",
    ),
    "power-cycle-ping-address": text("Address pinged to decide on a power cycle"),
    "power-cycle-ping-timeout": text("How long pings may fail before a power cycle, e.g. 5s"),
    "power-cycle-interval": text("Power-cycle the port at this interval, e.g. 1d (none: off)"),
  },
});

/** The menus of this family. */
export const INTERFACES_SCHEMAS: readonly MenuSchema[] = [
  interfaces,
  ethernet,
  vlans,
  poe,
];
