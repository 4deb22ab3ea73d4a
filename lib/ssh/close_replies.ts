/**
 * The answers to a router's channel closes, sent with the next thing the
 * connection writes. A router ends an exec by closing its channel, and SSH
 * wants a close back; ssh2 sends it at once, as a socket write of its own
 * that wakes the router's side, in the very turn that delivers the command's
 * output, so the output waited for that write (`write_batching.ts` cannot
 * merge it with anything: nothing else is written then). Here the close
 * goes out in front of the next request or channel open on the connection
 * (one write for both, read by the router in that order), or after
 * {@linkcode CLOSE_REPLY_MS} when none follows.
 *
 * So the router never holds more channels than before when it is asked for
 * a new one (the answers are read first), and a connection left idle ends
 * its last channel a second later. A timer per command would cost more than
 * the write it saves (each one wakes the event loop): the timer here runs at
 * most once a second per connection. A connection that closes drops what is
 * waiting: its disconnect ends every channel.
 *
 * @module
 */

/** How long a close may wait for a command to ride with (ms). */
export const CLOSE_REPLY_MS = 1000;

/** The close answers of one connection waiting to be sent. */
export class CloseReplies {
  #waiting: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #gone = false;

  /** Send `reply` with the next write, or after {@linkcode CLOSE_REPLY_MS}. */
  defer(reply: () => void): void {
    if (this.#gone) return;
    this.#waiting.push(reply);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.flush();
      }, CLOSE_REPLY_MS);
      Deno.unrefTimer(this.#timer as unknown as number);
    }
  }

  /**
   * Send every waiting answer now (before the next request goes out). The
   * timer stays: when it fires it sends what waits then, if anything (one
   * timer per {@linkcode CLOSE_REPLY_MS} at most, not one per command).
   */
  flush(): void {
    if (this.#waiting.length === 0) return;
    const replies = this.#waiting;
    this.#waiting = [];
    for (const reply of replies) reply();
  }

  /** The connection is closing: nothing more is sent. */
  drop(): void {
    this.#gone = true;
    this.#waiting = [];
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
