/**
 * The channel limit of one connection: up to N commands hold a channel at
 * once, the rest wait in arrival order, each for at most its timeout. The
 * limit can be lowered at run time (when the router refuses channels).
 *
 * @module
 */
import type { SshError } from "./errors.ts";

interface Waiter {
  resolve: () => void;
  reject: (err: SshError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A counting semaphore with a lowerable limit and timed waits. */
export class ChannelSlots {
  #active = 0;
  #limit: number;
  #peak = 0;
  #queue: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  /** Slots in use now. */
  get active(): number {
    return this.#active;
  }

  /** Commands waiting for a slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /** The limit in force. */
  get limit(): number {
    return this.#limit;
  }

  /** Most slots ever in use at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Whether a slot is free now and nobody waits for one. */
  get free(): boolean {
    return this.#queue.length === 0 && this.#active < this.#limit;
  }

  /**
   * Take a slot: at once if one is free, else when one is released. After
   * `timeoutMs` without one, rejects with `timedOut(limit)`.
   */
  acquire(timeoutMs: number, timedOut: (limit: number) => SshError): Promise<void> {
    if (this.#active < this.#limit) {
      this.#take();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#queue = this.#queue.filter((w) => w !== waiter);
          reject(timedOut(this.#limit));
        }, timeoutMs),
      };
      this.#queue.push(waiter);
    });
  }

  /**
   * Give a slot back, handing it to the next waiter if the limit allows.
   * Returns true when commands were waiting (the slot went to one of them,
   * or stays free under a lowered limit).
   */
  release(): boolean {
    this.#active--;
    if (this.#queue.length === 0) return false;
    if (this.#active < this.#limit) {
      const next = this.#queue.shift()!;
      clearTimeout(next.timer);
      this.#take();
      next.resolve();
    }
    return true;
  }

  /** Lower the limit (never below 1); returns whether it changed. */
  lower(limit: number): boolean {
    const to = Math.max(1, limit);
    if (to >= this.#limit) return false;
    this.#limit = to;
    return true;
  }

  /** Fail every waiting command with `err()`. */
  rejectAll(err: () => SshError): void {
    for (const w of this.#queue.splice(0)) {
      clearTimeout(w.timer);
      w.reject(err());
    }
  }

  #take(): void {
    this.#active++;
    this.#peak = Math.max(this.#peak, this.#active);
  }
}
