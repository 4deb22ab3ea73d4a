/**
 * RouterOS time intervals (`1w2d3h4m5s`) and dates, in each release's form:
 *
 * | what | up to | from |
 * |---|---|---|
 * | dates and times (`/system clock`, `last-link-up-time`, `creation-time`, export header) | `jun/26/2024 11:42:37` (7.9) | `2024-06-26 11:42:37` (7.10) |
 * | `build-time` (`/system resource`, `/system package`) | `Jun/27/2023 09:03:02` (7.12) | `2024-01-24 13:16:46` (7.13) |
 *
 * Sources: `/system clock get date` gave `jul/14/2023` on 7.8 and
 * `2023-07-14` on 7.10 (github.com/phistrom/datetime-routeros issue 1); the
 * export header of 7.9.1 was `# jun/01/2023 12:11:25` and of 7.10rc1
 * `# 2023-06-01 12:16:16` (ytti/oxidized pull request 2815);
 * `last-link-up-time` was `2023-06-26 00:32:53` on 7.10
 * (swoga/mikrotik-exporter issue 42); `build-time` keeps a capitalised month
 * through 7.12.2 (real-output/print-system-resource-v7.10.1-, -v7.11.2-,
 * -v7.12.2-, and the 6.x ones) and is ISO on 7.13.3 (a public `/system
 * resource print` of a 7.13.3 router, `build-time: 2024-01-24 13:16:46`) and
 * 7.15.2 (print-system-resource-v7.15.2-exec-oxidized.txt).
 *
 * @module
 */
import { inRange, type Release } from "../routeros/release.ts";

/** True when a release writes dates `jun/26/2024` (before 7.10). */
export function legacyDates(r: Release): boolean {
  return !inRange(r, { from: "7.10" });
}

/** True when a release writes `build-time` `Jun/26/2024 11:42:37` (before 7.13). */
export function legacyBuildTime(r: Release): boolean {
  return !inRange(r, { from: "7.13" });
}

const NS: Record<string, bigint> = {
  w: 604_800_000_000_000n,
  d: 86_400_000_000_000n,
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  ns: 1n,
};

function fractionNs(digits: string | undefined): bigint {
  return digits ? BigInt(digits.slice(0, 9).padEnd(9, "0")) : 0n;
}

/**
 * Parses a time as RouterOS writes one, in nanoseconds: units (`1w2d3h4m5s`,
 * `500ms`, `1.5s`) or the clock form with optional weeks and days
 * (`00:05:00`, `1d00:00:00`, `1w2d03:04:05`, `2735w21:41:43.481891543`).
 * Bare digits are not a time (they are a `num`); null when not a time.
 */
export function parseTimeNs(text: string): bigint | null {
  const neg = text.startsWith("-");
  const s = neg ? text.slice(1) : text;
  let total = 0n;
  const clock = /^(?:(\d+)w)?(?:(\d+)d)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(s);
  if (clock) {
    total = BigInt(clock[1] ?? 0) * NS.w + BigInt(clock[2] ?? 0) * NS.d +
      BigInt(clock[3]) * NS.h + BigInt(clock[4]) * NS.m + BigInt(clock[5]) * NS.s +
      fractionNs(clock[6]);
  } else {
    if (!s || /^\d+$/.test(s)) return null;
    let rest = s;
    while (rest) {
      const m = /^(\d+)(?:\.(\d{1,9}))?(ms|us|ns|w|d|h|m|s)/.exec(rest);
      if (!m) return null;
      const unit = NS[m[3]];
      total += BigInt(m[1]) * unit + (fractionNs(m[2]) * unit) / NS.s;
      rest = rest.slice(m[0].length);
    }
  }
  return neg ? -total : total;
}

/** Parses `1d2h`, `90`, `00:05:00`, `1d00:00:00`; returns seconds or null. */
export function parseInterval(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s);
  const ns = parseTimeNs(s);
  return ns === null || ns < 0n ? null : Number(ns) / 1e9;
}

