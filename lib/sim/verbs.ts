/**
 * The generic menu verbs: add, set, unset, remove, enable, disable, comment,
 * move, find, get and print. They work on any menu from its description and
 * validate everything before changing anything, so a failed command leaves
 * the state untouched.
 *
 * @module
 */
import { onRelease } from "./releases.ts";
import type { Statement } from "./ast.ts";
import { at, expectedEnd, fail } from "./errors.ts";
import type { Interp } from "./interp_types.ts";
import type { Arg, Args } from "./interp_types.ts";
import { plainText } from "./interp_types.ts";
import type { Item, MenuDef, PropDef } from "./menu_types.ts";
import { convertInput, propsOf } from "./props.ts";
import type { RouterState } from "./state.ts";
import { id as typedId, type Val } from "./values.ts";

import { find, get, print } from "./verbs_read.ts";

const WRITE_VERBS = new Set([
  "add",
  "set",
  "unset",
  "remove",
  "enable",
  "disable",
  "comment",
  "move",
]);

/** Verbs a menu offers (see `MenuDef.verbs`). */
export function verbsOf(menu: MenuDef, st: RouterState): string[] {
  const r = st.release;
  const has = (name: string) =>
    menu.props.some((p) => p.name === name && !p.ro && onRelease(r, p.releases));
  let v: string[];
  if (menu.verbs) v = menu.verbs;
  else if (menu.kind === "single") v = ["set", "print", "get"];
  else {
    v = ["print", "find", "get", "set"];
    if (menu.unset && onRelease(r, menu.unset)) v.push("unset");
    if (has("disabled")) v.push("enable", "disable");
    if (has("comment")) v.push("comment");
    if (!menu.noAdd) v.push("add", "remove");
    if (menu.ordered) v.push("move");
  }
  return v.filter((x) => x !== "add" || onRelease(r, menu.addReleases));
}

/** Runs a generic verb. */
export function runVerb(ip: Interp, menu: MenuDef, verb: string, args: Args, stmt: Statement): Val {
  if (WRITE_VERBS.has(verb)) {
    ip.requirePolicy("write");
    if (menu.policy) ip.requirePolicy("policy");
  }
  switch (verb) {
    case "add":
      return add(ip, menu, args);
    case "set":
      return set(ip, menu, args);
    case "unset":
      return unset(ip, menu, args);
    case "remove":
      return remove(ip, menu, args);
    case "enable":
    case "disable":
      return enableDisable(ip, menu, args, verb === "disable");
    case "comment":
      return comment(ip, menu, args);
    case "move":
      return move(ip, menu, args);
    case "find":
      return find(ip, menu, args);
    case "get":
      return get(ip, menu, args);
    case "print":
      return print(ip, menu, args, stmt);
  }
  return null;
}

/** Properties a user can give to add/set. */
/** Properties a write takes on the router's release (`set` also follows `setReleases`). */
function writable(menu: MenuDef, st: RouterState, verb = "add"): Map<string, PropDef> {
  return new Map(
    propsOf(menu, st)
      .filter((p) => !p.ro && !p.compute)
      .filter((p) => verb !== "set" || onRelease(st.release, p.setReleases))
      .map((p) => [p.name, p]),
  );
}

function noPositional(args: Args, from = 0): void {
  if (args.positional.length > from) throw expectedEnd(args.positional[from].word.pos);
  if (args.whereWord) throw expectedEnd(args.whereWord.pos);
}

/** Evaluates and converts every property argument (validation before any change). */
function applyArgs(
  ip: Interp,
  menu: MenuDef,
  args: Args,
  item: Item,
  skip: string[],
  verb: "add" | "set" = "set",
): void {
  const props = writable(menu, ip.st, verb);
  const pending: [PropDef, Arg][] = [];
  for (const [name, a] of args.named) {
    if (skip.includes(name)) continue;
    const p = props.get(name);
    if (!p) {
      if (name === "numbers") throw at("bad parameter numbers", a.word.pos);
      throw expectedEnd(a.word.pos);
    }
    pending.push([p, a]);
  }
  const values = pending.map(([p, a]) => [p, ip.argStr(a)] as const);
  for (const [p, v] of values) item[p.name] = v;
  for (const [p, v] of values) item[p.name] = convertInput(p, v, item, ip.st);
}

