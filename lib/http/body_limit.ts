/**
 * 413 for request bodies over a limit, 408 for bodies that take too long.
 * The body is read here, never past the limit (a declared `Content-Length`
 * over it is refused unread) nor past the time limit, and handed on as
 * text in `ctx.text`; a body that is not UTF-8 gets 400.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { HttpError, JSONRPC } from "./errors.ts";

/** The default body limit: 4 MiB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

function tooLarge(max: number): HttpError {
  const mib = max % 1048576 === 0 ? ` (${max / 1048576} MiB)` : "";
  return new HttpError(
    413,
    "payload_too_large",
    `Payload Too Large: the body must not exceed ${max} bytes${mib}`,
    { details: { limitBytes: max }, rpcCode: JSONRPC.serverError },
  );
}

function timedOut(ms: number): HttpError {
  return new HttpError(
    408,
    "request_timeout",
    `Request Timeout: the body did not arrive within ${ms / 1000} s`,
    { headers: { connection: "close" }, rpcCode: JSONRPC.serverError },
  );
}

/**
 * Read the body into one buffer that grows as bytes arrive (never past the
 * declared length or `max`), each chunk copied in and let go: a request
 * never holds more than `max` bytes of body, and a declared length over
 * `max` is refused before a byte is read. The whole body must arrive within
 * `timeoutMs`.
 */
async function readAtMost(req: Request, max: number, timeoutMs: number): Promise<Uint8Array> {
  const declaredText = req.headers.get("content-length");
  const declared = declaredText === null ? undefined : Number(declaredText);
  if (declared !== undefined && declared > max) {
    await req.body?.cancel().catch(() => {});
    throw tooLarge(max);
  }
  if (!req.body) return new Uint8Array();
  const cap = declared !== undefined && Number.isSafeInteger(declared) ? declared : max;
  let buffer = new Uint8Array(Math.min(cap, 64 * 1024));
  let size = 0;
  const reader = req.body.getReader();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  try {
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
      if (size + value.byteLength > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge(max);
      }
      if (size + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(max, Math.max(buffer.byteLength * 2, size + value.byteLength)),
        );
        grown.set(buffer.subarray(0, size));
        buffer = grown;
      }
      buffer.set(value, size);
      size += value.byteLength;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
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
): Middleware {
  return async (req, ctx, next) => {
    let bytes: Uint8Array;
    try {
      bytes = await readAtMost(req, max, timeoutMs);
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
