/**
 * `print` output: v7 and v6 tables, `detail`, `terse` and singleton menus.
 * Tables and detail are for people (RouterOS truncates and wraps them);
 * terse and as-value are what scripts read.
 *
 * @module
 */
import type { FlagDef, Item, MenuDef, PropDef } from "./menu_types.ts";
import { onRelease } from "./releases.ts";
import type { RouterState } from "./state.ts";
import { propsOf, quoteIfNeeded, showValue } from "./props.ts";

/** How to print a list. */
export interface PrintOpts {
  mode: "table" | "detail" | "terse";
  showIds: boolean;
  proplist?: string[];
}

function flagNames(menu: MenuDef): Set<string> {
  return new Set((menu.flags ?? []).map((f) => f.name));
}

/** The flags a version shows. */
function flagsOf(menu: MenuDef, st: RouterState): FlagDef[] {
  return (menu.flags ?? []).filter((f) => onRelease(st.release, f.releases));
}

function groupsOf(flags: FlagDef[]): number[] {
  return [...new Set(flags.map((f) => f.group))].sort((a, b) => a - b);
}

function flagCell(flags: FlagDef[], groups: number[], it: Item, st: RouterState): string {
  return groups.map((g) => flags.find((f) => f.group === g && f.test(it, st))?.ch ?? " ").join("");
}

function legend(flags: FlagDef[], upper: boolean, groupSep: string): string {
  const groups = groupsOf(flags);
  return "Flags: " +
    groups.map((g) =>
      flags.filter((f) => f.group === g).map((f) =>
        `${f.ch} - ${upper ? f.name.toUpperCase() : f.name}`
      )
        .join(", ")
    ).join(groupSep);
}

/** Visible printable properties, in print order. */
function printable(
  menu: MenuDef,
  st: RouterState,
  proplist?: string[],
  detail = false,
): PropDef[] {
  const fl = flagNames(menu);
  const props = propsOf(menu, st).filter((p) =>
    !p.secret && !p.noPrint && p.name !== "comment" && (detail || !p.detailOnly) &&
    (!fl.has(p.name) || proplist?.includes(p.name)) &&
    (!proplist || proplist.includes(p.name))
  );
  const order = menu.printOrder?.(st);
  if (!order) return props;
  const rank = (p: PropDef) => {
    const i = order.indexOf(p.name);
    return i < 0 ? order.length + props.indexOf(p) : i;
  };
  return [...props].sort((a, b) => rank(a) - rank(b));
}

/**
 * The flag block of one item: one column per flag group, holding the letter
 * of the flag of that group the item has, or a blank. Two flags of one group
 * that both hold are both printed and push the rest of the line right
 * (` 1 XI   interface=` of a port both disabled and inactive beside ` 4 I
 * interface=`, a v6 `/interface bridge port print terse` of a public
 * capture, devicemanager test fixture of a RB2011iL). Columns are kept
 * whether or not any item has their flags (` 0     interface=` there;
 * `3 DL   mac-address=` in real-output/terse-bridge-host-v7.txt).
 */
function flagBlock(flags: FlagDef[], groups: number[], it: Item, st: RouterState): string {
  return groups.map((g) =>
    flags.filter((f) => f.group === g && f.test(it, st)).map((f) => f.ch).join("") || " "
  ).join("");
}

/**
 * Width of the number column of `print detail` and `print terse`: right
 * aligned, at least two wide on RouterOS 6 (` 0 D address=`:
 * terse-address-list-v4.txt, terse-ip-arp.txt, print-ip-address-detail-v6.42-ansible.txt)
 * and in RouterOS 7 detail (` 0 DG address=` of a single item in
 * print-ipv6-route-detail-v7-docs.txt, ` 0  As   dst-address=` in
 * print-ip-route-detail-v7-policy-routing-docs.txt); as wide as the longest
 * number in RouterOS 7 terse (`0 D E  mac-address=` in terse-bridge-host-v7.txt,
 * `0 SAC protocol=` in terse-firewall-connection-v7.txt, `0 R name=wg1` in
 * terse-wireguard-v7.txt).
 */
function numberWidth(st: RouterState, mode: "detail" | "terse", labels: string[]): number {
  const min = st.v6 || mode === "detail" ? 2 : 1;
  return Math.max(min, ...labels.map((l) => l.length));
}

/**
 * Prints items as table/detail/terse. `labels` are the number column texts.
 * `terse` wins over `detail`: `print detail terse` prints one line per item
 * as `print terse` does (issue 34, on real 6.x and 7.x; a v6 `interface vlan
 * print detail terse` of the public capture above is one line per item).
 */
