/**
 * The channel limit of one connection, shared fairly between callers: up
 * to N commands hold a channel at once, the rest wait, each for at most its
 * timeout. The limit can be lowered at run time (when the router refuses
 * channels).
 *
 * Who a command is for is a neutral key given by the layer above (an empty
 * or absent key: the process's owner, with no share to keep). With a limit
 * of 2 or more:
 *
 * - one channel is kept for urgent commands (those that must not wait
 *   behind others, such as the commit of a change the router reverts by
 *   itself at a deadline): other commands take at most N - 1 at once, and
 *   urgent ones are served first;
 * - one caller holds at most N - 2 channels at once (at least 1), so the
 *   channels others may use are never all taken by one caller's long
 *   commands;
 * - waiting callers are served in turn (round robin), each caller's own
 *   commands in arrival order.
 *
 * @module
 */
import type { SshError } from "./errors.ts";

const NO_CALLER: { who?: string; urgent?: boolean } = {};

interface Waiter {
  who: string;
  resolve: () => void;
  reject: (err: SshError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** A counting semaphore with a lowerable limit, timed waits and fair shares. */
export class ChannelSlots {
  #active = 0;
  #limit: number;
  #peak = 0;
  /** Channels held, by caller (keyed callers only). */
  #held = new Map<string, number>();
  /** Urgent commands waiting, in arrival order. */
  #urgent: Waiter[] = [];
  /** Other commands waiting, by caller ("" for the owner). */
  #byCaller = new Map<string, Waiter[]>();
  /** Callers with commands waiting, the next to be served first. */
  #turns: string[] = [];
  #waiting = 0;

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  /** Slots in use now. */
  get active(): number {
    return this.#active;
  }

  /** Commands waiting for a slot. */
  get queued(): number {
    return this.#waiting;
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
    return this.#waiting === 0 && this.#active < this.#limit;
  }

  /** Slots kept for urgent commands. */
  get #reserved(): number {
    return this.#limit >= 2 ? 1 : 0;
  }

  /** Most slots one keyed caller holds at once. */
  get perCaller(): number {
    return Math.max(1, this.#limit - 1 - this.#reserved);
  }

  #mayTake(who: string, urgent: boolean): boolean {
    if (urgent) return this.#active < this.#limit;
    if (this.#active + 1 + this.#reserved > this.#limit) return false;
    return who === "" || (this.#held.get(who) ?? 0) < this.perCaller;
  }

  /**
   * Take a slot for `caller.who` (absent: the owner): at once if its share
   * allows, else when one is released and its turn comes (an urgent one
   * first). After `timeoutMs` without one, rejects with `timedOut(limit)`.
   */
  acquire(
    timeoutMs: number,
    timedOut: (limit: number) => SshError,
    caller: { who?: string; urgent?: boolean } = NO_CALLER,
  ): Promise<void> {
    const who = caller.who ?? "";
    const urgent = caller.urgent === true;
    if (this.#mayTake(who, urgent)) {
      this.#take(who);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        who,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#drop(waiter, urgent);
          reject(timedOut(this.#limit));
        }, timeoutMs),
      };
      this.#waiting++;
      if (urgent) this.#urgent.push(waiter);
      else {
        const queue = this.#byCaller.get(who);
        if (queue) queue.push(waiter);
        else {
          this.#byCaller.set(who, [waiter]);
          this.#turns.push(who);
        }
      }
    });
  }

  /**
   * Give back a slot `who` held, handing slots to the waiters whose turn
   * and share allow. Returns true when commands were waiting (a slot went
   * to one of them, or stays free for a share or a lowered limit).
   */
  release(who = ""): boolean {
    this.#active--;
    if (who !== "") {
      const left = (this.#held.get(who) ?? 1) - 1;
      if (left > 0) this.#held.set(who, left);
      else this.#held.delete(who);
    }
    if (this.#waiting === 0) return false;
    while (this.#serveNext());
    return true;
  }

  /** Hand one slot to the first waiter that may take it; false when none may. */
  #serveNext(): boolean {
    if (this.#urgent.length > 0 && this.#mayTake("", true)) {
      this.#hand(this.#urgent.shift()!);
      return true;
    }
    for (let i = 0; i < this.#turns.length; i++) {
      const who = this.#turns[i];
      if (!this.#mayTake(who, false)) continue;
      const queue = this.#byCaller.get(who)!;
      const next = queue.shift()!;
      // Its turn is used: to the back of the line, or out of it.
      this.#turns.splice(i, 1);
      if (queue.length > 0) this.#turns.push(who);
      else this.#byCaller.delete(who);
      this.#hand(next);
      return true;
    }
    return false;
  }

  #hand(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.#waiting--;
    this.#take(waiter.who);
    waiter.resolve();
  }

  /** Take a waiter that gave up out of its queue. */
  #drop(waiter: Waiter, urgent: boolean): void {
    if (urgent) {
      const i = this.#urgent.indexOf(waiter);
      if (i < 0) return;
      this.#urgent.splice(i, 1);
    } else {
      const queue = this.#byCaller.get(waiter.who);
      const i = queue?.indexOf(waiter) ?? -1;
      if (i < 0) return;
      queue!.splice(i, 1);
      if (queue!.length === 0) {
        this.#byCaller.delete(waiter.who);
        this.#turns.splice(this.#turns.indexOf(waiter.who), 1);
      }
    }
    this.#waiting--;
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
    const all = [...this.#urgent.splice(0), ...[...this.#byCaller.values()].flat()];
    this.#byCaller.clear();
    this.#turns.length = 0;
    this.#waiting = 0;
    for (const w of all) {
      clearTimeout(w.timer);
      w.reject(err());
    }
  }

  #take(who: string): void {
    this.#active++;
    if (this.#active > this.#peak) this.#peak = this.#active;
    if (who !== "") this.#held.set(who, (this.#held.get(who) ?? 0) + 1);
  }
}
