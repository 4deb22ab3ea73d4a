/**
 * RouterOS values as text: durations in every printed form, numbers with
 * units, JSON floats back to text, and log and clock times in every format
 * RouterOS prints.
 *
 * @module
 */
import { classifyError, outputError } from "./errors.ts";

/**
 * A RouterOS duration in milliseconds, in every form real routers print:
 * `6m51s`, `35w12h24m42s`, `12.3ms`, `350us` (print); `06:42:44`,
 * `1d00:00:00`, `2735w1d21:41:43.481891543` (`:put` of a time value);
 * `1970-01-01 00:00:01` (`:serialize` of a time value on some 7.x releases,
 * real-output/json-serialize-type-mapping-forum.txt); or a bare number of
 * seconds. Undefined for anything else (`never`, a real date).
 */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value * 1000 : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const clock = /^(?:(\d+)w)?(?:(\d+)d)?\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(text);
  if (clock) {
    const [, w, d, h, m, s] = clock;
    return round3(
      ((Number(w ?? 0) * 7 + Number(d ?? 0)) * 86400 + Number(h) * 3600 + Number(m) * 60 +
        Number(s)) * 1000,
    );
  }
  const epoch = /^1970-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (epoch) {
    const [, mo, d, h, m, s] = epoch.map(Number);
    return Date.UTC(1970, mo - 1, d, h, m, s);
  }
  const unit: Record<string, number> = {
    w: 604800000,
    d: 86400000,
    h: 3600000,
    m: 60000,
    s: 1000,
    ms: 1,
    us: 0.001,
  };
  const re = /(\d+(?:\.\d+)?)(ms|us|w|d|h|m|s)/gy;
  let total = 0;
  let end = 0;
  let parts = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * unit[m[2]];
    end = re.lastIndex;
    parts++;
  }
  if (parts > 0 && end === text.length) return round3(total);
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1000;
  return undefined;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** The leading number of a value with a unit (`24.1V`, `2048KiB`, `35C`). */
export function leadingNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)/.exec(value);
  return m ? Number(m[1]) : undefined;
}

/** A value as a number, or undefined when it is not one. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A value as text (JSON floats RouterOS made from text go back to text). */
export function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join(",");
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
  }
  return String(value);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** `2024-06-26` from a router date (`2024-06-26` or `jun/26/2024`). */
export function isoDate(date: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (iso) return iso[0];
  const v6 = /^([a-z]{3})\/(\d{2})\/(\d{4})$/i.exec(date.trim());
  if (v6) {
    const month = MONTHS.indexOf(v6[1].toLowerCase()) + 1;
    if (month > 0) return `${v6[3]}-${String(month).padStart(2, "0")}-${v6[2]}`;
  }
  return undefined;
}

/**
 * A log time as `YYYY-MM-DD HH:MM:SS`, given today's router date in ISO
 * form. Handles `HH:MM:SS` (today), `mmm/dd HH:MM:SS` and `MM-DD
 * HH:MM:SS` (this year), `mmm/dd/yyyy HH:MM:SS` and `YYYY-MM-DD HH:MM:SS`.
 */
export function logTime(time: string, today: string): string | undefined {
  const t = time.trim();
  const clock = "(\\d{2}:\\d{2}:\\d{2})";
  let m = new RegExp(`^${clock}$`).exec(t);
  if (m) return `${today} ${m[1]}`;
  m = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}) ${clock}$`).exec(t);
  if (m) return `${m[1]} ${m[2]}`;
  m = new RegExp(`^(\\d{2})-(\\d{2}) ${clock}$`).exec(t);
  if (m) return `${today.slice(0, 4)}-${m[1]}-${m[2]} ${m[3]}`;
  m = new RegExp(`^([a-z]{3})/(\\d{2})(?:/(\\d{4}))? ${clock}$`, "i").exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[1].toLowerCase()) + 1;
    if (month === 0) return undefined;
    return `${m[3] ?? today.slice(0, 4)}-${String(month).padStart(2, "0")}-${m[2]} ${m[4]}`;
  }
  return undefined;
}

/**
 * Check the output of a command that reports progress (`Configuration
 * backup saved`): the allowed lines are dropped, any other text raises.
 */
export function expectOnly(output: string, allowed: readonly RegExp[]): void {
  const rest = output.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "")
    .filter((l) => !allowed.some((re) => re.test(l.trim())));
  if (rest.length) throw outputError(rest.join("\n"));
}

/** Raise the RouterOS error in `output`, if its first line is one. */
export function raiseIfError(output: string): void {
  if (classifyError(output)) throw outputError(output);
}
