/**
 * DNS rebinding protection, part one: requests whose Host header is not on
 * the allow-list (or that have none) get 421 `Invalid Host header`.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { type AllowList, hostAllowed } from "./allow_list.ts";
import { plainText } from "./responses.ts";

/** Middleware refusing requests whose Host is not allowed. */
export function hostGuard(allowed: AllowList): Middleware {
  return (req, _ctx, next) =>
    hostAllowed(allowed, req.headers.get("host")) ? next() : plainText(421, "Invalid Host header");
}
