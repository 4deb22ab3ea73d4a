/**
 * The one place that spells `:serialize`: a statement that prints the value
 * of a RouterOS expression as one JSON line, in the form the release allows,
 * and the reader that turns that line back into values.
 *
 * - `json` (7.17 and later): `:put [:serialize to=json
 *   options=json.no-string-conversion EXPR]`.
 * - `json-guarded` (7.13 to 7.16): `:serialize` turns a string that looks
 *   like a number into a float (`"7.10"` -> `7.100000`), and these releases
 *   cannot switch that off. The statement copies the value first, putting
 *   {@linkcode GUARD} in front of every value that is not a number, a
 *   boolean or empty (strings, ids, addresses, times), so no string looks
 *   like a number; the reader takes the prefix off again. Every string comes
 *   back byte for byte.
 *
 * @module
 */
import type { Dialect } from "./dialect.ts";

/** The prefix the guarded form puts in front of every string value. */
export const GUARD = "s";

/** The shape of the expression's value: a list of records, one record, or one text value. */
export type JsonShape = "list" | "record" | "text";

/**
 * Copy record `$<from>` into `$<to>` with every non-number value guarded;
 * list values element by element.
 */
function guardRecord(from: string, to: string): string {
  const put = (value: string) => `:set ($${to}->$k) ${value}`;
  return `:foreach k,v in=$${from} do={:local t [:typeof $v]; ` +
    `:if ($t="array") do={:local a [:toarray ""]; :foreach e in=$v do={` +
    `:if ([:typeof $e]="num" || [:typeof $e]="bool") do={:set ($a->[:len $a]) $e} ` +
    `else={:set ($a->[:len $a]) ("${GUARD}" . $e)}}; ${put("$a")}} ` +
    `else={:if ($t="num" || $t="bool" || $t="nil" || $t="nothing") do={${put("$v")}} ` +
    `else={${put(`("${GUARD}" . $v)`)}}}}`;
}

/**
 * A statement printing `expression` (a command in `[...]`, or `$var`) as
 * one JSON line. Not for `terse` dialects, which have no `:serialize`.
 */
export function putJson(dialect: Dialect, expression: string, shape: JsonShape): string {
  switch (dialect.read) {
    case "json":
      return `:put [:serialize to=json options=json.no-string-conversion ${expression}]`;
    case "json-guarded":
      if (shape === "text") return `:put [:serialize to=json ("${GUARD}" . ${expression})]`;
      if (shape === "record") {
        return `{:local i ${expression}; :local o [:toarray ""]; ${
          guardRecord("i", "o")
        }; :put [:serialize to=json $o]}`;
      }
      return `{:local r [:toarray ""]; :foreach i in=${expression} do={:local o [:toarray ""]; ${
        guardRecord("i", "o")
      }; :set ($r->[:len $r]) $o}; :put [:serialize to=json $r]}`;
    case "terse":
      throw new TypeError(`RouterOS ${dialect.version} has no :serialize`);
  }
}

/** Thrown by {@linkcode unguard} for a string without the guard. */
export class UnguardedValueError extends Error {}

/**
 * Take the guard off every string of a parsed `json-guarded` value. A
 * string without it means the answer is not what the statement prints.
 */
export function unguard(value: unknown): unknown {
  if (typeof value === "string") {
    if (!value.startsWith(GUARD)) {
      throw new UnguardedValueError(`value ${JSON.stringify(value.slice(0, 40))} lacks the guard`);
    }
    return value.slice(GUARD.length);
  }
  if (Array.isArray(value)) return value.map(unguard);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = unguard(v);
    return out;
  }
  return value;
}
