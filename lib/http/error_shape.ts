/**
 * The JSON error shape of the REST proxy: every failure answers
 * `{"error": {"code", "message", "details"}}` with its status and headers.
 *
 * @module
 */
import type { HttpError } from "./errors.ts";
import { jsonResponse } from "./responses.ts";

/** The JSON error envelope for `err`. */
export function jsonErrorShape(err: HttpError): Response {
  return jsonResponse(
    err.status,
    { error: { code: err.code, message: err.message, details: err.details } },
    err.headers,
  );
}
