/**
 * "Did you mean": the known names closest to a mistyped one, by edit distance.
 *
 * @module
 */

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length];
}

/** The names closest to `name` (at most three). */
export function nearest(name: string, names: Iterable<string>): string[] {
  return [...names]
    .map((n) => ({ n, d: distance(name, n) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map((x) => x.n);
}
