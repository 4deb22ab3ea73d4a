/**
 * A structured comparison of two parsed exports, menu by menu: items
 * added, removed, and changed (each changed argument with its old and new
 * value). Items are matched by what names them: the selector of a `set`
 * (`default-name=ether1`, `telnet`), the `name` of an `add`, or the menu's
 * natural key; unnamed items (firewall rules, addresses) by equal content,
 * then by order among those that resemble each other.
 *
 * @module
 */
import type { ExportCommand, ParsedExport } from "./export_parse.ts";

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

/** The differences in one menu. */
export interface MenuDiff {
  /** Menu path with slashes, e.g. `/ip/firewall/filter`. */
  menu: string;
  added: ConfigItem[];
  removed: ConfigItem[];
  changed: { key: string; fields: FieldChange[] }[];
}

/** The differences between two exports. */
export interface ConfigDiff {
  menus: MenuDiff[];
  added: number;
  removed: number;
  changed: number;
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

interface Built {
  keyed: Map<string, ConfigItem>;
  unkeyed: ConfigItem[];
}

function build(
  menu: string,
  commands: readonly ExportCommand[],
  opts: DiffOptions,
  dropFields: ReadonlySet<string> | undefined,
): Built {
  const keyed = new Map<string, ConfigItem>();
  const unkeyed: ConfigItem[] = [];
  const natural = opts.keyOf?.(menu);
  for (const c of commands) {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.values)) {
      if (dropFields?.has(k)) continue;
      values[k] = opts.ignoreValues?.length && sameValue(v, opts.ignoreValues) ? IGNORED : v;
    }
    let key: string | undefined;
    if (c.verb === "set") key = c.selector === undefined ? "settings" : `set ${c.selector}`;
    else if (c.verb !== "add") key = c.line;
    else if (values.name !== undefined && values.name !== IGNORED) key = `name=${values.name}`;
    else if (natural && values[natural] !== undefined && values[natural] !== IGNORED) {
      key = `${natural}=${values[natural]}`;
    }
    if (key === undefined) {
      unkeyed.push({ key: `#${unkeyed.length + 1}`, values });
      continue;
    }
    let unique = key;
    if (c.verb === "add") { for (let n = 2; keyed.has(unique); n++) unique = `${key} #${n}`; }
    const prev = keyed.get(unique);
    keyed.set(unique, { key: unique, values: { ...prev?.values, ...values } });
  }
  return { keyed, unkeyed };
}

function fieldChanges(a: Record<string, string>, b: Record<string, string>): FieldChange[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.filter((n) => a[n] !== b[n]).map((field) => ({
    field,
    ...(a[field] !== undefined ? { old: a[field] } : {}),
    ...(b[field] !== undefined ? { new: b[field] } : {}),
  }));
}

const canonical = (v: Record<string, string>) => JSON.stringify(Object.entries(v).sort());

/** Share of arguments two items have equal (of all either has). */
function likeness(a: Record<string, string>, b: Record<string, string>): number {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  if (!names.size) return 1;
  let same = 0;
  for (const n of names) if (a[n] === b[n]) same++;
  return same / names.size;
}

function diffMenu(menu: string, a: Built, b: Built): MenuDiff {
  const out: MenuDiff = { menu, added: [], removed: [], changed: [] };
  // A `set` missing on one side means defaults there: a change, not an item added or removed.
  const isSet = (key: string) => key === "settings" || key.startsWith("set ");
  for (const [key, item] of a.keyed) {
    const other = b.keyed.get(key);
    if (!other && !isSet(key)) out.removed.push(item);
    else {
      const fields = fieldChanges(item.values, other?.values ?? {});
      if (fields.length) out.changed.push({ key, fields });
    }
  }
  for (const [key, item] of b.keyed) {
    if (a.keyed.has(key)) continue;
    if (isSet(key)) out.changed.push({ key, fields: fieldChanges({}, item.values) });
    else out.added.push(item);
  }
  // Unnamed items: equal content first, then pairs that mostly agree, in order.
  const left = [...a.unkeyed];
  const right: ConfigItem[] = [];
  for (const item of b.unkeyed) {
    const at = left.findIndex((x) => canonical(x.values) === canonical(item.values));
    if (at >= 0) left.splice(at, 1);
    else right.push(item);
  }
  for (const item of right) {
    const at = left.findIndex((x) => likeness(x.values, item.values) >= 0.5);
    if (at < 0) {
      out.added.push(item);
      continue;
    }
    const [old] = left.splice(at, 1);
    out.changed.push({ key: item.key, fields: fieldChanges(old.values, item.values) });
  }
  out.removed.push(...left);
  return out;
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
  const menus: MenuDiff[] = [];
  for (const path of paths) {
    const drop = rules.fields.get(path);
    const d = diffMenu(
      path,
      build(path, from.menus.get(path) ?? [], opts, drop),
      build(path, to.menus.get(path) ?? [], opts, drop),
    );
    if (d.added.length || d.removed.length || d.changed.length) menus.push(d);
  }
  const count = (f: (d: MenuDiff) => number) => menus.reduce((n, d) => n + f(d), 0);
  return {
    menus,
    added: count((d) => d.added.length),
    removed: count((d) => d.removed.length),
    changed: count((d) => d.changed.length),
  };
}

/** The differences as short lines (`+ /ip/address #3 address=...`), for a tool's text. */
export function renderDiff(diff: ConfigDiff): string {
  if (!diff.menus.length) return "no differences";
  const args = (v: Record<string, string>) =>
    Object.entries(v).map(([k, x]) => `${k}=${JSON.stringify(x)}`).join(" ");
  const lines: string[] = [];
  for (const m of diff.menus) {
    lines.push(m.menu);
    for (const i of m.added) lines.push(`  + ${i.key} ${args(i.values)}`);
    for (const i of m.removed) lines.push(`  - ${i.key} ${args(i.values)}`);
    for (const c of m.changed) {
      lines.push(
        `  ~ ${c.key} ${
          c.fields.map((f) => `${f.field}: ${f.old ?? "(unset)"} -> ${f.new ?? "(unset)"}`).join(
            "; ",
          )
        }`,
      );
    }
  }
  return lines.join("\n");
}
