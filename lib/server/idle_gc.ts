/**
 * Memory handed back once the server goes idle. V8 keeps the heap it grew
 * to in a burst of work (start-up builds every listed tool's schemas; a
 * fleet query holds hundreds of answers at once), and this runtime never
 * tells V8 that the process has gone idle, so the resident size would stay
 * at its peak, well above what the server holds after `tools/list`.
 *
 * Once a second the server looks at its own CPU time: after a stretch of
 * work, the first quiet second with a heap grown by more than
 * {@linkcode GROWTH_BYTES} since the last collection runs one full
 * collection, which shrinks the heap (and, when memory still live then kept
 * it grown, it looks again a few quiet seconds later). It never runs while
 * requests are being served, and not at all for a server that only answers
 * now and then (its heap does not grow). Where the collector cannot be reached (V8's
 * `gc` is exposed through `node:v8` and `node:vm`), nothing happens.
 *
 * @module
 */
import process from "node:process";
import v8 from "node:v8";
import vm from "node:vm";

/** How often the server looks (ms). */
export const TICK_MS = 1000;
/** CPU time in one tick that counts as work (ms): below it the server is idle. */
export const BUSY_CPU_MS = 20;
/** Heap growth since the last collection that makes one worth running. */
export const GROWTH_BYTES = 4 * 1024 * 1024;

/** What the compactor reads and does; injectable for tests. */
export interface IdleGcProbe {
  /** CPU time used by the process so far (ms). */
  cpuMs(): number;
  /** Bytes the V8 heap holds from the system. */
  heapBytes(): number;
  /** Run a full collection. */
  collect(): void;
}

/** Quiet ticks between looks again at a heap that a collection could not shrink. */
export const RETRY_TICKS = 2;
/** Looks again before such a heap is taken as the new level. */
export const RETRIES_MAX = 32;

/** Decides, tick by tick, when a full collection is due. */
export class IdleGc {
  readonly #probe: IdleGcProbe;
  #lastCpu: number;
  #baseline: number;
  #worked = false;
  /** Looks again left at a heap a collection left grown (0: none due). */
  #retriesLeft = 0;
  #retryIn = 0;
  /** Full collections run so far. */
  collections = 0;

  constructor(probe: IdleGcProbe) {
    this.#probe = probe;
    this.#lastCpu = probe.cpuMs();
    this.#baseline = probe.heapBytes();
  }

  /**
   * One look: collect if a stretch of work just ended and the heap grew.
   * A collection that leaves the heap grown (memory still live then:
   * request bodies waiting for their timeout, a query still running) is
   * tried again every {@linkcode RETRY_TICKS} quiet ticks, since what held
   * it may be dropped without a stretch of work of its own (a stalled body
   * closed by its timeout); after {@linkcode RETRIES_MAX} looks the grown
   * heap is taken as the new level.
   */
  tick(): boolean {
    const cpu = this.#probe.cpuMs();
    const busy = cpu - this.#lastCpu >= BUSY_CPU_MS;
    this.#lastCpu = cpu;
    if (busy) {
      this.#worked = true;
      return false;
    }
    const retry = this.#retriesLeft > 0 && --this.#retryIn <= 0;
    if (!this.#worked && !retry) return false;
    this.#worked = false;
    if (this.#probe.heapBytes() - this.#baseline < GROWTH_BYTES) {
      this.#retriesLeft = 0;
      return false;
    }
    this.#probe.collect();
    this.collections++;
    const after = this.#probe.heapBytes();
    const left = retry ? this.#retriesLeft - 1 : RETRIES_MAX;
    if (after - this.#baseline >= GROWTH_BYTES && left > 0) {
      this.#retriesLeft = left;
      this.#retryIn = RETRY_TICKS;
    } else {
      this.#baseline = after;
      this.#retriesLeft = 0;
    }
    // The collection's own CPU time is not work.
    this.#lastCpu = this.#probe.cpuMs();
    return true;
  }
}

/** V8's full collection, or null where it cannot be reached. */
export function v8Collector(): (() => void) | null {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    return typeof gc === "function" ? gc as () => void : null;
  } catch {
    return null;
  }
}

/**
 * Start looking once a second (the timer never keeps the process alive).
 * Returns a function that stops it.
 */
export function startIdleGc(): () => void {
  const collect = v8Collector();
  if (!collect) return () => {};
  const gc = new IdleGc({
    cpuMs: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    // External memory counts: request bodies live in ArrayBuffers outside the heap.
    heapBytes: () => {
      const m = Deno.memoryUsage();
      return m.heapTotal + m.external;
    },
    collect,
  });
  const timer = setInterval(() => gc.tick(), TICK_MS);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
