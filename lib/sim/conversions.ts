/**
 * The `:` commands that look at or convert a value's type: `:typeof`,
 * `:len`, `:tostr`, `:tonum`, `:tobool`, `:toarray`, `:toid`, `:toip`, `:toip6`,
 * `:totime`, `:tonsec` and `:timestamp`.
 *
 * @module
 */
import type { Statement, Word } from "./ast.ts";
import { badCommand, expectedEnd } from "./errors.ts";
import type { Interp } from "./interp_types.ts";
import type { Args } from "./interp_types.ts";
import { literal } from "./literals.ts";
import { inRange } from "../routeros/release.ts";
import { parseTimeNs } from "./timefmt.ts";
import { id, isNum, mkNum, numOf, Time, toStr, Typed, typeOf, type Val } from "./values.ts";

/** A `:` command. */
export type Builtin = (ip: Interp, args: Args, word: Word, stmt: Statement) => Val;

/** Refuses named arguments other than `named` and more than `maxPos` positional ones. */
export function only(args: Args, named: string[], maxPos: number): void {
  for (const [k, a] of args.named) if (!named.includes(k)) throw expectedEnd(a.word.pos);
  if (args.positional.length > maxPos) throw expectedEnd(args.positional[maxPos].word.pos);
}

/** The one value argument of a conversion command (nil when absent). */
function one(ip: Interp, args: Args): Val {
  only(args, ["value"], 1);
  const a = args.named.get("value") ?? args.positional[0];
  return a ? ip.scriptVal(a) : null;
}

/**
 * `:timestamp` and `:tonsec` are in every command tree from 7.12.2, the
 * oldest one (../shared/fidelity); that they are missing before 7.12 is an
 * assumption.
 */
const TIMESTAMP = { from: "7.12" };

/** The conversion commands, by name. */
export const CONVERSIONS: Record<string, Builtin> = {
  typeof(ip, args) {
    return typeOf(one(ip, args));
  },
  len(ip, args) {
    const v = one(ip, args);
    if (Array.isArray(v)) return v.length;
    if (v instanceof Map) return v.size;
    return toStr(v).length;
  },
  tostr(ip, args) {
    return toStr(one(ip, args));
  },
  tonum(ip, args) {
    const v = one(ip, args);
    if (isNum(v)) return v;
    const s = toStr(v);
    return /^-?\d+$/.test(s) ? numOf(s) : null;
  },
  tobool(ip, args) {
    const v = one(ip, args);
    if (typeof v === "boolean") return v;
    if (v === "true" || v === "yes") return true;
    if (v === "false" || v === "no") return false;
    if (isNum(v)) return Number(v) !== 0;
    return null;
  },
  toarray(ip, args) {
    const v = one(ip, args);
    if (Array.isArray(v) || v instanceof Map) return v;
    // `[:toarray ""]` is the empty array (`:environment print` shows `array={}`).
    if (v === null || toStr(v) === "") return [];
    if (typeof v !== "string") return [v];
    return v.split(",");
  },
  toid(ip, args) {
    const s = toStr(one(ip, args));
    return /^\*[0-9A-Fa-f]+$/.test(s) ? id("*" + s.slice(1).toUpperCase()) : null;
  },
  toip(ip, args) {
    const v = literal(toStr(one(ip, args)));
    return v instanceof Typed && v.type === "ip" ? v : null;
  },
  // every real tree (7.12.2 to 7.24) has :toip6 beside :toip
  toip6(ip, args) {
    const v = literal(toStr(one(ip, args)));
    return v instanceof Typed && v.type === "ip6" ? v : null;
  },
  totime(ip, args) {
    const v = one(ip, args);
    if (v instanceof Time) return v;
    // a num counts seconds (a choice; no capture shows `:totime 60`)
    if (isNum(v)) return new Time(BigInt(v) * 1_000_000_000n);
    const ns = parseTimeNs(toStr(v));
    return ns === null ? null : new Time(ns);
  },
  tonsec(ip, args, word) {
    if (!inRange(ip.st.release, TIMESTAMP)) throw badCommand("tonsec", word.pos);
    const v = one(ip, args);
    const ns = v instanceof Time ? v.ns : parseTimeNs(toStr(v));
    return ns === null ? null : mkNum(ns);
  },
  timestamp(ip, args, word) {
    if (!inRange(ip.st.release, TIMESTAMP)) throw badCommand("timestamp", word.pos);
    only(args, [], 0);
    // time since 1970 by the router's clock; `:put` shows it in weeks
    // (`2735w21:41:43.481891543`, real-output/asvalue-timestamp-docs.txt)
    const ms = ip.st.now().getTime();
    const sub = Math.floor((performance.now() % 1) * 1e6);
    return new Time(BigInt(ms) * 1_000_000n + BigInt(sub));
  },
};
