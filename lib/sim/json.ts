/**
 * `:serialize to=json`. Arrays of records become JSON arrays of objects with
 * sorted keys; booleans stay booleans. Without
 * `options=json.no-string-conversion`, strings that look like numbers become
 * floats printed with six decimals (`7.1` → `7.100000`), as RouterOS does.
 */
import { Code, type Val } from "./values.ts";

const NUMERIC = /^-?\d+(\.\d+)?$/;

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

/** Serialises a value as RouterOS's JSON. */
export function toJson(v: Val, noStringConversion: boolean): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") {
    if (!noStringConversion && NUMERIC.test(v)) return Number(v).toFixed(6);
    return str(v);
  }
  if (v instanceof Code) return str(v.src);
  if (Array.isArray(v)) return "[" + v.map((x) => toJson(x, noStringConversion)).join(",") + "]";
  const keys = [...v.keys()].sort();
  return "{" + keys.map((k) => str(k) + ":" + toJson(v.get(k)!, noStringConversion)).join(",") +
    "}";
}
