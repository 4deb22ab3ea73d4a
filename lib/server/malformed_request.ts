/**
 * A message that is meant as a request (it has an id a client can match)
 * but is not one the server can take: answered at once, under that id, so
 * the client does not wait forever for it. Cheap checks only (no schema):
 * `params` that is not an object (`-32602`), a `jsonrpc` that is not
 * "2.0" or a `method` that is not a string (`-32600`). Used by the stdio
 * transport and the HTTP transports before a message reaches the SDK.
 *
 * @module
 */

/** JSON-RPC "invalid request". */
const INVALID_REQUEST = -32600;
/** JSON-RPC "invalid params". */
const INVALID_PARAMS = -32602;

/** A JSON-RPC error to send for a request, under its id. */
export interface RequestRefusal {
  id: string | number;
  code: number;
  message: string;
}

/** The id of a message, when it has one a client can match: a string or a safe integer. */
export function usableId(value: unknown): string | number | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || Number.isSafeInteger(id) ? id as string | number : undefined;
}

/**
 * Why a message with a usable id cannot be taken as a request, or undefined
 * when these checks find nothing (a response, or a request the SDK checks
 * in full).
 */
export function requestRefusal(value: unknown): RequestRefusal | undefined {
  const id = usableId(value);
  if (id === undefined) return undefined;
  const m = value as Record<string, unknown>;
  if ("result" in m || "error" in m) return undefined; // a response
  if (m.jsonrpc !== "2.0") {
    return { id, code: INVALID_REQUEST, message: 'Invalid Request: jsonrpc must be "2.0"' };
  }
  if (typeof m.method !== "string") {
    return { id, code: INVALID_REQUEST, message: "Invalid Request: method must be a string" };
  }
  const params = m.params;
  if (
    params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))
  ) {
    return { id, code: INVALID_PARAMS, message: "Invalid params: params must be an object" };
  }
  return undefined;
}
