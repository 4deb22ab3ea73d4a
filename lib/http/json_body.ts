/**
 * Parse the body read by `bodyLimit` as JSON into `ctx.body`; malformed
 * JSON gets 400 naming the line and column (JSON-RPC code -32700).
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { HttpError, JSONRPC } from "./errors.ts";
import { parseJson } from "./json_location.ts";

/** Middleware parsing `ctx.text`; `emptyHint` tells what to send instead of an empty body. */
export function jsonBody(emptyHint = "send a JSON value"): Middleware {
  return (_req, ctx, next) => {
    const text = ctx.text ?? "";
    if (text.trim() === "") {
      throw new HttpError(400, "invalid_json", `Parse error: the body is empty; ${emptyHint}`, {
        rpcCode: JSONRPC.parseError,
      });
    }
    const parsed = parseJson(text);
    if ("error" in parsed) {
      const { line, column, message } = parsed.error;
      throw new HttpError(
        400,
        "invalid_json",
        `Parse error: the body is not valid JSON: ${message} at line ${line} column ${column}`,
        { details: { line, column }, rpcCode: JSONRPC.parseError },
      );
    }
    ctx.body = parsed.value;
    return next();
  };
}
