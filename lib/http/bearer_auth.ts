/**
 * Bearer-key authentication. The presented key is compared in constant
 * time (both sides hashed to equal-length digests first, so neither the
 * content nor the length leaks through timing), and a missing key and a
 * wrong key get the very same 401.
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Middleware } from "./app.ts";
import { HttpError } from "./errors.ts";

/** Whether `presented` equals `expected`, in time independent of both. */
export function keysMatch(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** The bearer token of an `Authorization` header, or "" when there is none. */
export function bearerToken(header: string | null): string {
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m ? m[1] : "";
}

/** Middleware requiring `Authorization: Bearer <key>`; `realm` names the service. */
export function bearerAuth(key: string, realm: string): Middleware {
  return (req, _ctx, next) => {
    // Always compare, even against "", so both failures take the same path.
    if (keysMatch(bearerToken(req.headers.get("authorization")), key)) return next();
    throw new HttpError(
      401,
      "unauthorized",
      "missing or wrong API key; send the header Authorization: Bearer <key>",
      { headers: { "www-authenticate": `Bearer realm="${realm}"` } },
    );
  };
}
