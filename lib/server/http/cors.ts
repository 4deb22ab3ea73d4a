/**
 * CORS for browser clients on allowed origins (the origin guard has run
 * before): answers preflights and exposes the MCP session headers. Requests
 * without Origin are left alone.
 *
 * @module
 */
import type { Middleware } from "./app.ts";

const REQUEST_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, " +
  "Mcp-Protocol-Version, Last-Event-ID";
const EXPOSED_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version";

/** Middleware adding CORS headers for `methods` of a route. */
export function cors(methods: string[]): Middleware {
  return async (req, _ctx, next) => {
    const origin = req.headers.get("origin");
    if (origin === null) return next();
    if (req.method === "OPTIONS" && req.headers.has("access-control-request-method")) {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": methods.join(", "),
          "Access-Control-Allow-Headers": REQUEST_HEADERS,
          "Access-Control-Max-Age": "600",
          "Vary": "Origin",
        },
      });
    }
    const res = await next();
    const headers = new Headers(res.headers);
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    headers.append("Vary", "Origin");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
