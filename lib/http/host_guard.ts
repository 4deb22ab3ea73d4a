/**
 * DNS rebinding protection, part one: a request whose Host header is not on
 * the allow-list (or that has none) gets 421 `Invalid Host header`, with
 * the refused host and the setting that allows it in the message.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { type AllowList, hostAllowed } from "./allow_list.ts";
import { HttpError } from "./errors.ts";

/** A header value fit to quote in a message: printable ASCII, at most 100 characters. */
export function quoteHeader(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > 100 ? `${clean.slice(0, 100)}...` : clean;
}

/** Middleware refusing requests whose Host is not allowed; `setting` names the allow-list. */
export function hostGuard(allowed: AllowList, setting: string): Middleware {
  return (req, _ctx, next) => {
    const host = req.headers.get("host");
    if (hostAllowed(allowed, host)) return next();
    throw new HttpError(
      421,
      "host_not_allowed",
      host === null
        ? "Invalid Host header: the request has none; send the host name of this server"
        : `Invalid Host header: ${quoteHeader(host)} is not allowed; add it with ${setting}`,
      { details: { host } },
    );
  };
}
