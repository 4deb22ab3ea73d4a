/**
 * CORS for an allow-list of origins, none by default. Allowed origins get
 * the CORS headers and their preflights are answered here (before auth, as
 * browsers send no credentials on a preflight); other origins get no CORS
 * headers, so browsers keep responses from them.
 *
 * @module
 */
import { ConfigError } from "../config/errors.ts";
import { errorResponse, HttpError } from "./errors.ts";
import type { Middleware } from "./middleware.ts";

/**
 * Parse `--cors-allow-origins`: comma-separated origins such as
 * `http://localhost:3000`, or `*` for any. Throws `ConfigError`.
 */
export function parseOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(",").map((s) => s.trim()).filter(Boolean).map((item) => {
    if (item === "*") return item;
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new ConfigError(
        `--cors-allow-origins: "${item}" is not an origin; write scheme://host[:port], ` +
          `e.g. http://localhost:3000`,
      );
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== item.replace(/\/$/, "")) {
      throw new ConfigError(
        `--cors-allow-origins: "${item}" is not an origin; write scheme://host[:port] without ` +
          `a path, e.g. ${url.origin === "null" ? "http://localhost:3000" : url.origin}`,
      );
    }
    return url.origin;
  });
}

/** Add CORS headers for the allowed `origins` and answer their preflights. */
export function cors(origins: string[]): Middleware {
  const any = origins.includes("*");
  const allowed = (origin: string | null) => origin !== null && (any || origins.includes(origin));
  return (next) => async (req) => {
    const origin = req.headers.get("origin");
    const preflight = req.method === "OPTIONS" &&
      req.headers.has("access-control-request-method");
    if (preflight) {
      if (!allowed(origin)) {
        return errorResponse(
          new HttpError(
            403,
            "origin_not_allowed",
            `origin ${origin ?? "(none)"} is not allowed; list it in --cors-allow-origins`,
          ),
        );
      }
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin!,
          "access-control-allow-methods": "GET, POST, OPTIONS",
          "access-control-allow-headers": "authorization, content-type",
          "access-control-max-age": "600",
          "vary": "Origin",
        },
      });
    }
    const res = await next(req);
    if (origins.length === 0) return res;
    const headers = new Headers(res.headers);
    headers.append("vary", "Origin");
    if (allowed(origin)) headers.set("access-control-allow-origin", origin!);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
