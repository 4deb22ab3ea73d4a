/**
 * 413 for request bodies over a limit. The body is read here, never past
 * the limit (a declared `Content-Length` over it is refused unread), and
 * handed on as text in `ctx.text`; a body that is not UTF-8 gets 400.
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

async function readAtMost(req: Request, max: number): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > max) {
    await req.body?.cancel().catch(() => {});
    throw tooLarge(max);
  }
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge(max);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

/** Middleware reading the body up to `max` bytes into `ctx.text`, or refusing it. */
export function bodyLimit(max: number = MAX_BODY_BYTES): Middleware {
  return async (req, ctx, next) => {
    const bytes = await readAtMost(req, max);
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