export function printList(
  st: RouterState,
  menu: MenuDef,
  items: Item[],
  labels: string[],
  o: PrintOpts,
): string[] {
  if (o.mode === "table" && menu.printer) return menu.printer(items, st);
  if (o.mode === "table") return printTable(st, menu, items, labels, o);
  const out: string[] = [];
  const allFlags = flagsOf(menu, st);
  const groups = groupsOf(allFlags);
  if (o.mode === "detail" && allFlags.length) {
    out.push(legend(allFlags, false, st.v6 ? ", " : "; ") + " ");
  }
  const props = printable(menu, st, o.proplist, o.mode === "detail");
  const numW = numberWidth(st, o.mode, labels);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const prefix = labels[i].padStart(numW) + " " +
      (groups.length ? flagBlock(allFlags, groups, it, st) + " " : "");
    const tokens: string[] = [];
    if (o.mode === "terse") {
      if (it.comment !== undefined && (!o.proplist || o.proplist.includes("comment"))) {
        tokens.push(`comment=${it.comment}`);
      }
      for (const p of props) {
        if (it[p.name] !== undefined) tokens.push(`${p.name}=${showValue(p, it[p.name])}`);
      }
      out.push(prefix + tokens.join(" "));
      continue;
    }
    // RouterOS 7 writes a property of the group of the one before it by its tail,
    // as exports do: `configuration.tx-power=17 .ssid="Korona-wifi-2" .mode=ap` (a
    // public 7.23.2 `/interface wifi print detail`)
    let group: string | undefined;
    for (const p of props) {
      const v = it[p.name];
      if (v === undefined) continue;
      const dot = p.name.lastIndexOf(".");
      const g = dot > 0 ? p.name.slice(0, dot) : undefined;
      const name = !st.v6 && g !== undefined && g === group ? p.name.slice(dot) : p.name;
      group = g;
      // quoted whatever they hold: `name="ether1" default-name="ether1" type="ether"`
      // and `ifname="eth0"` (real-output/print-interface-detail-v7-ifname.txt)
      const always = p.name === "name" || p.name === "default-name" || p.name === "ifname" ||
        (p.name === "type" && menu.path === "/interface");
      const shown = p.type === "str" && !p.bare ? quoteIfNeeded(v, always) : showValue(p, v);
      tokens.push(`${name}=${shown}`);
    }
    const indent = " ".repeat(prefix.length);
    let line = prefix;
    if (it.comment !== undefined && (!o.proplist || o.proplist.includes("comment"))) {
      out.push(prefix + ";;; " + it.comment);
      line = indent;
    }
    // a property goes on the line while it stays within 80 characters (` 0  R
    // name="ether1" ... mtu=1500 actual-mtu=1500` is 80 long in
    // real-output/print-interface-detail-v6.42-ansible.txt; ` scope=30` after 74
    // goes to the next line in print-ip-route-detail-v6-ansible.txt)
    let first = true;
    for (const t of tokens) {
      if (!first && line.length + t.length > 80) {
        out.push(line);
        line = indent;
        first = true;
      }
      line += t + " ";
      first = false;
    }
    out.push(line);
    out.push("");
  }
  return out;
}

function printTable(
  st: RouterState,
  menu: MenuDef,
  items: Item[],
  labels: string[],
  o: PrintOpts,
): string[] {
  const out: string[] = [];
  if (!items.length && !st.v6) return out;
  const allFlags = flagsOf(menu, st);
  const byName = new Map(propsOf(menu, st).map((p) => [p.name, p]));
  let cols = (st.v6 ? menu.columns6 ?? menu.columns : menu.columns) ?? [];
  if (menu.dynColumns && !st.v6) {
    cols = menu.dynColumns.filter((c) => items.some((it) => it[c] !== undefined && it[c] !== ""));
  }
  if (o.proplist) cols = o.proplist.filter((c) => byName.has(c) && c !== "comment");
  cols = cols.filter((c) => byName.has(c));
  let flags: FlagDef[];
  if (st.v6) {
    flags = allFlags;
    if (flags.length) out.push(legend(flags, false, ", ") + " ");
  } else {
    flags = allFlags.filter((f) => items.some((it) => f.test(it, st)));
    if (flags.length) out.push(legend(flags, true, "; "));
    if (cols.length) out.push("Columns: " + cols.map((c) => c.toUpperCase()).join(", "));
  }
  const groups = groupsOf(flags);
  const cells = items.map((it) => cols.map((c) => showValue(byName.get(c), it[c] ?? "")));
  const widths = cols.map((c, j) => Math.max(c.length, ...cells.map((r) => r[j].length)));
  const numW = Math.max(st.v6 ? 2 : 1, ...labels.map((l) => l.length));
  const flagW = st.v6 ? Math.max(groups.length, 1) : groups.length;
  const hasFlagCol = st.v6 ? allFlags.length > 0 : flagW > 0;
  const row = (num: string, fl: string, vals: string[]) =>
    num.padStart(numW) + " " + (hasFlagCol ? fl.padEnd(flagW) + " " : "") +
    vals.map((v, j) => {
      const right = byName.get(cols[j])?.type === "int" && v !== cols[j].toUpperCase();
      return right ? v.padStart(widths[j]) : v.padEnd(widths[j]);
    }).join("  ");
  out.push(row("#", "", cols.map((c) => c.toUpperCase())).trimEnd());
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const fl = flagCell(flags, groups, it, st);
    if (it.comment !== undefined && it.comment !== "") {
      if (hasFlagCol) {
        out.push(
          (labels[i].padStart(numW) + " " + fl.padEnd(flagW) + " " + ";;; " + it.comment).trimEnd(),
        );
        out.push(row("", "", cells[i]).trimEnd());
        continue;
      }
      out.push(";;; " + it.comment);
    }
    out.push(row(labels[i], fl, cells[i]).trimEnd());
  }
  return out;
}

/** Prints a singleton menu: `name: value` lines right-aligned on the colon. */
export function printSingle(
  st: RouterState,
  menu: MenuDef,
  it: Item,
  proplist?: string[],
): string[] {
  const props = propsOf(menu, st).filter((p) =>
    !p.secret && !p.noPrint && it[p.name] !== undefined && (!proplist || proplist.includes(p.name))
  );
  const w = Math.max(0, ...props.map((p) => p.name.length));
  return props.map((p) => `  ${p.name.padStart(w)}: ${showValue(p, it[p.name])}`);
}