function checkUnique(menu: MenuDef, st: RouterState, item: Item): void {
  for (const u of menu.unique ?? []) {
    const clash = st.stored(menu.table ? st.menus.byPath(menu.table) ?? menu : menu).some((o) =>
      o[".id"] !== item[".id"] && u.props.every((p) => o[p] !== undefined && o[p] === item[p])
    );
    if (clash) throw fail(u.error);
  }
}

/** Bare switch words (`add blackhole`) become `name=yes`. */
function withSwitches(ip: Interp, menu: MenuDef, args: Args): Args {
  if (!menu.switches) return args;
  const props = writable(menu, ip.st);
  const named = new Map(args.named);
  const positional = args.positional.filter((a) => {
    const t = plainText(a.word);
    if (t === null || !menu.switches!.includes(t) || !props.has(t)) return true;
    named.set(t, { name: t, word: a.word, pieces: [{ k: "text", v: "yes", pos: a.word.pos }] });
    return false;
  });
  return { ...args, named, positional };
}

function add(ip: Interp, menu: MenuDef, args0: Args): Val {
  const st = ip.st;
  const args = withSwitches(ip, menu, args0);
  noPositional(args);
  const item: Item = {};
  applyArgs(ip, menu, args, item, ["copy-from", "place-before"], "add");
  const copyFrom = args.named.get("copy-from");
  if (copyFrom) {
    const [src] = ip.selectIds(menu, ip.argVal(copyFrom), true);
    const orig = st.stored(menu).find((i) => i[".id"] === src);
    if (orig) {
      for (const [k, v] of Object.entries(orig)) {
        if (k !== ".id" && item[k] === undefined) item[k] = v;
      }
    }
  }
  if (menu.match) Object.assign(item, menu.match);
  const missing = propsOf(menu, st).filter((p) => p.required && item[p.name] === undefined)
    .map((p) => p.name);
  if (missing.length) throw fail(`missing value(s) of argument(s) ${missing.join(", ")}`);
  st.fillDefaults(menu, item);
  checkUnique(menu, st, item);
  menu.check?.(item, st, undefined);
  const t = st.tableOf(menu);
  const id = st.newId(t);
  const stored: Item = { ".id": id, ...item };
  const before = args.named.get("place-before");
  if (before && menu.ordered) {
    const [bid] = ip.selectIds(menu, ip.argVal(before), true);
    const idx = t.items.findIndex((i) => i[".id"] === bid);
    t.items.splice(idx < 0 ? t.items.length : idx, 0, stored);
  } else t.items.push(stored);
  menu.afterChange?.(stored, st, undefined);
  st.touch();
  return typedId(id);
}

/** Selects the items a verb works on (`numbers`, positional or named). */
function targets(ip: Interp, menu: MenuDef, args: Args): { ids: string[]; rest: Arg[] } {
  const named = args.named.get("numbers");
  if (named) return { ids: ip.selectIds(menu, ip.argVal(named), true), rest: args.positional };
  if (!args.positional.length) throw fail("missing value(s) of argument(s) numbers");
  return {
    ids: ip.selectIds(menu, ip.argVal(args.positional[0]), false),
    rest: args.positional.slice(1),
  };
}

function storedById(ip: Interp, menu: MenuDef, id: string): Item {
  const it = ip.st.stored(menu).find((i) => i[".id"] === id);
  if (!it) throw fail("failure: can not change dynamic");
  return it;
}

/** Validates all changes, then stores them. */
function commit(ip: Interp, menu: MenuDef, changes: [Item, Item][]): void {
  const st = ip.st;
  for (const [orig, next] of changes) {
    checkUnique(menu, st, next);
    menu.check?.(next, st, orig);
  }
  for (const [orig, next] of changes) {
    const old = { ...orig };
    for (const k of Object.keys(orig)) delete orig[k];
    Object.assign(orig, next);
    menu.afterChange?.(orig, st, old);
  }
  if (changes.length) st.touch();
}

