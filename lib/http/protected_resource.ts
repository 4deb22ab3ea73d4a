/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), which MCP clients read
 * to find where to get a token: served at
 * `/.well-known/oauth-protected-resource` and at the same path followed by
 * the resource's own path (`.../oauth-protected-resource/mcp`, the form
 * RFC 9728 section 3.1 derives from the resource URL). It needs no
 * credential: it is what a client reads after its first 401.
 *
 * @module
 */
import type { Handler } from "./app.ts";
import { jsonResponse } from "./responses.ts";

/** What the metadata tells. */
export interface ResourceMetadata {
  /** This server's resource URL (the tokens' audience). */
  resource: string;
  /** Issuer URLs of the authorization servers. */
  authorizationServers: readonly string[];
  /** The scopes this resource understands. */
  scopes: readonly string[];
}

/** The well-known path of the metadata. */
export const METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The metadata URL for a resource URL (RFC 9728 section 3.1: the path goes after the well-known part). */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
  return `${url.origin}${METADATA_PATH}${path}`;
}

/** The paths the metadata is served at for `resource`. */
export function metadataPaths(resource: string): string[] {
  const own = new URL(metadataUrl(resource)).pathname;
  return own === METADATA_PATH ? [METADATA_PATH] : [METADATA_PATH, own];
}

/** `GET` handler answering the metadata. */
export function protectedResourceMetadata(meta: ResourceMetadata): Handler {
  const body = {
    resource: meta.resource,
    authorization_servers: meta.authorizationServers,
    scopes_supported: meta.scopes,
    bearer_methods_supported: ["header"],
    resource_name: "mcp-server-router",
  };
  return () => jsonResponse(200, body, { "cache-control": "max-age=300" });
}
