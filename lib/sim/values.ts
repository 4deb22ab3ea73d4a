/**
 * Script values. RouterOS has str, num, bool, ip, id, array and nil types; the
 * simulator keeps strings for str/ip/id, numbers, booleans, `null` for nil,
 * JS arrays for lists and `Map` for associative arrays (kept key-sorted, as
 * RouterOS sorts them).
 */

/** A script value. */
export type Val = string | number | boolean | null | Val[] | Map<string, Val> | Code;

/** A `{ ... }` block used as a value (e.g. `do={...}`, `on-event={...}`). */
export class Code {
  constructor(readonly src: string) {}
}

/** Builds a key-sorted associative array. */
export function sortedMap(entries: Iterable<[string, Val]>): Map<string, Val> {
  return new Map([...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** Text of a value as `:put` prints it. */
export function toStr(v: Val): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof Code) return v.src;
  if (Array.isArray(v)) return v.map(toStr).join(";");
  return [...v].map(([k, x]) => `${k}=${toStr(x)}`).join(";");
}

/** Truthiness for `:if` and `where`. */
export function truthy(v: Val): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v === "true" || v === "yes";
  return true;
}

/** Value of a stored boolean ("true"/"yes"). */
export function isTrue(s: string | undefined): boolean {
  return s === "true" || s === "yes";
}
