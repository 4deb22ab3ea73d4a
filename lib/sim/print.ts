/**
 * `print` output: v7 and v6 tables, `detail`, `terse` and singleton menus.
 * Tables and detail are for people (RouterOS truncates and wraps them);
 * terse and as-value are what scripts read.
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

/** Visible printable properties, in menu order. */
function printable(menu: MenuDef, st: RouterState, proplist?: string[]): PropDef[] {
  const fl = flagNames(menu);
  return propsOf(menu, st).filter((p) =>
    !p.secret && !p.noPrint && p.name !== "comment" &&
    (!fl.has(p.name) || proplist?.includes(p.name)) &&
    (!proplist || proplist.includes(p.name))
  );
}

/** Prints items as table/detail/terse. `labels` are the number column texts. */
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
  const flagW = Math.max(1, ...items.map((it) => allFlags.filter((f) => f.test(it, st)).length));
  if (o.mode === "detail" && allFlags.length) {
    out.push(legend(allFlags, false, st.v6 ? ", " : "; ") + " ");
  }
  const props = printable(menu, st, o.proplist);
  const numW = Math.max(2, ...labels.map((l) => l.length));
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const prefix = labels[i].padStart(numW) + " " +
      (allFlags.length
        ? allFlags.filter((f) => f.test(it, st)).map((f) => f.ch).join("").padEnd(flagW) + " "
        : "");
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
    for (const p of props) {
      const v = it[p.name];
      if (v === undefined) continue;
      const always = p.name === "name" || p.name === "default-name" ||
        (p.name === "type" && menu.path === "/interface");
      const shown = p.type === "str" ? quoteIfNeeded(v, always) : showValue(p, v);
      tokens.push(`${p.name}=${shown}`);
    }
    const indent = " ".repeat(prefix.length);
    let line = prefix;
    if (it.comment !== undefined && (!o.proplist || o.proplist.includes("comment"))) {
      out.push(prefix + ";;; " + it.comment);
      line = indent;
    }
    let first = true;
    for (const t of tokens) {
      if (!first && line.length + t.length + 1 > 79) {
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
