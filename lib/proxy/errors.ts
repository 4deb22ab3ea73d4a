/**
 * The proxy's one error shape: every failure answers JSON
 * `{"error": {"code", "message", "details"}}` with a fitting status.
 *
 * @module
 */

/** An HTTP failure with a stable machine code and a message for people. */
export class HttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Stable, machine-readable code such as `invalid_arguments`. */
  readonly code: string;
  /** Extra facts (failing fields, server state); never secrets. */
  readonly details: unknown;
  /** Headers to add to the answer (`WWW-Authenticate`, `Allow`, `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: unknown = null,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** A JSON response with `no-store` caching. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}

/** The JSON error envelope for `err`. */
export function errorResponse(err: HttpError): Response {
  return jsonResponse(
    err.status,
    { error: { code: err.code, message: err.message, details: err.details } },
    err.headers,
  );
}
