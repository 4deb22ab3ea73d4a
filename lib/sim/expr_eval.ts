/**
 * Evaluates `( ... )` expressions and `where` clauses. In a `where` clause a
 * bare word naming a property reads the item; an unquoted value with `:` or
 * a `/` (division) yields nothing, so such filters silently match nothing,
 * exactly as on a real router.
 */
import type { Expr, Script, StrPart } from "./ast.ts";
import type { Pos } from "./errors.ts";
import { parseIp4, parsePrefix4 } from "./ipaddr.ts";
import { toStr, truthy, type Val } from "./values.ts";

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

function isNumLike(v: Val): v is number | string {
  return typeof v === "number" || (typeof v === "string" && /^-?\d+$/.test(v));
}

function eq(a: EV, b: EV): boolean {
  if (a === BAD || b === BAD) return false;
  if (a === null || b === null) return toStr(a) === toStr(b);
  if (typeof a === "boolean" || typeof b === "boolean") {
    const tb = (x: Val) => (typeof x === "boolean" ? x : x === "yes" || x === "true");
    const fb = (x: Val) => (typeof x === "boolean" ? !x : x === "no" || x === "false");
    return tb(a) ? tb(b) : fb(a) ? fb(b) : false;
  }
  if (isNumLike(a) && isNumLike(b)) return Number(a) === Number(b);
  return toStr(a) === toStr(b);
}

function cmp(a: EV, b: EV): number | null {
  if (a === BAD || b === BAD || a === null || b === null) return null;
  if (isNumLike(a) && isNumLike(b)) return Number(a) - Number(b);
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
    case "word": {
      if (e.bad) return BAD;
      if (item) {
        const v = item(e.v);
        if (v !== undefined) return v;
      }
      if (e.v === "true") return true;
      if (e.v === "false") return false;
      return e.v;
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
      if (a === BAD || !isNumLike(a)) return BAD;
      return -Number(a);
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
          return toStr(a) + toStr(b);
        case ",": {
          if (a === BAD || b === BAD) return BAD;
          const la = Array.isArray(a) ? a : [a];
          const lb = Array.isArray(b) ? b : [b];
          return [...la, ...lb];
        }
        default: {
          if (a === BAD || b === BAD || !isNumLike(a) || !isNumLike(b)) return BAD;
          const x = Number(a), y = Number(b);
          switch (e.op) {
            case "+":
              return x + y;
            case "-":
              return x - y;
            case "*":
              return x * y;
            case "/":
              return y === 0 ? BAD : Math.trunc(x / y);
            case "%":
              return y === 0 ? BAD : x % y;
          }
          return BAD;
        }
      }
    }
  }
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
