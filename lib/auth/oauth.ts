/**
 * OAuth 2.1 resource server, as the MCP authorization specification
 * (2025-06-18) has it: access tokens are JWTs (RFC 9068) signed by a
 * configured authorization server, checked here against its published
 * keys (JWKS) with `jose`: the signature (asymmetric algorithms only), the
 * issuer, the audience (this server's resource URL, RFC 8707: a token
 * minted for another service is refused), `exp` (required) and `nbf`. The
 * token's scopes (`scope`, or `scp`) map to the roles; the highest role
 * whose scope the token carries is the principal's.
 *
 * The keys' address comes from the issuer's metadata (RFC 8414
 * `/.well-known/oauth-authorization-server`, else OpenID discovery) unless
 * configured; keys are fetched on first need and again for an unknown key
 * id (rotation).
 *
 * @module
 */
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify } from "jose";
import { log } from "../log.ts";
import { type Principal, TOOL_ROLES, type ToolRole } from "./principal.ts";

/** How the server checks tokens. */
export interface OAuthSettings {
  /** Accepted issuers (`iss`), each an authorization server's issuer URL. */
  issuers: readonly string[];
  /** This server's resource URL: the audience tokens must be minted for. */
  resource: string;
  /** The issuers' key set URL, when not to be discovered (one issuer only). */
  jwksUrl?: string;
  /** The scope that grants each role. */
  scopes: Readonly<Record<ToolRole, string>>;
  /** Tolerated clock difference with the authorization server (default 30 s). */
  clockToleranceS?: number;
}

/** The default scope of each role. */
export const DEFAULT_SCOPES: Readonly<Record<ToolRole, string>> = {
  read: "routers:read",
  operate: "routers:operate",
  admin: "routers:admin",
};

/** Signature algorithms accepted: asymmetric ones only (never `none` or a shared secret). */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** Tolerated clock difference with the authorization server, in seconds. */
const CLOCK_TOLERANCE_S = 30;

/** A token refused; `status` 401 (not valid) or 403 (valid but no router scope). */
export class TokenError extends Error {
  readonly status: 401 | 403;
  constructor(message: string, status: 401 | 403 = 401) {
    super(message);
    this.name = "TokenError";
    this.status = status;
  }
}

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** Checks access tokens for one resource. */
export class TokenVerifier {
  readonly settings: OAuthSettings;
  readonly #keySets = new Map<string, Promise<KeySet>>();

  constructor(settings: OAuthSettings) {
    this.settings = settings;
  }

  /** Find every issuer's keys now, logging (not failing) when one cannot be reached. */
  async prefetch(): Promise<void> {
    await Promise.all(this.settings.issuers.map(async (issuer) => {
      try {
        await this.#keySet(issuer);
      } catch (err) {
        log("warning", `OAuth: ${(err as Error).message}; tokens of ${issuer} fail until it is`);
      }
    }));
  }

  /** The principal of a valid token; throws `TokenError` saying why it is not. */
  async verify(token: string): Promise<Principal> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new TokenError("the bearer token is neither a known API key nor a JWT access token");
    }
    if (typeof issuer !== "string" || !this.settings.issuers.includes(issuer)) {
      throw new TokenError("the token's issuer is not an authorization server of this server");
    }
    let keys: KeySet;
    try {
      keys = await this.#keySet(issuer);
    } catch (err) {
      log("warning", `OAuth: ${(err as Error).message}`);
      throw new TokenError("the token's issuer cannot be reached to check it; try again later");
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: this.settings.resource,
        algorithms: ALGORITHMS,
        clockTolerance: this.settings.clockToleranceS ?? CLOCK_TOLERANCE_S,
        requiredClaims: ["exp"],
      }));
    } catch (err) {
      throw new TokenError(refusal(err));
    }
    const granted = scopesOf(payload);
    const role = [...TOOL_ROLES].reverse().find((r) => granted.includes(this.settings.scopes[r]));
    if (!role) {
      throw new TokenError(
        `the token carries none of the scopes ${
          TOOL_ROLES.map((r) => this.settings.scopes[r]).join(", ")
        }`,
        403,
      );
    }
    const subject = typeof payload.sub === "string" && payload.sub !== ""
      ? payload.sub
      : typeof payload.client_id === "string"
      ? payload.client_id
      : "unknown subject";
    return { name: subject.slice(0, 200).replace(/\p{Cc}/gu, "?"), role };
  }

  #keySet(issuer: string): Promise<KeySet> {
    let found = this.#keySets.get(issuer);
    if (!found) {
      found = this.#discover(issuer).then((url) => createRemoteJWKSet(new URL(url)));
      this.#keySets.set(issuer, found);
      // A failed discovery is tried again at the next token.
      found.catch(() => this.#keySets.delete(issuer));
    }
    return found;
  }

  async #discover(issuer: string): Promise<string> {
    if (this.settings.jwksUrl) return this.settings.jwksUrl;
    const base = issuer.replace(/\/+$/, "");
    const url = new URL(base);
    const path = url.pathname === "/" ? "" : url.pathname;
    const candidates = [
      `${url.origin}/.well-known/oauth-authorization-server${path}`,
      `${base}/.well-known/openid-configuration`,
    ];
    const failures: string[] = [];
    for (const where of candidates) {
      try {
        const res = await fetch(where, {
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) {
          await res.body?.cancel();
          failures.push(`${where}: HTTP ${res.status}`);
          continue;
        }
        const meta = await res.json() as { issuer?: unknown; jwks_uri?: unknown };
        if (meta.issuer !== issuer) {
          failures.push(`${where}: names issuer ${JSON.stringify(meta.issuer)}, not ${issuer}`);
          continue;
        }
        if (typeof meta.jwks_uri !== "string") {
          failures.push(`${where}: has no jwks_uri`);
          continue;
        }
        return meta.jwks_uri;
      } catch (err) {
        failures.push(`${where}: ${(err as Error).message}`);
      }
    }
    throw new Error(
      `cannot find the keys of ${issuer} (${failures.join("; ")}); set the JWKS URL explicitly`,
    );
  }
}

/** The scopes a token carries: `scope` (space-separated) or `scp` (a list or a string). */
function scopesOf(payload: Record<string, unknown>): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === "string") return raw.split(" ").filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === "string");
  return [];
}

/** Why `jose` refused a token, in words a client can act on. */
function refusal(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return "the token has expired; get a new one";
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === "aud") {
      return "the token was issued for another resource (audience); request one for this server";
    }
    if (err.claim === "nbf") return "the token is not valid yet";
    return `the token's ${err.claim} claim is not acceptable`;
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
    return "the token's signature does not verify";
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey) {
    return "the token was signed with a key its issuer does not publish";
  }
  if (err instanceof joseErrors.JOSEAlgNotAllowed) {
    return "the token's signature algorithm is not accepted";
  }
  return "the token is not a valid access token";
}
