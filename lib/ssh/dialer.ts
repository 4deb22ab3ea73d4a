/**
 * The bounded dialer: at most N connection attempts (TCP + handshake +
 * authentication) in flight at once, the rest waiting in arrival order. A
 * slow handshake holds one slot only, so it never blocks the others.
 *
 * @module
 */

/** Limits how many connections are being opened at once. */
export class Dialer {
  readonly limit: number;
  #inFlight = 0;
  #waiting: (() => void)[] = [];
  #peak = 0;

  constructor(limit = 32) {
    this.limit = Math.max(1, limit);
  }

  /** Connection attempts running now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Attempts waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Most attempts ever in flight at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Run `dial` once a slot is free; the slot is released when it settles. */
  async dial<T>(dial: () => Promise<T>): Promise<T> {
    if (this.#inFlight >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#inFlight++;
    }
    this.#peak = Math.max(this.#peak, this.#inFlight);
    try {
      return await dial();
    } finally {
      const next = this.#waiting.shift();
      // Hand the slot straight to the next waiter, or give it back.
      if (next) next();
      else this.#inFlight--;
    }
  }
}
