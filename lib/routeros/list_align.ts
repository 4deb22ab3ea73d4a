/**
 * How two versions of a list of unnamed items correspond, as `diff` aligns
 * lines: equal items that keep their order are kept (a longest common
 * subsequence, Hunt-Szymanski over exact equality); an equal item found
 * elsewhere moved; within each stretch between kept items the rest are
 * paired by likeness (the same item, changed); what is left was added or
 * removed. For an unordered list place means nothing: equal items match
 * wherever they are and nothing moves.
 *
 * Items are given as keys (equal keys, equal items) and a likeness
 * function; indexes in the answer are into the two lists.
 *
 * @module
 */

/** A pair of an old item and a new one, by index. */
export type IndexPair = readonly [from: number, to: number];

/** How two versions of a list correspond. */
export interface ListAlignment {
  /** Equal items in the same order on both sides. */
  kept: IndexPair[];
  /** Equal items whose place changed (ordered lists only). */
  moved: IndexPair[];
  /** The same item, changed; `moved` when its place changed too. */
  changed: { from: number; to: number; moved: boolean }[];
  /** Old items with no counterpart. */
  removed: number[];
  /** New items with no counterpart. */
  added: number[];
}

/** How to align. */
export interface AlignOptions {
  /** The order of the items matters (firewall rules): align in order and report moves. */
  ordered: boolean;
  /** How alike old item `i` and new item `j` are, from 0 (nothing shared) to 1. */
  likeness(i: number, j: number): number;
  /** The least likeness that pairs two items in one stretch (default 0.5). */
  threshold?: number;
  /** The least likeness that pairs an item that also moved to another stretch (default 0.75). */
  movedThreshold?: number;
}

/** Pairs compared at most in one stretch before only nearby items are compared. */
const FULL_COMPARE = 250_000;
/** How far from its proportional place an item is looked for in a larger stretch. */
const WINDOW = 64;

/** A longest common subsequence of two key lists, as index pairs in order. */
export function commonSubsequence(a: readonly string[], b: readonly string[]): IndexPair[] {
  const at = new Map<string, number[]>();
  a.forEach((k, i) => {
    const list = at.get(k);
    if (list) list.push(i);
    else at.set(k, [i]);
  });
  const nodes: { i: number; j: number; prev: number }[] = [];
  // tails[k]: the node ending a common subsequence of length k + 1 with the least old index.
  const tails: number[] = [];
  for (let j = 0; j < b.length; j++) {
    const list = at.get(b[j]);
    if (!list) continue;
    // Old indexes from the last, so one new item extends a chain at most once.
    for (let x = list.length - 1; x >= 0; x--) {
      const i = list[x];
      let lo = 0;
      let hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (nodes[tails[mid]].i < i) lo = mid + 1;
        else hi = mid;
      }
      nodes.push({ i, j, prev: lo > 0 ? tails[lo - 1] : -1 });
      tails[lo] = nodes.length - 1;
    }
  }
  const out: IndexPair[] = [];
  for (let n = tails.length ? tails[tails.length - 1] : -1; n >= 0; n = nodes[n].prev) {
    out.push([nodes[n].i, nodes[n].j]);
  }
  return out.reverse();
}

/**
 * Pair old and new items by likeness, best pairs first (ties: the nearer
 * in relative place, then the earlier), each item at most once.
 */
function pairByLikeness(
  olds: readonly number[],
  news: readonly number[],
  likeness: (i: number, j: number) => number,
  threshold: number,
): [number, number][] {
  if (!olds.length || !news.length) return [];
  const windowed = olds.length * news.length > FULL_COMPARE;
  const candidates: { a: number; b: number; score: number; gap: number }[] = [];
  for (let b = 0; b < news.length; b++) {
    const center = (b / news.length) * olds.length;
    for (let a = 0; a < olds.length; a++) {
      if (windowed && Math.abs(a - center) > WINDOW) continue;
      const score = likeness(olds[a], news[b]);
      if (score < threshold) continue;
      candidates.push({ a, b, score, gap: Math.abs(a / olds.length - b / news.length) });
    }
  }
  candidates.sort((x, y) => y.score - x.score || x.gap - y.gap || x.a - y.a || x.b - y.b);
  const oldTaken = new Set<number>();
  const newTaken = new Set<number>();
  const pairs: [number, number][] = [];
  for (const c of candidates) {
    if (oldTaken.has(c.a) || newTaken.has(c.b)) continue;
    oldTaken.add(c.a);
    newTaken.add(c.b);
    pairs.push([olds[c.a], news[c.b]]);
  }
  return pairs;
}

