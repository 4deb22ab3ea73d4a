/**
 * 413 for request bodies over a limit, 408 for bodies that take too long.
 * The body is read here, never past the limit (a declared `Content-Length`
 * over it is refused unread) nor past the time limit, into one buffer (a
 * JSON-RPC body is parsed whole; it grows as bytes arrive), and handed on as
 * text in `ctx.text`; a body that is not UTF-8 gets 400. Large bodies in
 * memory at once share a budget ({@linkcode BodyBudget}): past it, a body waits for its turn
 * within its time limit, so slow uploads cannot pile up memory.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { HttpError, JSONRPC } from "./errors.ts";

/** The default body limit: 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

function tooLarge(max: number, why?: string): HttpError {
  const mib = max % 1048576 === 0 ? ` (${max / 1048576} MiB)` : "";
  return new HttpError(
    413,
    "payload_too_large",
    why
      ? `Payload Too Large: the body is ${why} (Content-Length)`
      : `Payload Too Large: the body must not exceed ${max} bytes${mib}`,
    { details: { limitBytes: max }, rpcCode: JSONRPC.serverError },
  );
}

/**
 * The bytes of request bodies held in memory at once, across requests.
 * A body reserves its declared length (the limit when it declares none)
 * before a byte is read and waits its turn when the budget is spent, so
 * a hundred slow uploads cost at most the budget, not a hundred bodies.
 * Small bodies (the usual MCP message) never wait.
 */
export class BodyBudget {
  readonly total: number;
  #free: number;
  #waiting: { bytes: number; go: () => void }[] = [];

  constructor(total: number) {
    this.total = total;
    this.#free = total;
  }

  /** Bytes not reserved now. */
  get free(): number {
    return this.#free;
  }

  /** Reserve `bytes` (at most the total), waiting until `signal` aborts; resolves to the release. */
  async reserve(wanted: number, signal: AbortSignal): Promise<() => void> {
    const bytes = Math.min(wanted, this.total);
    if (bytes <= this.#free && this.#waiting.length === 0) {
      this.#free -= bytes;
    } else {
      await new Promise<void>((resolve, reject) => {
        const entry = { bytes, go: resolve };
        this.#waiting.push(entry);
        signal.addEventListener("abort", () => {
          const i = this.#waiting.indexOf(entry);
          if (i < 0) return; // already handed its bytes
          this.#waiting.splice(i, 1);
          reject(signal.reason);
          this.#wake();
        }, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#free += bytes;
      this.#wake();
    };
  }

  /** Hand freed bytes to the waiters, first come first served. */
  #wake(): void {
    while (this.#waiting.length > 0 && this.#waiting[0].bytes <= this.#free) {
      const next = this.#waiting.shift()!;
      this.#free -= next.bytes;
      next.go();
    }
  }
}

/** The first buffer of a body, once its first bytes arrive (or its declared length, if less). */
const MIN_BUFFER = 4096;

const EMPTY = new Uint8Array();

/** Bodies up to this size never wait for the budget. */
const SMALL_BODY = 64 * 1024;

/** The budget of this process: 64 MiB of request bodies at once. */
export const BODY_BUDGET: BodyBudget = new BodyBudget(64 * 1024 * 1024);

function timedOut(ms: number): HttpError {
  return new HttpError(
    408,
    "request_timeout",
    `Request Timeout: the body did not arrive within ${ms / 1000} s`,
    { headers: { connection: "close" }, rpcCode: JSONRPC.serverError },
  );
}

/**
 * Read the body into one buffer that grows as bytes arrive, doubling (never
 * past the declared length or `max`; nothing is allocated for a declared
 * length before its bytes come), each chunk copied in and let go: a request
 * never holds more than `max` bytes of body, and a declared length over
 * `max` is refused before a byte is read. The whole body must arrive within
 * `timeoutMs`.
 */
async function readAtMost(
  req: Request,
  max: number,
  timeoutMs: number,
  budget: BodyBudget,
): Promise<Uint8Array> {
  const declaredText = req.headers.get("content-length");
  const declared = declaredText === null ? undefined : Number(declaredText);
  if (declared !== undefined && declared > max) {
    await req.body?.cancel().catch(() => {});
    throw tooLarge(max);
  }
  if (!req.body) return new Uint8Array();
  const cap = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0
    ? declared
    : max;
  const reader = req.body.getReader();
  let late = false;
  /** Only a large body waiting for the budget needs a signal. */
  let waiting: AbortController | undefined;
  const done = BODY_CLOCK.add(timeoutMs, () => {
    late = true;
    waiting?.abort();
    reader.cancel().catch(() => {});
  });
  let release = () => {};
  try {
    if (cap > SMALL_BODY) {
      waiting = new AbortController();
      try {
        release = await budget.reserve(cap, waiting.signal);
      } catch {
        await reader.cancel().catch(() => {});
        throw timedOut(timeoutMs);
      }
    }
    // Nothing is allocated before bytes arrive, and never more than twice what
    // arrived: a stalled body that declared 64 KiB and sent one byte holds 4 KiB.
    let buffer = EMPTY;
    let size = 0;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (late) throw timedOut(timeoutMs);
        throw err;
      }
      if (late) throw timedOut(timeoutMs);
      if (chunk.done) break;
      const value = chunk.value;
      if (size + value.byteLength > cap) {
        await reader.cancel().catch(() => {});
        throw size + value.byteLength > max ? tooLarge(max) : tooLarge(max, "longer than declared");
      }
      if (size + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(cap, Math.max(buffer.byteLength * 2, size + value.byteLength, MIN_BUFFER)),
        );
        grown.set(buffer.subarray(0, size));
        buffer = grown;
      }
      buffer.set(value, size);
      size += value.byteLength;
    }
    // The reader is not released: the body is used up (or cancelled), and a
    // release builds an error for the reader's `closed` promise each time.
    return buffer.subarray(0, size);
  } finally {
    done();
    release();
  }
}

