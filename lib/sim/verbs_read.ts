/**
 * The read verbs of every menu: `find`, `get` and `print` (with `where`, `as-value`, `terse`,
 * `detail`...).
 *
 * @module
 */
import type { Statement } from "./ast.ts";
import { expectedEnd, fail } from "./errors.ts";
import type { Interp } from "./interp_types.ts";
import type { Arg, Args } from "./interp_types.ts";
import { plainText } from "./interp_types.ts";
import type { Item, MenuDef } from "./menu_types.ts";
import { itemToMap, propsOf, typed } from "./props.ts";
import { printList, printSingle } from "./print.ts";
import { id as typedId, isTrue, type Val } from "./values.ts";
import { onRelease } from "./releases.ts";

function lookup(menu: MenuDef, ip: Interp, it: Item) {
  const props = new Map(propsOf(menu, ip.st).map((p) => [p.name, p]));
  return (name: string): Val | undefined => {
    if (name === ".id") return typedId(it[".id"]);
    const p = props.get(name);
    if (!p) return undefined;
    const v = it[name];
    return v === undefined ? null : typed(p, v);
  };
}

/** Items of a menu filtered by `where` and by `name=value` arguments. */
export function filtered(ip: Interp, menu: MenuDef, args: Args, skipNamed: string[]): Item[] {
  let items = ip.st.list(menu);
  const props = new Map(propsOf(menu, ip.st).map((p) => [p.name, p]));
  for (const [name, a] of args.named) {
    if (skipNamed.includes(name)) continue;
    if (!props.has(name) && name !== ".id") throw expectedEnd(a.word.pos);
    const want = ip.argVal(a);
    const p = props.get(name);
    items = items.filter((it) => {
      const v = it[name];
      if (v === undefined) return want === "" || want === null;
      if (p?.type === "bool") {
        return typed(p, v) === (want === true || want === "yes" || want === "true");
      }
      return v === String(want);
    });
  }
  if (args.where) {
    const e = args.where;
    items = items.filter((it) => ip.whereMatch(e, lookup(menu, ip, it)));
  }
  return items;
}

export function find(ip: Interp, menu: MenuDef, args: Args): Val {
  noPositionalExceptWhere(args);
  return filtered(ip, menu, args, []).map((i) => typedId(i[".id"]));
}

function noPositionalExceptWhere(args: Args): void {
  if (args.positional.length) throw expectedEnd(args.positional[0].word.pos);
}

export function get(ip: Interp, menu: MenuDef, args: Args): Val {
  const st = ip.st;
  let it: Item;
  let rest: Arg[];
  if (menu.kind === "single") {
    it = st.list(menu)[0];
    rest = args.positional;
  } else {
    const numArg = args.named.get("number") ?? args.named.get("numbers");
    let ids: string[];
    if (numArg) {
      ids = ip.selectIds(menu, ip.argVal(numArg), true);
      rest = args.positional;
    } else {
      if (!args.positional.length) throw fail("missing value(s) of argument(s) number");
      ids = ip.selectIds(menu, ip.argVal(args.positional[0]), false);
      rest = args.positional.slice(1);
    }
    if (!ids.length) throw fail("no such item");
    // `get` takes one item: RouterOS 7 refuses a selection of several
    // (`/ip address get [find interface="ether1"] address` with two addresses on
    // ether1: "invalid internal item number", MikroTik forum thread 200263, 2023;
    // issue 34). The same script "was working perfectly on 6.x" there: RouterOS
    // 6 is left reading the first item (no 6.x capture of the case).
    if (ids.length > 1 && !st.v6) throw fail("invalid internal item number");
    it = st.list(menu).find((i) => i[".id"] === ids[0])!;
  }
  const vnArg = args.named.get("value-name") ?? rest[0];
  for (const [k, a] of args.named) {
    if (!["number", "numbers", "value-name"].includes(k)) throw expectedEnd(a.word.pos);
  }
  const extra = args.named.has("value-name") ? rest[0] : rest[1];
  if (extra) throw expectedEnd(extra.word.pos);
  if (!vnArg) return itemToMap(menu, st, it);
  const name = ip.argStr(vnArg);
  if (name === ".id" && menu.kind === "list") return typedId(it[".id"]);
  const p = propsOf(menu, st).find((x) => x.name === name);
  if (!p || p.secret) throw fail("input does not match any value of value-name");
  const v = it[name];
  return v === undefined ? null : typed(p, v);
}

