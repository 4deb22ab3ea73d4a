/**
 * Bounded repetition: every benchmark loop stops after a number of runs or
 * a time budget, whichever comes first, and always does at least one run.
 *
 * @module
 */

/**
 * Run `fn` sequentially up to `count` times, stopping early once `budgetMs`
 * has passed (after at least one run). Returns what each run returned.
 */
export async function repeat<T>(
  count: number,
  budgetMs: number,
  fn: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = [];
  const deadline = performance.now() + budgetMs;
  for (let i = 0; i < count; i++) {
    if (i > 0 && performance.now() > deadline) break;
    out.push(await fn(i));
  }
  return out;
}

/** Time one async call, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
