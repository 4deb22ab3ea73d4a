/**
 * The one failure type of the HTTP stack: middleware and handlers throw an
 * `HttpError`, and the application's error shape turns it into a response
 * (the REST proxy's JSON envelope, or JSON-RPC and plain text for MCP).
 *
 * @module
 */

/** An HTTP failure with a stable machine code and a message for people. */
export class HttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Stable, machine-readable code such as `payload_too_large`. */
  readonly code: string;
  /** Extra facts (failing fields, limits, server state); never secrets. */
  readonly details: unknown;
  /** Headers to add to the answer (`WWW-Authenticate`, `Allow`, `Retry-After`). */
  readonly headers: Record<string, string>;
  /**
   * The JSON-RPC error code, for failures of a request body that an MCP
   * client reads as JSON-RPC (parse error, invalid request, ...).
   */
  readonly rpcCode?: number;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: unknown; headers?: Record<string, string>; rpcCode?: number } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
    this.rpcCode = options.rpcCode;
  }
}

/** JSON-RPC error codes used at the HTTP layer. */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** Transport-level refusal (as the SDK's streamable transport uses). */
  serverError: -32000,
  sessionNotFound: -32001,
} as const;