const p2n = (n: bigint) => String(n).padStart(2, "0");

/**
 * A time value as `:put` and concatenation print it: weeks and days when
 * present, then the clock, then the fraction of a second in groups of three
 * digits (`00:05:00`, `1d00:00:00`, `1w2d03:04:05`,
 * `2735w21:41:43.481891543` in real-output/asvalue-timestamp-docs.txt,
 * `00:00:00.000060` for 60 µs in
 * asvalue-ping-timing-and-table-offsets-7.23.2-tik4net.txt). A negative
 * time gets a leading `-` (a choice: no capture shows one).
 */
export function fmtTimeValue(ns: bigint): string {
  const neg = ns < 0n;
  let r = neg ? -ns : ns;
  const w = r / NS.w;
  r %= NS.w;
  const d = r / NS.d;
  r %= NS.d;
  const h = r / NS.h;
  r %= NS.h;
  const m = r / NS.m;
  r %= NS.m;
  const s = r / NS.s;
  const frac = r % NS.s;
  let out = (neg ? "-" : "") + (w ? `${w}w` : "") + (d ? `${d}d` : "") +
    `${p2n(h)}:${p2n(m)}:${p2n(s)}`;
  if (frac) {
    const digits = String(frac).padStart(9, "0");
    out += "." +
      (frac % 1_000_000n === 0n
        ? digits.slice(0, 3)
        : frac % 1000n === 0n
        ? digits.slice(0, 6)
        : digits);
  }
  return out;
}

/** Formats seconds the way RouterOS v7 prints intervals: `1d2h3m4s`, `0s`. */
export function fmtInterval(sec: number): string {
  if (sec <= 0) return "0s";
  let r = Math.round(sec * 1000);
  let out = "";
  for (
    const [u, n] of [["w", 604800000], ["d", 86400000], ["h", 3600000], ["m", 60000], [
      "s",
      1000,
    ]] as const
  ) {
    const q = Math.floor(r / n);
    if (q) out += q + u;
    r -= q * n;
  }
  if (r) out += r + "ms";
  return out;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const p2 = (n: number) => String(n).padStart(2, "0");

/** Date part of a Date (UTC fields): `jun/26/2024` when `legacy`, else `2024-06-26`. */
export function fmtDate(d: Date, legacy: boolean): string {
  if (legacy) return `${MONTHS[d.getUTCMonth()]}/${p2(d.getUTCDate())}/${d.getUTCFullYear()}`;
  return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
}

/** A `build-time` as a release prints it: `Jun/26/2024 11:42:37` before 7.13, else ISO. */
export function fmtBuildTime(d: Date, r: Release): string {
  if (!legacyBuildTime(r)) return fmtDateTime(d, false);
  const text = fmtDateTime(d, true);
  return text[0].toUpperCase() + text.slice(1);
}

/** Time part `HH:MM:SS`. */
export function fmtTime(d: Date): string {
  return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
}

/** `date time`: `jun/26/2024 11:42:37` when `legacy`, else `2024-06-26 11:42:37`. */
export function fmtDateTime(d: Date, legacy: boolean): string {
  return `${fmtDate(d, legacy)} ${fmtTime(d)}`;
}

/** Parses a date in either format; returns [y, m(0-based), d] or null. */
export function parseDate(s: string): [number, number, number] | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  m = /^([a-z]{3})\/(\d{2})\/(\d{4})$/.exec(s.toLowerCase());
  if (m && MONTHS.includes(m[1])) return [Number(m[3]), MONTHS.indexOf(m[1]), Number(m[2])];
  return null;
}

/** Parses `HH:MM:SS` into seconds of day, or null. */
export function parseTimeOfDay(s: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (!m) return null;
  const h = Number(m[1]), mi = Number(m[2]), se = Number(m[3] ?? 0);
  if (h > 23 || mi > 59 || se > 59) return null;
  return h * 3600 + mi * 60 + se;
}
