/**
 * "Did you mean": the known names closest to a mistyped one, by edit distance
 * and by whole words.
 *
 * @module
 */

/** Longer names are near none (every known name is far shorter). */
const MAX_NAME = 256;

/** Edit distance, for "did you mean"; `work` counts the cells it fills. */
function distance(a: string, b: string, work?: { cells: number }): number {
  if (work) work.cells += a.length * b.length;
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

/** The words of a name: `router_get_system_identity` -> router, get, system, identity. */
function words(name: string): Set<string> {
  return new Set(name.toLowerCase().split(/[_\-/. ]+/).filter(Boolean));
}

/** Words one name has that the other lacks, both ways. */
function wordGap(a: Set<string>, b: Set<string>): number {
  let gap = 0;
  for (const w of a) if (!b.has(w)) gap++;
  for (const w of b) if (!a.has(w)) gap++;
  return gap;
}

/**
 * How many edits still make a near spelling: a third of a long name, at
 * least three, but under half of a short one, so that a three-letter name
 * (`arp`) is not "near" every other three-letter name (`vrf`, `dns`).
 */
function reach(name: string): number {
  return Math.min(
    Math.max(3, Math.floor(name.length / 3)),
    Math.max(1, Math.ceil(name.length / 2) - 1),
  );
}

/**
 * The names closest to `name` (at most three): by edit distance, or by
 * whole words, so that a name with one word too many or too few
 * (`router_get_system_identity`) finds the one it meant
 * (`router_get_identity`) before a near spelling of another
 * (`router_get_ipsec_identity`). `work`, when given, counts the edit
 * distance's cells (tests hold the cost of a long name to it).
 */
export function nearest(name: string, names: Iterable<string>, work?: { cells: number }): string[] {
  // No name is this long: none is near, and the distance would cost its length times theirs.
  if (name.length > MAX_NAME) return [];
  const typed = words(name);
  const far = reach(name);
  return [...names]
    .flatMap((n) => {
      const gap = wordGap(typed, words(n));
      // The distance is at least the difference in length: a name that
      // much longer or shorter, and not a word away, is not near, and its
      // distance is not worth its cost (a caller's name is up to MAX_NAME).
      if (gap > 1 && Math.abs(name.length - n.length) > far) return [];
      const d = distance(name, n, work);
      return [{ n, d, score: Math.min(d, gap * 2), close: d <= far || gap <= 1 }];
    })
    .filter((x) => x.close)
    .sort((a, b) => a.score - b.score || a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map((x) => x.n);
}
