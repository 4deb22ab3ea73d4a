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
  const deadline = AbortSignal.timeout(timeoutMs);
  let release = () => {};
  if (cap > SMALL_BODY) {
    try {
      release = await budget.reserve(cap, deadline);
    } catch {
      await req.body.cancel().catch(() => {});
      throw timedOut(timeoutMs);
    }
  }
  const reader = req.body.getReader();
  const late = () => void reader.cancel().catch(() => {});
  deadline.addEventListener("abort", late, { once: true });
  // Nothing is allocated before bytes arrive, and never more than twice what
  // arrived: a stalled body that declared 64 KiB and sent one byte holds 4 KiB.
  let buffer = EMPTY;
  let size = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (deadline.aborted) throw timedOut(timeoutMs);
        throw err;
      }
      if (deadline.aborted) throw timedOut(timeoutMs);
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
  } finally {
    deadline.removeEventListener("abort", late);
    reader.releaseLock();
    release();
  }
  return buffer.subarray(0, size);
}

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
      ctx.text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new HttpError(400, "invalid_json", "Parse error: the body is not valid UTF-8", {
        rpcCode: JSONRPC.parseError,
      });
    }
    return next();
  };
}
