/**
 * A connection's idle close on one lazily moved timer: armed when a command
 * ends and none is armed; when it fires, it closes the connection if it is
 * still idle, or moves on to the new end of the idle time. A warm
 * connection so sets no timer per command. The timer never keeps the
 * process alive.
 *
 * @module
 */

/** Calls `close` once nothing has run for `ms` (0 or less: never). */
export class IdleClose {
  readonly #ms: number;
  readonly #busy: () => boolean;
  readonly #close: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastUsed = 0;
  #stopped = false;

  /** `busy`: whether a command runs now (the one that ends calls `touch` again). */
  constructor(ms: number, busy: () => boolean, close: () => void) {
    this.#ms = ms;
    this.#busy = busy;
    this.#close = close;
  }

  /** The connection became idle now. */
  touch(): void {
    this.#lastUsed = performance.now();
    if (this.#timer === undefined && !this.#stopped && this.#ms > 0) this.#arm(this.#ms);
  }

  /** No idle close from now on. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#check, ms);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  #check = (): void => {
    this.#timer = undefined;
    if (this.#stopped || this.#busy()) return;
    const left = this.#lastUsed + this.#ms - performance.now();
    if (left > 0) this.#arm(left);
    else this.#close();
  };
}
