/**
 * The HTTP transports' authentication and connection limits from the
 * settings: the API keys file (loaded, then watched), the OAuth verifier
 * and its protected resource metadata, and the start-up notices an
 * operator must see (who can reach the server without a credential).
 *
 * @module
 */
import { KeyStore } from "../../auth/key_store.ts";
import { DEFAULT_SCOPES, type OAuthSettings, TokenVerifier } from "../../auth/oauth.ts";
import type { Settings } from "../../config/settings.ts";
import { log } from "../../log.ts";
import { isLoopback } from "../../http/allow_list.ts";
import type { AuthOptions } from "../../http/authenticate.ts";
import type { ConnectionLimits } from "../../http/front_door.ts";
import { metadataUrl, type ResourceMetadata } from "../../http/protected_resource.ts";
import { LOCAL_ONLY } from "./serve.ts";

/** What `startHttp` needs for authentication, and what to stop at shutdown. */
export interface HttpAuth {
  auth: AuthOptions;
  resourceMetadata?: ResourceMetadata;
  limits: ConnectionLimits;
  bodyTimeoutMs: number;
  /** Stop watching the keys file. */
  close(): void;
}

/**
 * Build authentication from `settings`; throws `ConfigError` for a bad keys
 * file. `quiet`: no notices (a caller that tells its own).
 */
export async function httpAuth(settings: Settings, quiet = false): Promise<HttpAuth> {
  const keysFile = settings["mcp.api-keys-file"];
  const store = keysFile ? await KeyStore.open(keysFile) : undefined;
  store?.watch();
  const issuers = settings["mcp.oauth-issuer"];
  let oauth: TokenVerifier | undefined;
  let resourceMetadata: ResourceMetadata | undefined;
  if (issuers.length > 0) {
    const [read, operate, admin] = settings["mcp.oauth-scopes"];
    const oauthSettings: OAuthSettings = {
      issuers,
      resource: settings["mcp.oauth-resource"]!,
      jwksUrl: settings["mcp.oauth-jwks-url"],
      scopes: read ? { read, operate, admin } : DEFAULT_SCOPES,
    };
    oauth = new TokenVerifier(oauthSettings);
    await oauth.prefetch();
    resourceMetadata = {
      resource: oauthSettings.resource,
      authorizationServers: issuers,
      scopes: [read, operate, admin],
    };
  }
  const auth: AuthOptions = {
    ...LOCAL_ONLY,
    keys: store ? [store] : [],
    oauth,
    allowUnauthenticated: settings["mcp.allow-unauthenticated"],
    resourceMetadata: resourceMetadata ? metadataUrl(resourceMetadata.resource) : undefined,
  };
  if (!quiet) notices(settings, store, oauth);
  return {
    auth,
    resourceMetadata,
    limits: {
      headerTimeoutMs: settings["mcp.header-timeout"] * 1000,
      idleTimeoutMs: Math.max(60_000, settings["mcp.header-timeout"] * 1000),
      maxPerPeer: settings["mcp.max-connections-per-peer"],
    },
    bodyTimeoutMs: settings["mcp.body-timeout"] * 1000,
    close: () => store?.close(),
  };
}

function notices(settings: Settings, store?: KeyStore, oauth?: TokenVerifier): void {
  const host = settings["mcp.host"];
  const ways = [
    store ? `${store.size} API key(s) from ${store.path}` : "",
    oauth ? `OAuth tokens of ${oauth.settings.issuers.join(", ")}` : "",
  ].filter(Boolean);
  if (ways.length) {
    log("info", `clients authenticate with ${ways.join(" or ")}`);
    if (settings["mcp.allow-unauthenticated"]) {
      log("warning", "--mcp.allow-unauthenticated is ignored: credentials are configured");
    }
    if (oauth && !settings["mcp.oauth-resource"]!.startsWith("https://")) {
      log("warning", "the OAuth resource URL is not https: tokens cross the network in clear");
    }
    return;
  }
  if (settings["mcp.allow-unauthenticated"]) {
    log(
      "warning",
      "!!! --mcp.allow-unauthenticated: no client authentication, and every machine that can " +
        `reach ${host}:${settings["mcp.port"]} may call every tool, including raw commands, ` +
        "reboots and configuration changes. Configure --mcp.api-keys-file or --mcp.oauth-issuer. !!!",
    );
    return;
  }
  if (!isLoopback(host)) {
    log(
      "info",
      `listening on ${host} without client authentication: only requests from this machine ` +
        "are served (others get 403); set --mcp.api-keys-file (ROUTER_MCP__API_KEYS_FILE) or " +
        "--mcp.oauth-issuer to serve other machines",
    );
  }
}
