/**
 * CORS for browser pages on allowed origins (the origin guard has run
 * before, so any Origin seen here is allowed): answers preflights and adds
 * the CORS headers to every answer, refusals included, so the page can read
 * them. Requests without Origin are left alone.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { withHeaders } from "./responses.ts";

/** What a route lets browsers do. */
export interface CorsOptions {
  /** Methods of the route. */
  methods: string[];
  /** Request headers a page may send. */
  allowHeaders: string[];
  /** Response headers a page may read. */
  exposeHeaders?: string[];
}

/** Middleware adding CORS headers for a route. */
export function cors(options: CorsOptions): Middleware {
  return async (req, _ctx, next) => {
    const origin = req.headers.get("origin");
    if (origin === null) return next();
    if (req.method === "OPTIONS" && req.headers.has("access-control-request-method")) {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": options.methods.join(", "),
          "Access-Control-Allow-Headers": options.allowHeaders.join(", "),
          "Access-Control-Max-Age": "600",
          "Vary": "Origin",
        },
      });
    }
    return withHeaders(await next(), (headers) => {
      headers.set("Access-Control-Allow-Origin", origin);
      if (options.exposeHeaders?.length) {
        headers.set("Access-Control-Expose-Headers", options.exposeHeaders.join(", "));
      }
      headers.append("Vary", "Origin");
    });
  };
}
