/**
 * JSON-RPC checks on a parsed MCP POST body that the SDK's transport does
 * not make: an empty batch `[]` is an Invalid Request (JSON-RPC 2.0, 6),
 * answered 400 with code -32600 rather than accepted with 202; a request
 * that is not valid but has an id is answered under that id.
 *
 * @module
 */
import type { Middleware } from "../../http/app.ts";
import { HttpError, JSONRPC } from "../../http/errors.ts";
import { requestRefusal } from "../malformed_request.ts";
import { jsonRpcError } from "./responses.ts";

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

/**
 * Middleware answering a request the SDK's transport would refuse with
 * `id: null` (params that are not an object, a wrong `jsonrpc`, no method):
 * 400 with the JSON-RPC error under the request's own id.
 */
export const answerMalformedRequest: Middleware = (_req, ctx, next) => {
  const body = ctx.body;
  // A plain request gets no refusal here (the transport tells it once, `routePlainRequests`).
  if (!Array.isArray(body)) {
    const refusal = requestRefusal(body);
    if (refusal) return jsonRpcError(400, refusal.code, refusal.message, {}, refusal.id);
  }
  return next();
};
