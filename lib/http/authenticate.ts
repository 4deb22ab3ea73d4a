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
 *   request must carry no header a proxy adds ({@linkcode forwardedBy}: a
 *   reverse proxy on this machine would otherwise pass everyone on as
 *   local). Anyone else gets 403, unless the operator chose to serve
 *   everyone without authentication (`allowUnauthenticated`, logged loudly
 *   at start). What this cannot see: a relay on this machine that adds no
 *   such header (`ssh -L`, `socat`, `kubectl port-forward`, nginx with its
 *   default headers, HAProxy in TCP mode) makes its peers look local. Only
 *   credentials tell them apart (docs/security.md says so).
 *
 * @module
 */
import { anonymousPrincipalName, type Principal } from "../auth/principal.ts";
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

/**
 * Headers proxies add to say whom they forward for (RFC 7239 `Forwarded`,
 * RFC 9110 `Via`, the `X-Forwarded-*` family, and the client-address
 * headers of nginx, Apache, Akamai, Cloudflare, Fastly and others).
 */
const FORWARDING = new Set([
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "x-cluster-client-ip",
  "x-original-forwarded-for",
  "x-proxyuser-ip",
]);

/** The first header of `headers` that says a proxy forwarded the request, if any. */
export function forwardedBy(headers: Headers): string | undefined {
  for (const [name] of headers) {
    if (FORWARDING.has(name) || name.startsWith("x-forwarded-")) return name;
  }
  return undefined;
}

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
        hostIsLoopback(req.headers.get("host")) && forwardedBy(req.headers) === undefined;
      if (!local && !opts.allowUnauthenticated) {
        await req.body?.cancel().catch(() => {});
        throw new HttpError(
          403,
          "local_only",
          "Forbidden: this server has no client authentication configured, so it serves only " +
            "requests from this machine (a loopback address and Host, no header a proxy adds " +
            `such as X-Forwarded-For or Via); the operator must configure ${opts.settings}`,
          { headers: { connection: "close" } },
        );
      }
      ctx.principal = {
        name: anonymousPrincipalName(ctx.peer ?? "local"),
        role: "admin",
        anonymous: true,
      };
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
