/**
 * Property values: checking input against a property's type, storing it as
 * RouterOS does, and showing it (print, export, as-value).
 *
 * @module
 */
import type { Item, MenuDef, PropDef } from "./menu_types.ts";
import { onRelease } from "./releases.ts";
import type { RouterState } from "./state.ts";
import { fail, RosError } from "./errors.ts";
import { isIp6, isMac, isPrefix6, parseIp4, parsePrefix4 } from "./ipaddr.ts";
import { fmtInterval, parseInterval, parseTimeNs } from "./timefmt.ts";
import { id, isTrue, numOf, sortedMap, Time, type Val } from "./values.ts";

const invalid = (p: PropDef) => fail(`invalid value for argument ${p.name}`);
const noMatch = (p: PropDef) => fail(`input does not match any value of ${p.name}`);

/** Checks and normalises an input value; throws RosError when refused. */
export function convertInput(p: PropDef, raw: string, item: Item, st: RouterState): string {
  let v = raw;
  switch (p.type) {
    case "bool": {
      if (v === "yes" || v === "true") v = "true";
      else if (v === "no" || v === "false") v = "false";
      else throw invalid(p);
      break;
    }
    case "int":
    case "num": {
      const m = /^(-?\d+)(.*)$/.exec(v);
      if (!m) {
        if (p.values?.includes(v)) break;
        throw invalid(p);
      }
      if (m[2] !== "") throw fail(`value of ${p.name} contains invalid trailing characters`);
      const n = Number(m[1]);
      if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) {
        throw invalid(p);
      }
      v = String(n);
      break;
    }
    case "ip":
      if (parseIp4(v) === null && !(p.values?.includes(v))) throw invalid(p);
      break;
    case "prefix": {
      const px = parsePrefix4(v);
      if (!px) throw invalid(p);
      v = v.includes("/") ? v.replace(/\/.*$/, `/${px.len}`) : v;
      break;
    }
    case "ipOrPrefix": {
      const px = parsePrefix4(v);
      if (!px && !p.values?.includes(v)) throw invalid(p);
      if (px && v.includes("/")) v = v.replace(/\/.*$/, `/${px.len}`);
      break;
    }
    case "ip6":
      if (!isIp6(v)) throw invalid(p);
      break;
    case "prefix6":
      if (!isPrefix6(v)) throw invalid(p);
      break;
    case "mac":
      if (!isMac(v)) throw invalid(p);
      v = v.toUpperCase();
      break;
    case "time": {
      if (p.values?.includes(v)) break;
      const s = parseInterval(v);
      if (s === null) throw invalid(p);
      v = fmtInterval(s);
      break;
    }
    case "enum":
      if (!p.values!.includes(v)) throw noMatch(p);
      break;
    case "list": {
      if (v === "") break;
      for (const part of v.split(",")) {
        const x = part.startsWith("!") ? part.slice(1) : part;
        if (p.values && !p.values.includes(x)) throw noMatch(p);
      }
      break;
    }
    case "ref": {
      if (p.refAllow?.includes(v)) break;
      const m = st.menus.byPath(p.ref!, st.release);
      if (!m || !st.list(m).some((it) => it[m.key ?? "name"] === v)) throw noMatch(p);
      break;
    }
    case "str":
      break;
  }
  if (p.normalize) v = p.normalize(v, st);
  if (p.validate) {
    const e = p.validate(v, item, st);
    if (e) throw new RosError(e);
  }
  return v;
}

/**
 * Typed value of a stored property for scripts (as-value, get, where,
 * :serialize): yes/no properties are bool, integers num, durations time
 * (`:put` shows `00:05:00` where print shows `5m`: as-value prints
 * `00:00:00.000060` where the table prints `60us`,
 * real-output/asvalue-ping-timing-and-table-offsets-7.23.2-tik4net.txt).
 * A duration property holding a word (`none`) stays str. Everything else
 * is str, addresses too (`:typeof` of an as-value `address` is `str`,
 * real-output/asvalue-find-and-typeof-docs.txt).
 */
export function typed(p: PropDef | undefined, v: string): Val {
  if (!p) return v;
  if (p.type === "bool") return isTrue(v);
  if ((p.type === "int") && /^-?\d+$/.test(v)) return numOf(v);
  if (p.type === "time") {
    const ns = /^\d+$/.test(v) ? BigInt(v) * 1_000_000_000n : parseTimeNs(v);
    if (ns !== null) return new Time(ns);
  }
  return v;
}

/** A property's text in print/terse/table output. */
export function showValue(p: PropDef | undefined, v: string): string {
  if (p?.show) return p.show(v);
  if (p?.type === "bool") return isTrue(v) ? "yes" : "no";
  return v;
}

/** Quotes a value for `print detail` and `/export` when RouterOS would. */
export function quoteIfNeeded(v: string, force = false): string {
  if (!force && v !== "" && /^[A-Za-z0-9_.:\/,*+@\-!]+$/.test(v)) return v;
  let out = '"';
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\" || ch === '"' || ch === "$" || ch === "?") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\" + c.toString(16).toUpperCase().padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/** Properties of a menu visible in this version. */
export function propsOf(menu: MenuDef, st: RouterState): PropDef[] {
  return menu.props.filter((p) => onRelease(st.release, p.releases));
}

/** A menu item as a key-sorted associative array (print as-value, get). */
export function itemToMap(
  menu: MenuDef,
  st: RouterState,
  it: Item,
  proplist?: string[],
): Map<string, Val> {
  const byName = new Map(propsOf(menu, st).map((p) => [p.name, p]));
  const entries: [string, Val][] = [];
  for (const [k, v] of Object.entries(it)) {
    if (k !== ".id" && !byName.has(k)) continue;
    const p = byName.get(k);
    if (p?.secret) continue;
    if (proplist && !proplist.includes(k)) continue;
    entries.push([k, k === ".id" ? id(v) : typed(p, v)]);
  }
  return sortedMap(entries);
}
