/**
 * A structured comparison of two parsed exports, menu by menu: items
 * added, removed, changed (each changed argument with its old and new
 * value) and, in ordered menus, moved. Items are matched by what names
 * them: the selector of a `set` (`default-name=ether1`, `telnet`), the
 * `name` of an `add`, or the menu's natural key. Unnamed items (firewall
 * rules, addresses) are aligned as `diff` aligns lines (`list_align.ts`):
 * in order where order matters (`ordered_menus.ts`), then paired by
 * likeness. A property means the same whether written in full or
 * abbreviated (the parser expands it), quoted or not, or left out where it
 * holds its default (`export_defaults.ts`).
 *
 * @module
 */
import { defaultsOf } from "./export_defaults.ts";
import type { ExportCommand, ParsedExport } from "./export_parse.ts";
import { alignLists, commonSubsequence } from "./list_align.ts";
import { isOrdered } from "./ordered_menus.ts";
import { parseRelease, type Release } from "./release.ts";

/** One item of a menu: what names it and its arguments. */
export interface ConfigItem {
  /** `name=bridge`, `set default-name=ether1`, `settings`, or `#3` (third unnamed item). */
  key: string;
  values: Record<string, string>;
}

/** One argument that differs; a side without a value had it unset (a default). */
export interface FieldChange {
  field: string;
  old?: string;
  new?: string;
}

/** An item whose arguments changed; `from` and `to` (1-based places) when it also moved. */
export interface ItemChange {
  key: string;
  fields: FieldChange[];
  from?: number;
  to?: number;
}

/**
 * An item of an ordered menu that changed place and nothing else: its
 * 1-based place among the menu's items of its kind on each side (`#n`
 * for unnamed items), and its arguments when nothing else names it.
 */
export interface ItemMove {
  key: string;
  from: number;
  to: number;
  values?: Record<string, string>;
}

/** The differences in one menu. */
export interface MenuDiff {
  /** Menu path with slashes, e.g. `/ip/firewall/filter`. */
  menu: string;
  added: ConfigItem[];
  removed: ConfigItem[];
  changed: ItemChange[];
  moved: ItemMove[];
}

/** The differences between two exports. */
export interface ConfigDiff {
  menus: MenuDiff[];
  added: number;
  removed: number;
  changed: number;
  moved: number;
}

/** What to match on and what to leave out. */
export interface DiffOptions {
  /** The natural key of a menu's items (`name` is always tried first). */
  keyOf?(menu: string): string | undefined;
  /** Menus (`/system/identity`) or a menu's arguments (`/ip/address address`) left out. */
  ignore?: readonly string[];
  /** Values treated as equal wherever they appear (e.g. each device's own address). */
  ignoreValues?: readonly string[];
}

/** `/ip address` or `ip/address` -> `/ip/address`. */
export function menuPath(text: string): string {
  return "/" + text.trim().split(/[\s/]+/).filter(Boolean).join("/");
}

/** An ignore entry: a menu, or a menu and one argument (`/ip/address address`). */
function ignoreRules(list: readonly string[]) {
  const menus = new Set<string>();
  const fields = new Map<string, Set<string>>();
  for (const entry of list) {
    const m = /^(.*?)(?:\s+([a-z0-9-]+))?$/.exec(entry.trim())!;
    // "/ip/address address": an argument, when a slash path of 2+ parts precedes it.
    if (m[2] && /^\/?[^\s/]+(\/[^\s/]+)+$/.test(m[1])) {
      const path = menuPath(m[1]);
      fields.set(path, (fields.get(path) ?? new Set()).add(m[2]));
    } else menus.add(menuPath(entry));
  }
  return { menus, fields };
}

/** Placeholder for a value the call said to ignore. */
export const IGNORED = "(ignored)";

function sameValue(value: string, ignored: readonly string[]): boolean {
  return ignored.some((x) => value === x || value.split("/")[0] === x.split("/")[0]);
}

/** One item as written (ignored arguments left out) and as compared (defaults applied). */
interface Entry {
  key: string;
  values: Record<string, string>;
  norm: Record<string, string>;
  /** 1-based place among the side's items of its kind (named adds, or unnamed adds). */
  place: number;
}

interface Built {
  keyed: Map<string, Entry>;
  /** Keys of the named `add` items, in export order. */
  order: string[];
  unkeyed: Entry[];
}