/**
 * The time limits of the bodies being read, on one timer: a sweep every
 * {@linkcode SWEEP_MS} expires the late ones. A timer per request (set and
 * cleared, or left to run out as AbortSignal.timeout's is) costs more than
 * reading a small body, at thousands of requests a second.
 */
class BodyClock {
  #reading = new Set<{ due: number; expire: () => void }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Whether a body was being read at the last sweep (the timer stops after a quiet one). */
  #busy = false;

  /** Call `expire` once `ms` have passed, unless the returned function is called first. */
  add(ms: number, expire: () => void): () => void {
    const entry = { due: performance.now() + ms, expire };
    this.#reading.add(entry);
    this.#busy = true;
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.#sweep, SWEEP_MS);
      Deno.unrefTimer(this.#timer as unknown as number);
    }
    return () => void this.#reading.delete(entry);
  }

  #sweep = (): void => {
    if (this.#reading.size === 0 && !this.#busy) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    this.#busy = this.#reading.size > 0;
    const now = performance.now();
    for (const entry of this.#reading) {
      if (entry.due > now) continue;
      this.#reading.delete(entry);
      entry.expire();
    }
  };
}

/** How often the body time limits are checked (ms): a body may run this much over. */
const SWEEP_MS = 250;

/** The body clock of this process. */
const BODY_CLOCK = new BodyClock();

/** Strict UTF-8 (a decoder without `stream` keeps no state between calls). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The default time a body may take to arrive: 30 s. */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * Middleware reading the body up to `max` bytes into `ctx.text`, or
 * refusing it: 413 past `max`, 408 (and the connection closed) when it
 * takes longer than `timeoutMs`.
 */
export function bodyLimit(
  max: number = MAX_BODY_BYTES,
  timeoutMs: number = BODY_TIMEOUT_MS,
  budget: BodyBudget = BODY_BUDGET,
): Middleware {
  return async (req, ctx, next) => {
    let bytes: Uint8Array;
    try {
      bytes = await readAtMost(req, max, timeoutMs, budget);
    } catch (err) {
      if (err instanceof HttpError && err.status === 408) ctx.closeConnection?.();
      throw err;
    }
    try {
      ctx.text = UTF8.decode(bytes);
    } catch {
      throw new HttpError(400, "invalid_json", "Parse error: the body is not valid UTF-8", {
        rpcCode: JSONRPC.parseError,
      });
    }
    return next();
  };
}
