/**
 * What the system records about itself: `/system/license` and
 * `/system/history`. Both are read-only: every 7.x tree in
 * `../shared/fidelity` gives `/system/license` only print and get (plus the
 * CHR's renew and generate-new-id, which a RouterBOARD lacks) and
 * `/system/history` only print, find and get.
 *
 * `/system/history`: `real-output/print-system-history-v7.15.2-exec-oxidized.txt`
 * and `...-v7.18.2-exec-oxidized.txt` (flags `U - UNDOABLE`, columns ACTION,
 * BY, POLICY, TIME, newest first; the default configuration's entries have
 * no BY, policy `write`, all within the second the router first booted:
 * `bridge port added`, `pool default-dhcp added`, `dhcp server defconf
 * added`, `address added`, `filter rule added`...), and
 * `real-output/print-system-history-detail-v7-docs.txt` (flag names
 * undoable, redoable, floating-undo). The entries' `redo`/`undo` scripts
 * are not shown by any capture of a default configuration, so they are left
 * out. RouterOS 6 has no capture: its entries are given without `time`.
 *
 * `/system/license`: no capture in `../shared`. The demo router is a
 * RouterBOARD (`hardware()` in `system.ts`), whose license is a software ID
 * and a level (`software-id`, `nlevel`, `features`; RouterOS 6 adds
 * `upgradable-to`), as MikroTik's License manual describes; a CHR's
 * `system-id`/`level` do not apply to it. The software ID is the one the
 * export header names (`# software id = ...`, as in
 * `real-output/export-v6.42.5-ansible.txt`).
 *
 * @module
 */
import type { Item, MenuDef } from "../menu_types.ts";
import { onRelease, V6, V7 } from "../releases.ts";
import type { RouterState } from "../state.ts";
import { isTrue } from "../values.ts";
import { fmtDateTime } from "../timefmt.ts";
import { ro, statusTable } from "./common.ts";
import { hardware } from "./system.ts";

/** `/system/license` of a RouterBOARD. */
const LICENSE: MenuDef = {
  path: "/system/license",
  kind: "single",
  verbs: ["print", "get"],
  noExport: true,
  props: [
    ro("software-id", "str", { compute: (_i, st) => hardware(st).softwareId }),
    ro("upgradable-to", "str", { releases: V6, compute: () => "v7.x" }),
    ro("nlevel", "int", { compute: () => "4" }),
    ro("features", "str", { compute: () => "" }),
  ],
  defaults: () => [{}],
};

/**
 * What the default configuration did, oldest first: a menu whose default
 * items each make one entry (`each`), or one entry when the menu exists.
 */
const DEFCONF: { path: string; action: string; each?: boolean }[] = [
  { path: "/interface/bridge/port", action: "bridge port added", each: true },
  { path: "/ip/pool", action: "pool default-dhcp added" },
  { path: "/ip/dhcp-server", action: "dhcp server defconf added" },
  { path: "/ip/dhcp-server/network", action: "dhcp network added" },
  { path: "/ip/address", action: "address added" },
  { path: "/ip/dns", action: "dns changed" },
  { path: "/ip/dns/static", action: "static dns entry added" },
  { path: "/ip/dhcp-client", action: "dhcp client added" },
  { path: "/interface/list/member", action: "interface list member added", each: true },
  { path: "/ip/firewall/nat", action: "nat rule added", each: true },
  { path: "/ip/firewall/filter", action: "filter rule added", each: true },
  { path: "/ipv6/firewall/filter", action: "filter6 rule added", each: true },
];

/** When the router first booted, on its own clock. */
function bootTime(st: RouterState): Date {
  return new Date(st.now().getTime() - (Date.now() - st.bootMs));
}

/** The history of the default configuration, newest first. */
function defconfHistory(st: RouterState): Item[] {
  const out: Item[] = [];
  const time = fmtDateTime(bootTime(st), st.legacyDates);
  for (const d of DEFCONF) {
    const menu = st.menus.byPath(d.path, st.release);
    if (!menu || !onRelease(st.release, menu.releases)) continue;
    const n = d.each ? menu.defaults?.(st).length ?? 0 : 1;
    for (let i = 0; i < n; i++) {
      out.push({
        ".id": "*" + (0x80000001 + out.length).toString(16).toUpperCase(),
        action: d.action,
        by: "",
        policy: "write",
        ...(st.v6 ? {} : { time }),
        undoable: "true",
        redoable: "false",
        "floating-undo": "false",
      });
    }
  }
  return out.reverse();
}

/** `/system/history`: the undoable changes, newest first. */
const HISTORY = statusTable({
  path: "/system/history",
  props: [
    ro("action", "str"),
    ro("by", "str"),
    ro("policy", "str"),
    ro("time", "str", { releases: V7 }),
    ro("undoable", "bool"),
    ro("redoable", "bool"),
    ro("floating-undo", "bool"),
  ],
  flags: [
    { ch: "U", name: "undoable", group: 0, test: (i) => isTrue(i.undoable) },
    { ch: "R", name: "redoable", group: 0, test: (i) => isTrue(i.redoable) },
    { ch: "F", name: "floating-undo", group: 0, test: (i) => isTrue(i["floating-undo"]) },
  ],
  columns: ["action", "by", "policy", "time"],
  columns6: ["action", "by", "policy"],
  dynamic: defconfHistory,
});

/** License and history. */
export const SYSTEM_RECORD_MENUS: MenuDef[] = [LICENSE, HISTORY];
