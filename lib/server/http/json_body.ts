/**
 * Parse the body read by `bodyLimit` as JSON into `ctx.body`; malformed
 * JSON gets a JSON-RPC parse error (HTTP 400, code -32700).
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { JSONRPC, jsonRpcError } from "./responses.ts";

/** Middleware parsing `ctx.text` as JSON. */
export const jsonBody: Middleware = (_req, ctx, next) => {
  try {
    ctx.body = JSON.parse(ctx.text ?? "");
  } catch {
    return jsonRpcError(400, JSONRPC.parseError, "Parse error: Invalid JSON");
  }
  return next();
};
