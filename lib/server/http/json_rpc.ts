/**
 * JSON-RPC checks on a parsed MCP POST body that the SDK's transport does
 * not make: an empty batch `[]` is an Invalid Request (JSON-RPC 2.0, 6),
 * answered 400 with code -32600 rather than accepted with 202.
 *
 * @module
 */
import type { Middleware } from "../../http/app.ts";
import { HttpError, JSONRPC } from "../../http/errors.ts";

/** Middleware refusing an empty batch. */
export const rejectEmptyBatch: Middleware = (_req, ctx, next) => {
  if (Array.isArray(ctx.body) && ctx.body.length === 0) {
    throw new HttpError(
      400,
      "invalid_request",
      "Invalid Request: an empty batch; send at least one JSON-RPC message",
      { rpcCode: JSONRPC.invalidRequest },
    );
  }
  return next();
};
