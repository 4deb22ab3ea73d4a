/**
 * The error shape of the MCP HTTP transports: refusals of a request body
 * (parse error, wrong media type, too large, invalid request) are JSON-RPC
 * error objects, which MCP clients read; HTTP-level refusals (Host, Origin,
 * unknown path, wrong method) are plain text.
 *
 * @module
 */
import type { HttpError } from "../../http/errors.ts";
import { plainText } from "../../http/responses.ts";

/** A JSON-RPC error response, under the request's id (`null` when unknown). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** Render a refusal for an MCP client. */
export function mcpErrorShape(err: HttpError): Response {
  return err.rpcCode === undefined
    ? plainText(err.status, err.message, err.headers)
    : jsonRpcError(err.status, err.rpcCode, err.message, err.headers);
}