function set(ip: Interp, menu: MenuDef, args0: Args): Val {
  const args = withSwitches(ip, menu, args0);
  if (menu.kind === "single") {
    noPositional(args);
    const t = ip.st.tableOf(menu);
    const orig = t.items[0];
    const next = { ...orig };
    applyArgs(ip, menu, args, next, []);
    commit(ip, menu, [[orig, next]]);
    return null;
  }
  const { ids, rest } = targets(ip, menu, args);
  if (rest.length) throw expectedEnd(rest[0].word.pos);
  if (args.whereWord) throw expectedEnd(args.whereWord.pos);
  const changes: [Item, Item][] = [];
  for (const id of ids) {
    const orig = storedById(ip, menu, id);
    const next = { ...orig };
    applyArgs(ip, menu, args, next, ["numbers"]);
    changes.push([orig, next]);
  }
  if (!ids.length) applyArgs(ip, menu, args, {}, ["numbers"]);
  commit(ip, menu, changes);
  return null;
}

function unset(ip: Interp, menu: MenuDef, args: Args): Val {
  const { ids, rest } = targets(ip, menu, args);
  const vn = args.named.get("value-name") ?? rest[0];
  if (!vn) throw fail("missing value(s) of argument(s) value-name");
  const name = ip.argStr(vn);
  const p = writable(menu, ip.st).get(name);
  if (!p || p.required) throw fail("input does not match any value of value-name");
  const changes: [Item, Item][] = ids.map((id) => {
    const orig = storedById(ip, menu, id);
    const next = { ...orig };
    delete next[name];
    return [orig, next];
  });
  commit(ip, menu, changes);
  return null;
}

function remove(ip: Interp, menu: MenuDef, args: Args): Val {
  const { ids, rest } = targets(ip, menu, args);
  if (rest.length) throw expectedEnd(rest[0].word.pos);
  const st = ip.st;
  const t = st.tableOf(menu);
  const items = ids.map((id) => storedById(ip, menu, id));
  for (const it of items) menu.checkRemove?.(it, st);
  for (const it of items) {
    const idx = t.items.indexOf(it);
    if (idx >= 0) t.items.splice(idx, 1);
    menu.afterRemove?.(it, st);
  }
  if (items.length) st.touch();
  return null;
}

function enableDisable(ip: Interp, menu: MenuDef, args: Args, disable: boolean): Val {
  const { ids, rest } = targets(ip, menu, args);
  if (rest.length) throw expectedEnd(rest[0].word.pos);
  for (const [k, a] of args.named) if (k !== "numbers") throw expectedEnd(a.word.pos);
  const changes: [Item, Item][] = ids.map((id) => {
    const orig = storedById(ip, menu, id);
    return [orig, { ...orig, disabled: String(disable) }];
  });
  commit(ip, menu, changes);
  return null;
}

function comment(ip: Interp, menu: MenuDef, args: Args): Val {
  const { ids, rest } = targets(ip, menu, args);
  if (rest.length) throw expectedEnd(rest[0].word.pos);
  const c = args.named.get("comment");
  for (const [k, a] of args.named) {
    if (k !== "numbers" && k !== "comment") throw expectedEnd(a.word.pos);
  }
  const text = c ? ip.argStr(c) : "";
  commit(
    ip,
    menu,
    ids.map((id) => {
      const orig = storedById(ip, menu, id);
      return [orig, { ...orig, comment: text }];
    }),
  );
  return null;
}

function move(ip: Interp, menu: MenuDef, args: Args): Val {
  const { ids, rest } = targets(ip, menu, args);
  const destArg = args.named.get("destination") ?? rest[0];
  if (rest.length > (args.named.has("destination") ? 0 : 1)) {
    throw expectedEnd(rest[args.named.has("destination") ? 0 : 1].word.pos);
  }
  const t = ip.st.tableOf(menu);
  const moving = ids.map((id) => storedById(ip, menu, id));
  let dest: Item | undefined;
  if (destArg) {
    const [d] = ip.selectIds(menu, ip.argVal(destArg), !!args.named.get("destination"));
    dest = storedById(ip, menu, d);
  }
  for (const it of moving) t.items.splice(t.items.indexOf(it), 1);
  let idx = dest ? t.items.indexOf(dest) : t.items.length;
  if (dest && moving.includes(dest)) idx = t.items.length;
  t.items.splice(idx, 0, ...moving);
  ip.st.touch();
  return null;
}
