/**
 * RouterOS values as read, turned into the typed values a field holds:
 * yes/no and true/false to booleans, counters with thousands separators
 * (`47 603`) to numbers, durations in any printed form to one form
 * (`1d2h3m4s`), JSON numbers that were strings back to text.
 *
 * @module
 */
import { durationMs } from "../values.ts";
import type { Field } from "./field.ts";

/** A typed property value. */
export type Value = string | number | boolean | string[];

/**
 * A JSON number RouterOS made from a numeric-looking string, back to text:
 * `:serialize` prints `7.100000` for the string `7.1`, and integers beyond
 * 2^53 lose digits in JSON anyway, so the shortest plain decimal is the best
 * reconstruction (never exponent notation: `1e21` is not what was stored).
 */
export function floatText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return BigInt(n).toString();
  const fixed = n.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
  return fixed === "-0" ? "0" : fixed;
}

/** A raw value as the text RouterOS meant. */
export function rawText(raw: unknown): string {
  return typeof raw === "number" ? floatText(raw) : String(raw);
}

/** `1w2d3h4m5s` (RouterOS's print form) from milliseconds; `0s` for zero. */
export function formatDuration(ms: number): string {
  if (ms <= 0) return "0s";
  let rest = Math.round(ms * 1000) / 1000;
  let out = "";
  for (
    const [unit, size] of [["w", 604800000], ["d", 86400000], ["h", 3600000], ["m", 60000], [
      "s",
      1000,
    ]] as const
  ) {
    const q = Math.floor(rest / size);
    if (q) out += `${q}${unit}`;
    rest -= q * size;
  }
  if (rest >= 1) out += `${Math.round(rest)}ms`;
  else if (rest > 0) out += `${Math.round(rest * 1000)}us`;
  return out;
}

/** `47 603` -> 47603; plain numbers as they are; undefined for anything else. */
export function numberOf(raw: unknown): number | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
  const text = String(raw).trim().replace(
    /^(-?\d{1,3})((?: \d{3})+)$/,
    (_, a: string, b: string) => a + b.replace(/ /g, ""),
  );
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * Convert a raw RouterOS value to the field's type. Undefined for a value
 * that cannot be converted (left out rather than guessed). Secrets are not
 * masked here: the layer that shows values masks them.
 */
export function fromRaw(field: Field, raw: unknown): Value | undefined {
  if (raw === undefined || raw === null) return undefined;
  switch (field.kind) {
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "yes") return true;
      if (raw === "false" || raw === "no") return false;
      return undefined;
    case "int":
      return numberOf(raw);
    case "enum":
      if (typeof raw === "boolean" && field.values?.includes("yes")) return raw ? "yes" : "no";
      return rawText(raw);
    case "list":
      if (Array.isArray(raw)) return raw.map(rawText);
      return String(raw) === "" ? [] : String(raw).split(",");
    case "duration": {
      const text = rawText(raw);
      if (field.words?.includes(text)) return text;
      const ms = durationMs(text);
      return ms === undefined ? text : formatDuration(ms);
    }
    default:
      return rawText(raw);
  }
}
