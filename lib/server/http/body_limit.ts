/**
 * 413 for request bodies over a limit (4 MiB for MCP messages). The body is
 * read here, never past the limit, and handed on as text in `ctx.text`.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { JSONRPC, jsonRpcError } from "./responses.ts";

/** The largest MCP message body accepted. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

function tooLarge(max: number): Response {
  return jsonRpcError(
    413,
    JSONRPC.serverError,
    `Payload Too Large: the request body must not exceed ${max} bytes`,
  );
}

/** Middleware reading the body up to `max` bytes, or answering 413. */
export function bodyLimit(max: number = MAX_BODY_BYTES): Middleware {
  return async (req, ctx, next) => {
    const declared = req.headers.get("content-length");
    if (declared !== null && Number(declared) > max) {
      await req.body?.cancel().catch(() => {});
      return tooLarge(max);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (req.body) {
      const reader = req.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > max) {
            await reader.cancel().catch(() => {});
            return tooLarge(max);
          }
          chunks.push(value);
        }
      } finally {
        reader.releaseLock();
      }
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    try {
      ctx.text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return jsonRpcError(400, JSONRPC.parseError, "Parse error: the body is not valid UTF-8");
    }
    return next();
  };
}