function build(
  menu: string,
  commands: readonly ExportCommand[],
  opts: DiffOptions,
  dropFields: ReadonlySet<string> | undefined,
  normalize: (v: Readonly<Record<string, string>>) => Record<string, string>,
): Built {
  const keyed = new Map<string, Entry>();
  const order: string[] = [];
  const unkeyed: Entry[] = [];
  const natural = opts.keyOf?.(menu);
  for (const c of commands) {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.values)) {
      if (dropFields?.has(k)) continue;
      values[k] = opts.ignoreValues?.length && sameValue(v, opts.ignoreValues) ? IGNORED : v;
    }
    const norm = normalize(values);
    let key: string | undefined;
    if (c.verb === "set") key = c.selector === undefined ? "settings" : `set ${c.selector}`;
    else if (c.verb !== "add") key = c.line;
    else if (norm.name !== undefined && norm.name !== IGNORED) key = `name=${norm.name}`;
    else if (natural && norm[natural] !== undefined && norm[natural] !== IGNORED) {
      key = `${natural}=${norm[natural]}`;
    }
    if (key === undefined) {
      const place = unkeyed.length + 1;
      unkeyed.push({ key: `#${place}`, values, norm, place });
      continue;
    }
    let unique = key;
    if (c.verb === "add") {
      for (let n = 2; keyed.has(unique); n++) unique = `${key} #${n}`;
      order.push(unique);
    }
    const prev = keyed.get(unique);
    keyed.set(unique, {
      key: unique,
      values: { ...prev?.values, ...values },
      norm: { ...prev?.norm, ...norm },
      place: c.verb === "add" ? order.length : 0,
    });
  }
  return { keyed, order, unkeyed };
}

/** The arguments that differ as compared, shown as written (or as the default they hold). */
function fieldChanges(a: Entry | undefined, b: Entry | undefined): FieldChange[] {
  const an = a?.norm ?? {};
  const bn = b?.norm ?? {};
  const names = [...new Set([...Object.keys(an), ...Object.keys(bn)])].sort();
  return names.filter((n) => an[n] !== bn[n]).map((field) => {
    const old = a?.values[field] ?? an[field];
    const now = b?.values[field] ?? bn[field];
    return {
      field,
      ...(old !== undefined ? { old } : {}),
      ...(now !== undefined ? { new: now } : {}),
    };
  });
}

const canonical = (v: Record<string, string>) => JSON.stringify(Object.entries(v).sort());

/** Arguments that describe a rule rather than select or act: they weigh less in likeness. */
const DESCRIPTIVE = new Set(["comment", "disabled", "log", "log-prefix"]);

/**
 * Weighted share of the arguments either item writes that the two hold
 * equal: a rule whose comment alone changed stays nearly the same rule.
 */
function likeness(a: Entry, b: Entry): number {
  let same = 0;
  let all = 0;
  for (const n of new Set([...Object.keys(a.values), ...Object.keys(b.values)])) {
    const w = DESCRIPTIVE.has(n) ? 0.25 : 1;
    all += w;
    if (a.norm[n] === b.norm[n]) same += w;
  }
  return all === 0 ? 1 : same / all;
}

