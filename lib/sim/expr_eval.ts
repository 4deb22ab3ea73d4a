/**
 * Evaluates `( ... )` expressions and `where` clauses. In a `where` clause a
 * bare word naming a property reads the item; an unquoted value with `:` or
 * a `/` (division) yields nothing, so such filters silently match nothing,
 * exactly as on a real router.
 *
 * @module
 */
import type { ArrayLit, Expr, Script, StrPart } from "./ast.ts";
import type { Pos } from "./errors.ts";
import { parseIp4, parsePrefix4 } from "./ipaddr.ts";
import { literal } from "./literals.ts";
import { parseTimeNs } from "./timefmt.ts";
import { mkNum, sortedMap, Time, toStr, truthy, type Val } from "./values.ts";

/** What an expression needs from the interpreter. */
export interface EvalHost {
  getVar(name: string, pos: Pos): Val;
  runCmd(script: Script): Val;
  strParts(parts: StrPart[]): string;
}

/** Property lookup of the item a `where` clause is tested against. */
export type ItemLookup = (name: string) => Val | undefined;

const BAD = Symbol("bad");
type EV = Val | typeof BAD;

function isNumLike(v: Val): v is number | bigint | string {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint" ||
    (typeof v === "string" && /^-?\d+$/.test(v));
}

/** Nanoseconds of a time, or of a text that reads as one (`where timeout=5m`). */
function timeNs(v: Val): bigint | null {
  if (v instanceof Time) return v.ns;
  if (typeof v === "string") return parseTimeNs(v);
  return null;
}

/** Both sides as times when one is a time and the other reads as one. */
function asTimes(a: Val, b: Val): [bigint, bigint] | null {
  if (!(a instanceof Time) && !(b instanceof Time)) return null;
  const x = timeNs(a), y = timeNs(b);
  return x === null || y === null ? null : [x, y];
}

function eq(a: EV, b: EV): boolean {
  if (a === BAD || b === BAD) return false;
  if (a === null || b === null) return toStr(a) === toStr(b);
  if (typeof a === "boolean" || typeof b === "boolean") {
    const tb = (x: Val) => (typeof x === "boolean" ? x : x === "yes" || x === "true");
    const fb = (x: Val) => (typeof x === "boolean" ? !x : x === "no" || x === "false");
    return tb(a) ? tb(b) : fb(a) ? fb(b) : false;
  }
  const t = asTimes(a, b);
  if (t) return t[0] === t[1];
  if (isNumLike(a) && isNumLike(b)) return BigInt(a) === BigInt(b);
  return toStr(a) === toStr(b);
}

