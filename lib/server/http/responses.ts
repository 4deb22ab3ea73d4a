/**
 * Response builders for the HTTP transports: plain text for HTTP-level
 * refusals, JSON-RPC error objects where an MCP client reads the body.
 *
 * @module
 */

/** A `text/plain` response. */
export function plainText(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...headers },
  });
}

/** JSON-RPC error codes used at the HTTP layer. */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** Transport-level refusal (as the SDK's streamable transport uses). */
  serverError: -32000,
  sessionNotFound: -32001,
} as const;

/** A JSON-RPC error response with `id: null`. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}
