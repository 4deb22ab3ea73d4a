/**
 * DNS rebinding protection, part two: a request with an Origin header that
 * is neither on the allow-list nor the server's own origin (the Host the
 * request was sent to, which the Host guard has checked) gets 403
 * `Invalid Origin header`. Requests without Origin (non-browser clients)
 * pass. Run it after `hostGuard`.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { type AllowList, originAllowed, sameOrigin } from "./allow_list.ts";
import { HttpError } from "./errors.ts";
import { quoteHeader } from "./host_guard.ts";

/**
 * Middleware refusing requests from an Origin that is not allowed; `setting`
 * names the allow-list. With `hosts.any` (the Host check is off) a page's
 * own origin proves nothing, so only the list counts.
 */
export function originGuard(allowed: AllowList, hosts: AllowList, setting: string): Middleware {
  return (req, _ctx, next) => {
    const origin = req.headers.get("origin");
    if (
      origin === null || originAllowed(allowed, origin) ||
      (!hosts.any && sameOrigin(origin, req.headers.get("host")))
    ) {
      return next();
    }
    throw new HttpError(
      403,
      "origin_not_allowed",
      `Invalid Origin header: ${quoteHeader(origin)} is not allowed; add it with ${setting}`,
      { details: { origin } },
    );
  };
}
