/**
 * Client authentication, shared by the MCP transports and the REST proxy:
 * every request but `/health` (and the OAuth metadata) must name its
 * principal, which later stages (the guard chain) authorize.
 *
 * - With API keys or OAuth configured, the request needs
 *   `Authorization: Bearer <key or token>`: a key of the keys file, else a
 *   JWT access token the verifier accepts. A missing or bad credential
 *   gets 401 with `WWW-Authenticate` (naming the protected resource
 *   metadata when OAuth is on, as MCP clients expect); a valid token
 *   without a router scope gets 403.
 * - With neither, only this machine is served: the connection must come
 *   from a loopback address, the `Host` must be a loopback name and the
 *   request must not say it was forwarded (a reverse proxy on this machine
 *   would otherwise pass everyone on as local). Anyone else gets 403,
 *   unless the operator chose to serve everyone without authentication
 *   (`allowUnauthenticated`, logged loudly at start).
 *
 * @module
 */
import type { Principal } from "../auth/principal.ts";
import { TokenError, type TokenVerifier } from "../auth/oauth.ts";
import { log } from "../log.ts";
import type { Middleware } from "./app.ts";
import { hostIsLoopback, isLoopback } from "./allow_list.ts";
import { bearerToken } from "./bearer_auth.ts";
import { HttpError } from "./errors.ts";

/** Where keys come from (a reloadable keys file, a single key, or both). */
export interface KeyLookup {
  find(presented: string): Principal | undefined;
}

/** How a server authenticates. */
export interface AuthOptions {
  /** API keys; absent or empty: none. */
  keys?: KeyLookup[];
  /** OAuth access tokens. */
  oauth?: TokenVerifier;
  /** Without keys or OAuth, serve every peer (not only loopback ones). */
  allowUnauthenticated: boolean;
  /** The realm in `WWW-Authenticate`. */
  realm: string;
  /** The protected resource metadata URL (OAuth). */
  resourceMetadata?: string;
  /** The settings that configure authentication, for messages (`--mcp.api-keys-file ...`). */
  settings: string;
}

/** Headers a reverse proxy adds: a request carrying one was forwarded for someone else. */
const FORWARDING = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"];

/** Whether `opts` configures any credential. */
export function authConfigured(opts: AuthOptions): boolean {
  return (opts.keys?.length ?? 0) > 0 || opts.oauth !== undefined;
}

/** The `WWW-Authenticate` value of a 401 (`problem` for a credential that was refused). */
function challenge(opts: AuthOptions, problem?: string): string {
  const parts = [`Bearer realm="${opts.realm}"`];
  if (opts.resourceMetadata) parts.push(`resource_metadata="${opts.resourceMetadata}"`);
  if (problem) {
    parts.push('error="invalid_token"', `error_description="${problem.replace(/["\\]/g, "'")}"`);
  }
  return parts.join(", ");
}

/** Middleware setting `ctx.principal`, or refusing the request. */
export function authenticate(opts: AuthOptions): Middleware {
  const configured = authConfigured(opts);
  return async (req, ctx, next) => {
    if (!configured) {
      // No peer address (a request that did not come over a connection) is not local: fail closed.
      const local = ctx.peer !== undefined && isLoopback(ctx.peer) &&
        hostIsLoopback(req.headers.get("host")) && !FORWARDING.some((h) => req.headers.has(h));
      if (!local && !opts.allowUnauthenticated) {
        await req.body?.cancel().catch(() => {});
        throw new HttpError(
          403,
          "local_only",
          "Forbidden: this server has no client authentication configured, so it serves only " +
            "requests from this machine (a loopback address and Host, not forwarded); the " +
            `operator must configure ${opts.settings}`,
          { headers: { connection: "close" } },
        );
      }
      ctx.principal = { name: `anonymous:${ctx.peer ?? "local"}`, role: "admin" };
      return next();
    }
    const token = bearerToken(req.headers.get("authorization"));
    // A missing credential and a wrong key get the very same answer (no oracle for keys).
    const refused = () =>
      new HttpError(
        401,
        "unauthorized",
        `Unauthorized: missing or wrong credential; send the header Authorization: Bearer <${
          opts.oauth ? "API key or access token" : "API key"
        }>`,
        { headers: { "www-authenticate": challenge(opts), connection: "close" } },
      );
    for (const store of token === "" ? [] : opts.keys ?? []) {
      const principal = store.find(token);
      if (principal) {
        ctx.principal = principal;
        return next();
      }
    }
    if (token === "" || !opts.oauth || token.split(".").length !== 3) {
      await req.body?.cancel().catch(() => {});
      throw refused();
    }
    let problem = "the token is not valid";
    let status: 401 | 403 = 401;
    try {
      ctx.principal = await opts.oauth.verify(token);
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      problem = err.message;
      status = err.status;
    }
    if (ctx.principal) return next();
    log("info", `refused a request from ${ctx.peer ?? "?"} to ${ctx.path}: ${problem}`);
    await req.body?.cancel().catch(() => {});
    if (status === 403) {
      throw new HttpError(403, "insufficient_scope", `Forbidden: ${problem}`, {
        headers: {
          "www-authenticate": `Bearer realm="${opts.realm}", error="insufficient_scope"`,
          connection: "close",
        },
      });
    }
    throw new HttpError(401, "unauthorized", `Unauthorized: ${problem}`, {
      headers: { "www-authenticate": challenge(opts, problem), connection: "close" },
    });
  };
}
