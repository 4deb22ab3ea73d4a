/**
 * What a file transfer reports as its bytes pass: their SHA-256, computed
 * incrementally (the file is never whole in memory), and MCP progress
 * notifications paced to one per {@linkcode PROGRESS_EVERY_MS} plus the
 * first and the last, each larger than the one before (as MCP requires).
 *
 * @module
 */
import { createHash, type Hash } from "node:crypto";
import type { ToolContext } from "../tool.ts";

/** Least time between two progress notifications. */
export const PROGRESS_EVERY_MS = 250;

/** SHA-256 of bytes fed in order. */
export class Sha256 {
  readonly #hash: Hash = createHash("sha256");

  update(chunk: Uint8Array): void {
    this.#hash.update(chunk);
  }

  /** The hex digest (once). */
  hex(): string {
    return this.#hash.digest("hex");
  }
}

/** The chunks of `stream`, each hashed into `hash` as it passes. */
export async function* hashedChunks(
  stream: AsyncIterable<Uint8Array>,
  hash: Sha256,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    hash.update(chunk);
    yield chunk;
  }
}

/** Paced progress of a transfer of `total` bytes (phases may add up to it). */
export class ProgressPacer {
  readonly #send: ToolContext["progress"];
  #total: number | undefined;
  #sent = -1;
  #at = 0;

  constructor(send: ToolContext["progress"], total?: number) {
    this.#send = send;
    this.#total = total;
  }

  /** Set the total once it is known (a download learns it when the file is opened). */
  set total(total: number) {
    this.#total = total;
  }

  /** `done` bytes so far: sent when it is the first, the last, or the pace allows. */
  report(done: number, message: string): void {
    if (!this.#send || this.#total === undefined || done <= this.#sent) return;
    const now = performance.now();
    const last = done >= this.#total;
    if (this.#sent >= 0 && !last && now - this.#at < PROGRESS_EVERY_MS) return;
    this.#sent = done;
    this.#at = now;
    // A notification that cannot be sent does not fail the transfer.
    this.#send(done, this.#total, message).catch(() => {});
  }
}
