/**
 * The session channel a connection keeps open ahead of need, so that the
 * next command costs one round trip. A router that closes idle channels
 * (three times in a row) turns pre-opening off for the connection.
 *
 * @module
 */
import { log } from "../log.ts";
import type { Client, ClientChannel } from "./ssh2.ts";
import { openSessionChannel } from "./ssh2_internals.ts";

interface Spare {
  ready: Promise<ClientChannel>;
  taken: boolean;
}

/** One connection's pre-opened session channel, and its counters. */
export class SpareChannel {
  #client: Client;
  #who: string;
  #spare: Spare | null = null;
  #enabled: boolean;
  #closedInARow = 0;
  #used = 0;
  #closedByServer = 0;
  #beforeOpen: () => void;

  /** `beforeOpen` runs just before a channel is opened (what must reach the router first). */
  constructor(client: Client, enabled: boolean, who: string, beforeOpen: () => void = () => {}) {
    this.#client = client;
    this.#enabled = enabled;
    this.#who = who;
    this.#beforeOpen = beforeOpen;
  }

  /** Whether pre-opening is (still) in use. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Commands run on a pre-opened channel. */
  get used(): number {
    return this.#used;
  }

  /** Pre-opened channels the server closed while idle. */
  get closedByServer(): number {
    return this.#closedByServer;
  }

  /** Open a spare channel if pre-opening is on and there is none. */
  replenish(): void {
    if (!this.#enabled || this.#spare) return;
    this.#beforeOpen();
    const spare: Spare = { ready: openSessionChannel(this.#client), taken: false };
    this.#spare = spare;
    spare.ready.then(
      (ch) => {
        if (spare.taken) return;
        // Flowing, so that ssh2 emits "close" when the server closes it.
        ch.resume();
        ch.once("close", () => {
          if (this.#spare !== spare) return;
          // The server closed the idle channel: the next command opens its own.
          this.#spare = null;
          this.noteClosedByServer();
        });
      },
      () => {
        if (this.#spare === spare) this.#spare = null;
      },
    );
  }

  /** Take the spare channel (being opened or open), or null when there is none. */
  take(): Promise<ClientChannel> | null {
    const spare = this.#spare;
    if (!spare) return null;
    this.#spare = null;
    spare.taken = true;
    return spare.ready;
  }

  /** Close the spare channel, if any. */
  drop(): void {
    const spare = this.#spare;
    this.#spare = null;
    if (!spare) return;
    spare.taken = true;
    spare.ready.then((ch) => ch.close(), () => {});
  }

  /** A command ran on a pre-opened channel. */
  noteUsed(): void {
    this.#used++;
    this.#closedInARow = 0;
  }

  /** The server closed a pre-opened channel before it was used. */
  noteClosedByServer(): void {
    this.#closedByServer++;
    if (++this.#closedInARow >= 3 && this.#enabled) {
      this.#enabled = false;
      log(
        "debug",
        `${this.#who}: the SSH server closes idle session channels; not pre-opening any more`,
      );
    }
  }
}
