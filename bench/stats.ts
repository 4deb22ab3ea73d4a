/**
 * Summaries of timing samples: median, p95 and p99 (nearest rank), plus the
 * extremes and the sample count, all in milliseconds.
 *
 * @module
 */

/** Percentiles of one figure, in milliseconds. */
export interface Summary {
  /** How many samples. */
  n: number;
  median: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

/** Round to `digits` decimals (2 by default). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Nearest-rank percentile `q` (0..1) of ascending `sorted` values; NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Summarise samples (milliseconds); an empty list gives NaN everywhere but `n`. */
export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    median: round(percentile(s, 0.5)),
    p95: round(percentile(s, 0.95)),
    p99: round(percentile(s, 0.99)),
    min: round(s.length ? s[0] : NaN),
    max: round(s.length ? s[s.length - 1] : NaN),
  };
}

/** `a / b` rounded to one decimal; NaN when either side is missing. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? round(a / b, 1) : NaN;
}