function diffMenu(menu: string, a: Built, b: Built): MenuDiff {
  const out: MenuDiff = { menu, added: [], removed: [], changed: [], moved: [] };
  const item = (e: Entry): ConfigItem => ({ key: e.key, values: e.values });
  const ordered = isOrdered(menu);
  // Named items of an ordered menu that changed place among those on both sides.
  const placed = new Map<string, { from: number; to: number }>();
  if (ordered) {
    const common = a.order.filter((k) => b.keyed.has(k));
    const newOrder = b.order.filter((k) => a.keyed.has(k));
    const kept = new Set(commonSubsequence(common, newOrder).map(([i]) => common[i]));
    for (const k of common) {
      if (!kept.has(k)) placed.set(k, { from: a.keyed.get(k)!.place, to: b.keyed.get(k)!.place });
    }
  }
  // A `set` missing on one side means defaults there: a change, not an item added or removed.
  const isSet = (key: string) => key === "settings" || key.startsWith("set ");
  for (const [key, e] of a.keyed) {
    const other = b.keyed.get(key);
    if (!other && !isSet(key)) {
      out.removed.push(item(e));
      continue;
    }
    const fields = fieldChanges(e, other);
    const move = placed.get(key);
    if (fields.length) out.changed.push({ key, fields, ...move });
    else if (move) out.moved.push({ key, ...move });
  }
  for (const [key, e] of b.keyed) {
    if (a.keyed.has(key)) continue;
    if (isSet(key)) out.changed.push({ key, fields: fieldChanges(undefined, e) });
    else out.added.push(item(e));
  }
  // Unnamed items: aligned as diff aligns lines, then paired by likeness.
  const align = alignLists(
    a.unkeyed.map((e) => canonical(e.norm)),
    b.unkeyed.map((e) => canonical(e.norm)),
    { ordered, likeness: (i, j) => likeness(a.unkeyed[i], b.unkeyed[j]) },
  );
  for (const [i, j] of align.moved) {
    const e = b.unkeyed[j];
    out.moved.push({ key: e.key, from: a.unkeyed[i].place, to: e.place, values: e.values });
  }
  for (const c of align.changed) {
    const [old, now] = [a.unkeyed[c.from], b.unkeyed[c.to]];
    out.changed.push({
      key: now.key,
      fields: fieldChanges(old, now),
      ...(c.moved ? { from: old.place, to: now.place } : {}),
    });
  }
  out.added.push(...align.added.map((j) => item(b.unkeyed[j])));
  out.removed.push(...align.removed.map((i) => item(a.unkeyed[i])));
  return out;
}

/** The release an export's header names, if any. */
function releaseOf(e: ParsedExport): Release | undefined {
  return (e.version && parseRelease(e.version)) || undefined;
}

/** Compare `from` with `to`, menu by menu (menus in the order they first appear). */
export function diffExports(
  from: ParsedExport,
  to: ParsedExport,
  opts: DiffOptions = {},
): ConfigDiff {
  const rules = ignoreRules(opts.ignore ?? []);
  const paths = [...new Set([...from.menus.keys(), ...to.menus.keys()])]
    .filter((p) => !rules.menus.has(p));
  const [rFrom, rTo] = [releaseOf(from), releaseOf(to)];
  const menus: MenuDiff[] = [];
  for (const path of paths) {
    const drop = rules.fields.get(path);
    const d = diffMenu(
      path,
      build(path, from.menus.get(path) ?? [], opts, drop, defaultsOf(path, rFrom, rTo)),
      build(path, to.menus.get(path) ?? [], opts, drop, defaultsOf(path, rTo, rFrom)),
    );
    if (d.added.length || d.removed.length || d.changed.length || d.moved.length) menus.push(d);
  }
  const count = (f: (d: MenuDiff) => number) => menus.reduce((n, d) => n + f(d), 0);
  return {
    menus,
    added: count((d) => d.added.length),
    removed: count((d) => d.removed.length),
    changed: count((d) => d.changed.length),
    moved: count((d) => d.moved.length),
  };
}

/**
 * True when two exports describe the same configuration, however spelled:
 * no menu differs and the lines outside menus (global scripts) are equal.
 */
export function sameConfiguration(a: ParsedExport, b: ParsedExport): boolean {
  return diffExports(a, b).menus.length === 0 && a.other.join("\n") === b.other.join("\n");
}

/** The differences as short lines (`+ /ip/address #3 address=...`), for a tool's text. */
export function renderDiff(diff: ConfigDiff): string {
  if (!diff.menus.length) return "no differences";
  const args = (v: Record<string, string>) =>
    Object.entries(v).map(([k, x]) => `${k}=${JSON.stringify(x)}`).join(" ");
  const place = (c: { from?: number; to?: number }) =>
    c.from === undefined ? "" : ` (moved from ${c.from} to ${c.to})`;
  const lines: string[] = [];
  for (const m of diff.menus) {
    lines.push(m.menu);
    for (const i of m.added) lines.push(`  + ${i.key} ${args(i.values)}`);
    for (const i of m.removed) lines.push(`  - ${i.key} ${args(i.values)}`);
    for (const c of m.changed) {
      const fields = c.fields.map((f) =>
        `${f.field}: ${f.old ?? "(unset)"} -> ${f.new ?? "(unset)"}`
      );
      lines.push(`  ~ ${c.key}${place(c)} ${fields.join("; ")}`);
    }
    for (const i of m.moved) {
      lines.push(
        `  > ${i.key} moved from ${i.from} to ${i.to}${i.values ? " " + args(i.values) : ""}`,
      );
    }
  }
  return lines.join("\n");
}
