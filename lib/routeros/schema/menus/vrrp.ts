/**
 * Schema of VRRP interfaces (RouterOS facts only; tools live in lib/tools).
 *
 * Properties per release: the `add`/`set` arguments of the real trees
 * (`../shared/fidelity`, 7.12.2 to 7.24); a property that comes or goes
 * between two trees starts at the first tree that has it or ends at the
 * last (`mtu` is settable to the 7.16.2 tree and only printed from the
 * 7.20.8 one; `connection-tracking-mode`/`-port` come with the 7.20.8 tree,
 * `v3-checksum-as-v2` with 7.24). Values: the value lists of
 * `tree-7.22.3.json`. RouterOS 6 has no tree: it gets the properties
 * MikroTik's v6 manual lists (no group, connection-tracking or `on-fail`
 * settings, which are dated from 7.0 here).
 *
 * The scripts RouterOS runs on a state change (`on-master`, `on-backup`,
 * `on-fail`) are script fields: setting one needs the admin role, their
 * text is masked like any script's, and they are no list filter (a filter
 * on a script's text would tell whether a guessed password in it is right).
 *
 * @module
 */
import { bool, duration, int, ipv4, mac, oneOf, ref, scriptText, state, text } from "../field.ts";
import { comment, disabled, invalid } from "../common.ts";
import { menu, type MenuSchema } from "../menu.ts";

const V7 = { from: "7.0" };

/** `/interface/vrrp`. */
export const vrrp = menu({
  path: "/interface/vrrp",
  kind: "list",
  key: "name",
  writes: ["add", "set", "remove", "enable", "disable"],
  flags: { "X": "disabled", "I": "invalid", "R": "running", "M": "master", "B": "backup" },
  fields: {
    name: text("Interface name, e.g. vrrp1 (RouterOS picks vrrpN when not given)"),
    interface: ref("/interface", "Interface it runs on, e.g. bridge or vlan10", {
      required: true,
    }),
    vrid: int("Virtual router id, 1-255: the same on every router of the group", {
      min: 1,
      max: 255,
    }),
    priority: int("Priority, 1-254: the highest live one is master (default 100)", {
      min: 1,
      max: 254,
    }),
    interval: duration("Advertisement interval, 10ms to 4m15s (default 1s)"),
    "preemption-mode": bool("A higher-priority router takes over from a live master"),
    authentication: oneOf(["ah", "none", "simple"], "Advertisement authentication (VRRPv2)"),
    password: text("Authentication password (write-only: masked in all output)", {
      secret: true,
    }),
    version: oneOf(["2", "3"], "VRRP version: 3 (IPv4 and IPv6) or 2 (IPv4)"),
    "v3-protocol": oneOf(["ipv4", "ipv6"], "Address family of VRRPv3"),
    "v3-checksum-as-v2": bool("VRRPv3 checksum computed as VRRPv2 does (old peers)", {
      releases: { from: "7.24" },
    }),
    arp: oneOf(
      ["disabled", "enabled", "local-proxy-arp", "proxy-arp", "reply-only"],
      "ARP mode of the virtual interface",
    ),
    "arp-timeout": duration("ARP entry timeout, or auto", { words: ["auto"] }),
    mtu: int("Layer-3 MTU in bytes (settable up to RouterOS 7.16)", {
      min: 0,
      max: 65535,
      releases: { until: "7.16" },
    }),
    "group-master": text("VRRP interface whose state this one follows, or none", {
      releases: V7,
    }),
    "group-authority": text("VRRP interface that decides this group's state, or none", {
      releases: V7,
    }),
    "sync-connection-tracking": bool("Copy connection tracking from master to backup", {
      releases: V7,
    }),
    "remote-address": ipv4("Peer the connection tracking is synced with (default: found by VRRP)", {
      releases: V7,
    }),
    "connection-tracking-mode": oneOf(
      ["active-active", "passive-active"],
      "Connection tracking sync mode",
      { releases: { from: "7.20" } },
    ),
    "connection-tracking-port": int("UDP port of the connection tracking sync", {
      min: 1,
      max: 65535,
      releases: { from: "7.20" },
    }),
    "on-master": scriptText("Script run on becoming master"),
    "on-backup": scriptText("Script run on becoming backup"),
    "on-fail": scriptText("Script run on failing", { releases: V7 }),
    "mac-address": state(mac("Virtual MAC address, 00:00:5E:00:01:<vrid> (IPv4)")),
    master: state(bool("Whether this router is the master now")),
    backup: state(bool("Whether this router is a backup now")),
    running: state(bool("Whether the interface is running")),
    invalid: invalid(),
    disabled: disabled(),
    comment: comment(),
  },
});

/** The menus of this family. */
export const VRRP_SCHEMAS: readonly MenuSchema[] = [vrrp];
