/** RouterOS time intervals (`1w2d3h4m5s`) and dates (v7 ISO, v6 `jun/26/2024`). */

const UNITS: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1, ms: 0.001 };

/** Parses `1d2h`, `90`, `00:05:00`, `1d00:00:00`; returns seconds or null. */
export function parseInterval(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s);
  let m = /^(?:(\d+)d)?(\d{1,2}):(\d{2}):(\d{2})$/.exec(s);
  if (m) return Number(m[1] ?? 0) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  let total = 0;
  let rest = s;
  if (!rest) return null;
  while (rest) {
    m = /^(\d+(?:\.\d+)?)(ms|w|d|h|m|s)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * UNITS[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
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

/** Date part of a Date (UTC fields) as the version prints it. */
export function fmtDate(d: Date, v6: boolean): string {
  if (v6) return `${MONTHS[d.getUTCMonth()]}/${p2(d.getUTCDate())}/${d.getUTCFullYear()}`;
  return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
}

/** Time part `HH:MM:SS`. */
export function fmtTime(d: Date): string {
  return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
}

/** `date time` as the version prints it. */
export function fmtDateTime(d: Date, v6: boolean): string {
  return `${fmtDate(d, v6)} ${fmtTime(d)}`;
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