/** The pairs (sorted by new index) that keep their order: the longest run increasing in old index. */
function inOrder(pairs: readonly IndexPair[]): Set<IndexPair> {
  const sorted = [...pairs].sort((x, y) => x[1] - y[1]);
  const tails: number[] = [];
  const prev: number[] = [];
  sorted.forEach((p, n) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[tails[mid]][0] < p[0]) lo = mid + 1;
      else hi = mid;
    }
    prev[n] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = n;
  });
  const keep = new Set<IndexPair>();
  for (let n = tails.length ? tails[tails.length - 1] : -1; n >= 0; n = prev[n]) {
    keep.add(sorted[n]);
  }
  return keep;
}

/** Sorted indexes split into the stretches between increasing bounds (one fewer than bounds). */
function between(sorted: readonly number[], bounds: readonly number[]): number[][] {
  const out: number[][] = [];
  let at = 0;
  for (let s = 1; s < bounds.length; s++) {
    const stretch: number[] = [];
    while (at < sorted.length && sorted[at] <= bounds[s - 1]) at++;
    while (at < sorted.length && sorted[at] < bounds[s]) stretch.push(sorted[at++]);
    out.push(stretch);
  }
  return out;
}

/** Align two versions of a list (see the module doc). */
export function alignLists(
  oldKeys: readonly string[],
  newKeys: readonly string[],
  opts: AlignOptions,
): ListAlignment {
  const threshold = opts.threshold ?? 0.5;
  const out: ListAlignment = { kept: [], moved: [], changed: [], removed: [], added: [] };
  const oldFree = new Set(oldKeys.keys());
  const newFree = new Set(newKeys.keys());
  const take = (i: number, j: number) => {
    oldFree.delete(i);
    newFree.delete(j);
  };

  // Equal items: in order (ordered lists), or wherever they are.
  if (opts.ordered) {
    out.kept = commonSubsequence(oldKeys, newKeys);
    for (const [i, j] of out.kept) take(i, j);
  }
  const byKey = new Map<string, number[]>();
  for (const i of oldFree) {
    const list = byKey.get(oldKeys[i]);
    if (list) list.push(i);
    else byKey.set(oldKeys[i], [i]);
  }
  for (const j of [...newFree]) {
    const i = byKey.get(newKeys[j])?.shift();
    if (i === undefined) continue;
    take(i, j);
    (opts.ordered ? out.moved : out.kept).push([i, j]);
  }

  // The rest, stretch by stretch between kept items (the whole list when unordered).
  const anchors: IndexPair[] = opts.ordered
    ? [[-1, -1], ...out.kept, [oldKeys.length, newKeys.length]]
    : [[-1, -1], [oldKeys.length, newKeys.length]];
  const oldStretches = between([...oldFree].sort((x, y) => x - y), anchors.map((a) => a[0]));
  const newStretches = between([...newFree].sort((x, y) => x - y), anchors.map((a) => a[1]));
  for (let s = 0; s < oldStretches.length; s++) {
    const olds = oldStretches[s];
    const news = newStretches[s];
    const pairs = pairByLikeness(olds, news, opts.likeness, threshold);
    const ordered = opts.ordered ? inOrder(pairs) : new Set(pairs);
    for (const p of pairs) {
      take(p[0], p[1]);
      out.changed.push({ from: p[0], to: p[1], moved: !ordered.has(p) });
    }
  }
  // An item that changed and also moved past a kept one: only when nearly the same.
  if (opts.ordered) {
    const olds = [...oldFree].sort((x, y) => x - y);
    const news = [...newFree].sort((x, y) => x - y);
    for (const [i, j] of pairByLikeness(olds, news, opts.likeness, opts.movedThreshold ?? 0.75)) {
      take(i, j);
      out.changed.push({ from: i, to: j, moved: true });
    }
  }
  out.removed = [...oldFree].sort((x, y) => x - y);
  out.added = [...newFree].sort((x, y) => x - y);
  out.changed.sort((x, y) => x.to - y.to);
  out.moved.sort((x, y) => x[1] - y[1]);
  return out;
}
