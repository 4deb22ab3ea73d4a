/**
 * What the interface menus share: the general properties, flags, name rules and renames.
 *
 * @module
 */
import type { Item, PropDef } from "../menu_types.ts";
import type { RouterState } from "../state.ts";
import { isTrue } from "../values.ts";
import { COMMENT, DISABLED, DYNAMIC, F_DISABLED, F_DYNAMIC, F_RUNNING, ro, str } from "./common.ts";

export const nameUnique = { props: ["name"], error: "interface with such name already exists" };

export function bridgePorts(st: RouterState): Item[] {
  return st.stored(st.menus.byPath("/interface/bridge/port")!);
}

/** Releases whose `print detail` shows `ifname`, `ifindex` and `id` (see GENERAL). */
const IFNAME = { from: "7.0", until: "7.16" };

/** Linux name and numbers of an interface: `eth0` for ether1, `br0`, `vlan<id>`... */
function kernel(i: Item): { ifname: string; ifindex: string; id: string } {
  const n = Number.parseInt((i[".id"] ?? "*0").slice(1), 16) || 0;
  const ether = /^ether(\d+)$/.exec(i["default-name"] ?? "");
  const base: Record<string, string> = { ether: "eth", bridge: "br", vlan: "vlan", wlan: "wlan" };
  const ifname = ether ? `eth${Number(ether[1]) - 1}` : `${base[i.type] ?? i.type ?? "if"}${n}`;
  return { ifname, ifindex: String(n + 6), id: String(n) };
}

/** Properties every interface has, as `/interface print` shows them. */
export const GENERAL: PropDef[] = [
  str("name", { required: true }),
  ro("default-name", "str"),
  ro("type", "str"),
  { name: "mtu", type: "int", values: ["auto"], default: "1500", min: 0, max: 65535 },
  ro("actual-mtu", "int", {
    compute: (i) => i["actual-mtu"] ?? (i.mtu === "auto" ? "1500" : i.mtu),
  }),
  ro("l2mtu", "int"),
  ro("max-l2mtu", "int"),
  ro("mac-address", "mac"),
  // The kernel's name and numbers of an interface, in `print detail` only:
  // `mac-address=... ifname="eth0" ifindex=7 id=1 last-link-down-time=...`
  // (real-output/print-interface-detail-v7-ifname.txt, a 7.x of October 2024;
  // issue 34 saw them on 7.6). Terse captures of 7.x lack them, and so does the
  // 7.22.3 tree's print property list: shown up to 7.16 here, the last release
  // a capture dates (no capture of 7.17 to 7.21 says either way).
  ro("ifname", "str", { releases: IFNAME, detailOnly: true, compute: (i) => kernel(i).ifname }),
  ro("ifindex", "int", { releases: IFNAME, detailOnly: true, compute: (i) => kernel(i).ifindex }),
  ro("id", "int", { releases: IFNAME, detailOnly: true, compute: (i) => kernel(i).id }),
  // a time prints unquoted: `last-link-up-time=sep/25/2018 06:30:04`
  // (print-interface-detail-v6.42-ansible.txt), `=2024-10-08 11:14:36` (-v7-ifname.txt)
  ro("last-link-up-time", "str", {
    bare: true,
    compute: (i, st) => (isTrue(i.running) ? st.nowText() : undefined),
  }),
  ro("link-downs", "int", { default: "0" }),
  ro("running", "bool", {
    compute: (i) => (isTrue(i.disabled) ? "false" : (i.running ?? "true")),
  }),
  ro("slave", "bool", {
    compute: (i, st) => String(bridgePorts(st).some((p) => p.interface === i.name)),
  }),
  DISABLED,
  DYNAMIC,
  COMMENT,
];

export const IF_FLAGS = [
  { ...F_DYNAMIC, group: 0 },
  { ...F_DISABLED, group: 1 },
  { ...F_RUNNING, group: 1 },
  { ch: "S", name: "slave", group: 2, test: (i: Item) => isTrue(i.slave) },
];

export function renameCascade(item: Item, st: RouterState, old: Item | undefined): void {
  if (!old || old.name === item.name) return;
  renameRefs(st, "/interface", old.name, item.name);
}

/** Updates every `ref` property pointing at `refPath` from `from` to `to`. */
export function renameRefs(st: RouterState, refPath: string, from: string, to: string): void {
  for (const m of st.menus.all) {
    const refs = m.props.filter((p) => p.type === "ref" && p.ref === refPath);
    if (!refs.length) continue;
    for (const it of st.stored(m)) {
      for (const p of refs) if (it[p.name] === from) it[p.name] = to;
    }
  }
}
/** First free `<base>N` interface name (`bridge1`, `vlan1`...). */
export function nextName(st: RouterState, base: string): string {
  const names = new Set(st.table("/interface").items.map((i) => i.name));
  for (let n = 1;; n++) if (!names.has(base + n)) return base + n;
}

/** True when the interface exists and is enabled (an address on it is in effect). */
export function ifaceUsable(st: RouterState, name: string): boolean {
  const it = st.findByKey("/interface", name);
  return !!it && !isTrue(it.disabled);
}
