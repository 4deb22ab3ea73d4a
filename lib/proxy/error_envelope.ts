/**
 * Middleware that turns anything thrown below it into the JSON error
 * envelope: `HttpError`s as they are, anything else as a 500 whose message
 * names no internals (the detail goes to the log).
 *
 * @module
 */
import { log } from "../log.ts";
import { errorResponse, HttpError } from "./errors.ts";
import type { Middleware } from "./middleware.ts";

/** Catch errors and answer with `{"error": {...}}`. */
export const errorEnvelope: Middleware = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    if (err instanceof HttpError) return errorResponse(err);
    log("error", `proxy: ${req.method} ${new URL(req.url).pathname}: ${String(err)}`);
    return errorResponse(
      new HttpError(500, "internal_error", "the proxy failed to handle this request; see its log"),
    );
  }
};