function cmp(a: EV, b: EV): number | null {
  if (a === BAD || b === BAD || a === null || b === null) return null;
  const t = asTimes(a, b);
  if (t) return t[0] < t[1] ? -1 : t[0] > t[1] ? 1 : 0;
  if (isNumLike(a) && isNumLike(b)) {
    const x = BigInt(a), y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const ia = parseIp4(toStr(a)), ib = parseIp4(toStr(b));
  if (ia !== null && ib !== null) return ia - ib;
  const sa = toStr(a), sb = toStr(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function inPrefix(a: EV, b: EV): boolean {
  if (a === BAD || b === BAD) return false;
  const ip = parsePrefix4(toStr(a)), px = parsePrefix4(toStr(b));
  if (!ip || !px) return false;
  if (ip.len < px.len) return false;
  const mask = px.len === 0 ? 0 : (0xffffffff << (32 - px.len)) >>> 0;
  return ((ip.ip & mask) >>> 0) === ((px.ip & mask) >>> 0);
}

function regex(a: EV, b: EV): boolean {
  if (a === BAD || b === BAD) return false;
  try {
    return new RegExp(toStr(b)).test(toStr(a));
  } catch {
    return false;
  }
}

/** Evaluates an expression. */
export function evalExpr(e: Expr, host: EvalHost, item?: ItemLookup): Val {
  const v = ev(e, host, item);
  return v === BAD ? null : v;
}

function ev(e: Expr, host: EvalHost, item: ItemLookup | undefined): EV {
  switch (e.k) {
    case "num":
      return e.v;
    case "lit":
      return literal(e.v);
    case "arr":
      return arrayValue(e, host, item);
    case "word": {
      if (e.bad) return BAD;
      if (item) {
        const v = item(e.v);
        if (v !== undefined) return v;
      }
      if (e.v === "true") return true;
      if (e.v === "false") return false;
      // `(1h + 30m)`: a word that reads as a time is one (literals.ts)
      const t = parseTimeNs(e.v);
      return t === null ? e.v : new Time(t);
    }
    case "str":
      return host.strParts(e.parts);
    case "var":
      return host.getVar(e.name, e.pos);
    case "cmd":
      return host.runCmd(e.script);
    case "un": {
      const a = ev(e.a, host, item);
      if (e.op === "!") return a === BAD ? BAD : !truthy(a);
      if (a instanceof Time) return new Time(-a.ns);
      if (a === BAD || !isNumLike(a)) return BAD;
      return mkNum(-BigInt(a));
    }
    case "bin": {
      if (e.op === "&&" || e.op === "and") {
        const a = ev(e.a, host, item);
        return a !== BAD && truthy(a) && truthy(orNull(ev(e.b, host, item)));
      }
      if (e.op === "||" || e.op === "or") {
        const a = ev(e.a, host, item);
        return (a !== BAD && truthy(a)) || truthy(orNull(ev(e.b, host, item)));
      }
      const a = ev(e.a, host, item), b = ev(e.b, host, item);
      switch (e.op) {
        case "->":
          return element(a, b);
        case "=":
          return eq(a, b);
        case "!=":
          return a !== BAD && b !== BAD && !eq(a, b);
        case "<":
        case ">":
        case "<=":
        case ">=": {
          const c = cmp(a, b);
          if (c === null) return false;
          return e.op === "<" ? c < 0 : e.op === ">" ? c > 0 : e.op === "<=" ? c <= 0 : c >= 0;
        }
        case "~":
          return regex(a, b);
        case "in":
          return inPrefix(a, b);
        case ".":
          if (a === BAD || b === BAD) return BAD;
          // a text joined to a list joins to each element: ("x: " . {"a";"b"}) is
          // x: a;x: b (real-output/asvalue-array-to-string-docs.txt)
          if (Array.isArray(b) && !Array.isArray(a)) return b.map((x) => toStr(a) + toStr(x));
          if (Array.isArray(a) && !Array.isArray(b)) return a.map((x) => toStr(x) + toStr(b));
          return toStr(a) + toStr(b);
        case ",": {
          if (a === BAD || b === BAD) return BAD;
          const la = Array.isArray(a) ? a : [a];
          const lb = Array.isArray(b) ? b : [b];
          return [...la, ...lb];
        }
        default: {
          if (a === BAD || b === BAD) return BAD;
          if (a instanceof Time || b instanceof Time) return timeArith(e.op, a, b);
          if (!isNumLike(a) || !isNumLike(b)) return BAD;
          const x = BigInt(a), y = BigInt(b);
          switch (e.op) {
            case "+":
              return mkNum(x + y);
            case "-":
              return mkNum(x - y);
            case "*":
              return mkNum(x * y);
            case "/":
              return y === 0n ? BAD : mkNum(x / y);
            case "%":
              return y === 0n ? BAD : mkNum(x % y);
          }
          return BAD;
        }
      }
    }
  }
}

/** Time arithmetic: time ± time, time × num, time ÷ num. */
function timeArith(op: string, a: Val, b: Val): EV {
  if (op === "+" || op === "-") {
    const t = asTimes(a, b);
    if (!t) return BAD;
    return new Time(op === "+" ? t[0] + t[1] : t[0] - t[1]);
  }
  if (a instanceof Time && isNumLike(b)) {
    const n = BigInt(b);
    if (op === "*") return new Time(a.ns * n);
    if (op === "/") return n === 0n ? BAD : new Time(a.ns / n);
  }
  if (op === "*" && b instanceof Time && isNumLike(a)) return new Time(b.ns * BigInt(a));
  return BAD;
}

/**
 * The value of an array literal: a list when no element has a key, else a
 * keyed array where unkeyed elements take their index as key.
 */
function arrayValue(e: ArrayLit, host: EvalHost, item: ItemLookup | undefined): Val {
  const entries: [string | null, Val][] = [];
  for (const it of e.items) {
    const vals = it.vals.map((x) => orNull(ev(x, host, item)));
    if (it.key) {
      const k = it.key.k === "word" ? it.key.v : toStr(orNull(ev(it.key, host, item)));
      entries.push([k, vals.length === 1 ? vals[0] : vals]);
    } else for (const v of vals) entries.push([null, v]);
  }
  if (entries.every(([k]) => k === null)) return entries.map(([, v]) => v);
  let index = 0;
  return sortedMap(entries.map(([k, v]) => [k ?? String(index++), v]));
}

/** `$array->key`: a key of an associative array, an index of a list, else nothing. */
function element(a: EV, b: EV): EV {
  if (a === BAD || b === BAD) return null;
  if (a instanceof Map) return a.get(toStr(b)) ?? null;
  if (Array.isArray(a) && isNumLike(b)) return a[Number(b)] ?? null;
  return null;
}

function orNull(v: EV): Val {
  return v === BAD ? null : v;
}
