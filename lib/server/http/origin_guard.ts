/**
 * DNS rebinding protection, part two: a request with an Origin header that
 * is not on the allow-list gets 403 `Invalid Origin header`. Requests
 * without Origin (non-browser clients) pass.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { type AllowList, originAllowed } from "./allow_list.ts";
import { plainText } from "./responses.ts";

/** Middleware refusing requests from an Origin that is not allowed. */
export function originGuard(allowed: AllowList): Middleware {
  return (req, _ctx, next) => {
    const origin = req.headers.get("origin");
    return origin === null || originAllowed(allowed, origin)
      ? next()
      : plainText(403, "Invalid Origin header");
  };
}
