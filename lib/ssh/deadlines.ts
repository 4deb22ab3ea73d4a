/**
 * The timeouts of one connection's commands on a single timer. A timer per
 * command costs a timer-list insert and removal on every exec (about a
 * tenth of a warm call's own CPU here); this keeps one timer, armed for the
 * earliest deadline, and leaves it alone while commands come and go: a
 * finished command is only dropped from the set, and the timer, when it
 * fires, fails what has expired and re-arms for the next deadline.
 *
 * The timer never keeps the process alive (the connection's socket does
 * while a command runs).
 *
 * @module
 */

/** A pending deadline; pass it to {@linkcode Deadlines.remove} when the command ends. */
export interface Deadline {
  readonly at: number;
  readonly fire: () => void;
}

/** Deadlines of commands in flight, on one timer. */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  #due = Infinity;

  /** Call `fire` in `ms` unless removed before. */
  add(ms: number, fire: () => void): Deadline {
    const deadline = { at: performance.now() + ms, fire };
    this.#pending.add(deadline);
    if (deadline.at < this.#due) this.#arm(deadline.at, ms);
    return deadline;
  }

  /** The command ended: its deadline no longer fires. */
  remove(deadline: Deadline): void {
    this.#pending.delete(deadline);
  }

  /** Commands whose deadline is pending. */
  get size(): number {
    return this.#pending.size;
  }

  /** Drop every deadline and the timer. */
  clear(): void {
    this.#pending.clear();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = Infinity;
  }

  /** Fire at `at`, `ms` from now (given as asked: a timer of the same length set earlier fires first). */
  #arm(at: number, ms: number): void {
    clearTimeout(this.#timer);
    this.#due = at;
    this.#timer = setTimeout(this.#tick, ms);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  #tick = (): void => {
    this.#timer = undefined;
    this.#due = Infinity;
    const now = performance.now();
    let next = Infinity;
    const expired: Deadline[] = [];
    for (const d of this.#pending) {
      if (d.at <= now) expired.push(d);
      else next = Math.min(next, d.at);
    }
    for (const d of expired) this.#pending.delete(d);
    if (next < Infinity) this.#arm(next, Math.max(0, next - now));
    for (const d of expired) d.fire();
  };
}
