/**
 * Script values. RouterOS types (`:typeof`) map to JavaScript like this:
 *
 * | RouterOS | here |
 * |---|---|
 * | `str` | `string` |
 * | `num` | `number`, or `bigint` beyond 2^53 (a num is a signed 64-bit integer) |
 * | `bool` | `boolean` |
 * | `nil` | `null` |
 * | `array` | a JS array (list) or a `Map` (keyed, kept key-sorted) |
 * | `time` | {@linkcode Time} (nanoseconds) |
 * | `id`, `ip`, `ip6`, `ip-prefix`, `ip6-prefix` | {@linkcode Typed} |
 * | `code` | {@linkcode Code} (a `{ ... }` block kept as source) |
 *
 * @module
 */
import { fmtTimeValue } from "./timefmt.ts";

/** A script value. */
export type Val =
  | string
  | number
  | bigint
  | boolean
  | null
  | Val[]
  | Map<string, Val>
  | Code
  | Time
  | Typed;

/** A `{ ... }` block used as a value (e.g. `do={...}`, `on-event={...}`). */
export class Code {
  constructor(readonly src: string) {}
  toString(): string {
    return this.src;
  }
}

/** A `time` value: a duration (or, from `:timestamp`, time since 1970) in nanoseconds. */
export class Time {
  constructor(readonly ns: bigint) {}
  /** Whole seconds, rounded down. */
  get seconds(): number {
    return Number(this.ns / 1_000_000_000n);
  }
  toString(): string {
    return fmtTimeValue(this.ns);
  }
}

/** Types kept as their (normalised) text. */
export type TextType = "id" | "ip" | "ip6" | "ip-prefix" | "ip6-prefix";

/** A value of a type RouterOS keeps apart from `str` but prints as text (`*1A`, `10.0.0.1`). */
export class Typed {
  constructor(readonly type: TextType, readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** An `id` value (`*1A`), as `.id`, `find` and `add` give it. */
export function id(text: string): Typed {
  return new Typed("id", text);
}

/** True for a `num`. */
export function isNum(v: Val): v is number | bigint {
  return typeof v === "number" || typeof v === "bigint";
}

/** A `num` from a bigint: a plain number while it is exact, else the bigint (wrapped to 64 bits). */
export function mkNum(b: bigint): number | bigint {
  const w = BigInt.asIntN(64, b);
  return w >= BigInt(Number.MIN_SAFE_INTEGER) && w <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(w)
    : w;
}

/** A `num` from decimal text (`-12`, `1738076593889955906`). */
export function numOf(text: string): number | bigint {
  return mkNum(BigInt(text));
}

/** Index keys (`0`, `1`...) come first in numeric order, then the other keys in byte order. */
function keyOrder(a: string, b: string): number {
  const ia = /^(0|[1-9]\d*)$/.test(a), ib = /^(0|[1-9]\d*)$/.test(b);
  if (ia && ib) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (ia !== ib) return ia ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds a key-sorted associative array. RouterOS lists keyed elements in
 * alphabetical order after the unkeyed ones (`:foreach k,v in={2; "aX"=1;
 * y=2; 5}` gives `0=2`, `1=5`, `aX=1`, `y=2`; real-output
 * asvalue-environment-and-foreach-docs.txt). Index keys sort numerically:
 * a choice, no capture shows `10` beside `9`.
 */
export function sortedMap(entries: Iterable<[string, Val]>): Map<string, Val> {
  const m = new Map<string, Val>();
  for (const [k, v] of entries) m.set(k, v);
  return new Map([...m].sort((a, b) => keyOrder(a[0], b[0])));
}

/** Text of a value as `:put` prints it. */
export function toStr(v: Val): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof Code || v instanceof Time || v instanceof Typed) return v.toString();
  if (Array.isArray(v)) return v.map(toStr).join(";");
  return [...v].map(([k, x]) => `${k}=${toStr(x)}`).join(";");
}

/** The `:typeof` name of a value. */
export function typeOf(v: Val): string {
  if (v === null) return "nil";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || typeof v === "bigint") return "num";
  if (typeof v === "string") return "str";
  if (v instanceof Code) return "code";
  if (v instanceof Time) return "time";
  if (v instanceof Typed) return v.type;
  return "array";
}

/** Truthiness for `:if` and `where`. */
export function truthy(v: Val): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "string") return v === "true" || v === "yes";
  return true;
}

/** Value of a stored boolean ("true"/"yes"). */
export function isTrue(s: string | undefined): boolean {
  return s === "true" || s === "yes";
}
