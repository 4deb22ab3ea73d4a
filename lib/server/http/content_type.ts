/**
 * 415 for request bodies that are not `application/json` (UTF-8).
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { JSONRPC, jsonRpcError } from "./responses.ts";

/** Whether a Content-Type header names JSON in UTF-8 (the charset may be omitted). */
export function isJson(header: string | null): boolean {
  if (header === null) return false;
  const [type, ...params] = header.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((p) => {
    const [name, value] = p.split("=").map((s) => s.trim().replace(/^"|"$/g, ""));
    return name !== "charset" || value === "utf-8" || value === "utf8";
  });
}

/** Middleware refusing bodies that are not JSON with 415. */
export const requireJson: Middleware = (req, _ctx, next) =>
  isJson(req.headers.get("content-type")) ? next() : jsonRpcError(
    415,
    JSONRPC.serverError,
    "Unsupported Media Type: Content-Type must be application/json",
  );
