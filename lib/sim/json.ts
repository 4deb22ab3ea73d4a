/**
 * JSON for `:serialize to=json` and `:deserialize from=json`, as RouterOS
 * writes and reads it.
 *
 * Writing (real-output/json-serialize-*.txt):
 * - a list is a JSON array, a keyed array an object with sorted keys;
 *   booleans stay booleans, nil is `null`, a num an integer (19 digits too);
 * - a string that looks like a number becomes a float with six decimals
 *   (`"1234"` -> `1234.000000`, `"7.1"` -> `7.100000`) unless
 *   `options=json.no-string-conversion` (7.17+) is given;
 * - `id`, `ip`, `ip6` and prefix values are strings of their text;
 * - a `time` is a date-time string before 7.20 (a duration of 1 s is
 *   `"1970-01-01 00:00:01"`, json-serialize-type-mapping-forum.txt, a
 *   7.16+/7.17 capture) and the clock form from 7.20 (`"uptime":"06:42:44"`,
 *   json-serialize-resource-certificate-file-7.23.2-tik4net.txt). The exact
 *   release between 7.17 and 7.23.2 where the form changed is not known from
 *   captures; 7.20 is a choice.
 *
 * @module
 */
import { fmtDateTime } from "./timefmt.ts";
import { type Code, numOf, sortedMap, Time, Typed, type Val } from "./values.ts";

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** How `:serialize` writes on a release. */
export interface JsonOptions {
  /** `options=json.no-string-conversion`: numeric-looking strings stay strings. */
  noStringConversion: boolean;
  /** `options=json.pretty`: indented, one member per line. */
  pretty: boolean;
  /** A time as `1970-01-01 00:00:01` (before 7.20) or `00:00:01` (7.20 and later). */
  timeForm: "date" | "clock";
}

function str(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

function scalar(v: Val, o: JsonOptions): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "string") {
    if (!o.noStringConversion && NUMERIC.test(v)) return Number(v).toFixed(6);
    return str(v);
  }
  if (v instanceof Time) {
    if (o.timeForm === "clock") return str(v.toString());
    const ms = Number(v.ns / 1_000_000_000n) * 1000;
    return str(fmtDateTime(new Date(ms), false));
  }
  if (v instanceof Typed) return str(v.text);
  return str((v as Code).src);
}

/**
 * Serialises a value as RouterOS's JSON.
 *
 * `json.pretty`: the only capture (json-serialize-type-mapping-forum.txt)
 * was flattened by a crawler, so its line breaks and indentation are lost;
 * it keeps `"key": value` (a space after the colon) and `,` between
 * members. One member or element per line indented by four spaces is a
 * choice; empty arrays and objects stay `[]` and `{}`.
 */
export function toJson(v: Val, o: JsonOptions, depth = 0): string {
  const list = Array.isArray(v), map = v instanceof Map;
  if (!list && !map) return scalar(v, o);
  const parts = list
    ? v.map((x) => toJson(x, o, depth + 1))
    : [...v].map(([k, x]) => str(k) + (o.pretty ? ": " : ":") + toJson(x, o, depth + 1));
  const [open, close] = list ? ["[", "]"] : ["{", "}"];
  if (!o.pretty || parts.length === 0) return open + parts.join(",") + close;
  const pad = "    ".repeat(depth + 1);
  return `${open}\n${pad}${parts.join(`,\n${pad}`)}\n${"    ".repeat(depth)}${close}`;
}

/** Thrown by {@linkcode parseJson} on text that is not JSON. */
export class JsonSyntaxError extends Error {}

/**
 * Reads JSON into script values, as `:deserialize from=json` does: objects
 * become keyed arrays, arrays lists, `true`/`false` bool, `null` nil,
 * integers num (exact, also beyond 2^53). A string that looks like an
 * integer becomes a num unless `noStringConversion`
 * (`options=json.no-string-conversion`, 7.16+; the Scripting manual's
 * example keeps `"123"` a `str` with it, real-output/json-serialize-deserialize-docs.txt).
 * Choices, without a capture: a number with a fraction or exponent, and a
 * string that looks like one, stay text (RouterOS has no float type).
 */
export function parseJson(text: string, noStringConversion: boolean): Val {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new JsonSyntaxError(`bad JSON at ${i}`);
  };
  const strVal = (): string => {
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    if (j >= text.length) fail();
    const raw = text.slice(i, j + 1);
    i = j + 1;
    try {
      return JSON.parse(raw);
    } catch {
      return fail();
    }
  };
  const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const value = (): Val => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const entries: [string, Val][] = [];
      ws();
      if (text[i] === "}") {
        i++;
        return sortedMap(entries);
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const k = strVal();
        ws();
        if (text[i++] !== ":") fail();
        entries.push([k, value()]);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return sortedMap(entries);
        } else fail();
      }
    }
    if (c === "[") {
      i++;
      const out: Val[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return out;
        } else fail();
      }
    }
    if (c === '"') {
      const s = strVal();
      return !noStringConversion && /^-?\d+$/.test(s) ? numOf(s) : s;
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail();
    i += m![0].length;
    return m![2] || m![3] ? m![0] : numOf(m![0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}