const PRINT_WORDS = new Set([
  "detail",
  "terse",
  "brief",
  "count-only",
  "as-value",
  "without-paging",
  "show-ids",
  "value-list",
]);

export function print(ip: Interp, menu: MenuDef, args: Args, stmt: Statement): Val {
  const file = args.named.get("file");
  if (!file) return printTo(ip, menu, args, (l) => ip.print(l));
  // `print file=NAME` writes the output to NAME.txt instead of the console
  const name = ip.argStr(file);
  const lines: string[] = [];
  const v = printTo(ip, menu, args, (l) => lines.push(l));
  void stmt;
  ip.st.writeFile(
    name.endsWith(".txt") ? name : name + ".txt",
    lines.map((l) => l + "\n").join(""),
    ".txt file",
  );
  return v;
}

function printTo(ip: Interp, menu: MenuDef, args: Args, out: (line: string) => void): Val {
  const st = ip.st;
  const mods = new Set<string>();
  for (const a of args.positional) {
    const t = plainText(a.word);
    if (t === null || !PRINT_WORDS.has(t)) throw expectedEnd(a.word.pos);
    if (menu.kind === "single" && !["as-value", "without-paging", "value-list"].includes(t)) {
      throw expectedEnd(a.word.pos);
    }
    mods.add(t);
  }
  let proplist: string[] | undefined;
  for (const [k, a] of args.named) {
    if (k === "proplist" || k === ".proplist") proplist = ip.argStr(a).split(",").filter(Boolean);
    else if (k === "interval" || k === "file" || k === "follow" || k === "append") continue;
    else if (k === "numbers" || k === "from") continue;
    else if (menu.kind === "list" && propsOf(menu, st).some((p) => p.name === k)) continue;
    else throw expectedEnd(a.word.pos);
  }
  if (menu.kind === "single") {
    if (args.whereWord) throw expectedEnd(args.whereWord.pos);
    const it = st.list(menu)[0];
    if (mods.has("as-value")) return itemToMap(menu, st, it, proplist);
    for (const l of printSingle(st, menu, it, proplist)) out(l);
    return null;
  }
  let items = filtered(ip, menu, args, [
    "proplist",
    ".proplist",
    "interval",
    "file",
    "follow",
    "append",
    "numbers",
    "from",
  ]);
  const from = args.named.get("from") ?? args.named.get("numbers");
  if (from) {
    const ids = new Set(ip.selectIds(menu, ip.argVal(from), true));
    items = items.filter((i) => ids.has(i[".id"]));
  }
  if (mods.has("count-only")) {
    if (ip.cmdDepth === 0) out(String(items.length));
    return items.length;
  }
  if (mods.has("as-value")) return items.map((it) => itemToMap(menu, st, it, proplist));
  // Dynamic routes of RouterOS 7 get no number (`DAc dst-address=...` in
  // real-output/terse-ip-route-mixed-v6-v7.txt, `   DAd   dst-address=` in
  // print-ip-route-detail-v7-policy-routing-docs.txt); numbers count the others.
  const unnumbered = (it: Item) =>
    menu.unnumberedDynamic !== undefined && onRelease(st.release, menu.unnumberedDynamic) &&
    isTrue(it.dynamic);
  const numbered = items.filter((it) => !unnumbered(it));
  ip.lastPrint.set(menu.path, numbered.map((i) => i[".id"]));
  let n = 0;
  const labels = items.map((it) =>
    mods.has("show-ids") ? it[".id"] : unnumbered(it) ? "" : String(n++)
  );
  const mode = mods.has("terse") ? "terse" : mods.has("detail") ? "detail" : "table";
  for (
    const l of printList(st, menu, items, labels, { mode, showIds: mods.has("show-ids"), proplist })
  ) {
    out(l);
  }
  return null;
}
