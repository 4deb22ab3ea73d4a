/**
 * 415 for request bodies that are not JSON in UTF-8. Requiring JSON also
 * means a page on another site cannot post here without a CORS preflight,
 * which only allowed origins pass.
 *
 * @module
 */
import type { Middleware } from "./app.ts";
import { HttpError, JSONRPC } from "./errors.ts";

/** Whether a Content-Type names JSON (`application/json`, `...+json`), in UTF-8 if a charset is given. */
export function isJson(header: string | null): boolean {
  if (header === null) return false;
  const [type, ...params] = header.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) return false;
  return params.every((p) => {
    const [name, value] = p.split("=").map((s) => s.trim().replace(/^"|"$/g, ""));
    return name !== "charset" || value === "utf-8" || value === "utf8";
  });
}

/** Middleware refusing bodies that are not JSON with 415. */
export const requireJson: Middleware = async (req, _ctx, next) => {
  const type = req.headers.get("content-type");
  if (isJson(type)) return next();
  await req.body?.cancel().catch(() => {});
  throw new HttpError(
    415,
    "unsupported_media_type",
    "Unsupported Media Type: send the body as JSON with the header Content-Type: application/json",
    { details: { contentType: type }, rpcCode: JSONRPC.serverError },
  );
};
