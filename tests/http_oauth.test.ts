/**
 * OAuth 2.1 resource server, end to end against a real OpenID provider
 * (the certified `oidc-provider`, run here under Deno's Node compatibility):
 * the protected resource metadata, 401 naming it, a client_credentials
 * token with a resource indicator used by an MCP client, and the refusals
 * of a token for another audience, an expired one, and a read scope
 * calling a write.
 */
import assert from "node:assert/strict";
import http from "node:http";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";
import { DEFAULT_SCOPES, TokenVerifier } from "../lib/auth/oauth.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { INITIALIZE, MCP_POST } from "./http_helpers.ts";
import { listAllTools } from "./helpers/mcp.ts";
import { authClient, rawTo, startAuthServer, textOf } from "./http_auth_helpers.ts";

const RESOURCE = "https://routers.example.test/mcp";
const SCOPES = "routers:read routers:operate routers:admin";

/** Start an OpenID provider on a free loopback port; `stop` ends it. */
async function startProvider() {
  let handle: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const client = (id: string) => ({
    client_id: id,
    client_secret: `${id}-secret-0123456789`,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
    scope: SCOPES,
  });
  const provider = new Provider(issuer, {
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" }],
    },
    clients: [client("agent"), client("brief")],
    scopes: SCOPES.split(" "),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, c: { clientId: string }) => ({
          scope: SCOPES,
          audience: resource,
          accessTokenTTL: c.clientId === "brief" ? 1 : 300,
          accessTokenFormat: "jwt",
        }),
      },
    },
  });
  handle = provider.callback() as http.RequestListener;
  const token = async (clientId: string, scope: string, resource = RESOURCE) => {
    const res = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${clientId}:${clientId}-secret-0123456789`)}`,
      },
      body: new URLSearchParams({ grant_type: "client_credentials", scope, resource }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.access_token as string;
  };
  return {
    issuer,
    token,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

Deno.test("oauth: tokens from a real OpenID provider, checked against its JWKS", async (t) => {
  const op = await startProvider();
  const sim = await startSimulator();
  const oauth = new TokenVerifier({
    issuers: [op.issuer],
    resource: RESOURCE,
    scopes: DEFAULT_SCOPES,
    clockToleranceS: 0,
  });
  const srv = await startAuthServer(sim, {
    oauth,
    resourceMetadata: {
      resource: RESOURCE,
      authorizationServers: [op.issuer],
      scopes: Object.values(DEFAULT_SCOPES),
    },
  });
  const port = srv.http.addr.port;
  const post = (token?: string) =>
    rawTo("127.0.0.1", port, "POST", "/mcp", [
      ["Host", "localhost"],
      ...(token ? [["Authorization", `Bearer ${token}`] as [string, string]] : []),
      ...MCP_POST,
    ], INITIALIZE);
  try {
    await t.step("the protected resource metadata names the authorization server", async () => {
      for (
        const path of [
          "/.well-known/oauth-protected-resource/mcp",
          "/.well-known/oauth-protected-resource",
        ]
      ) {
        const res = await fetch(`${srv.base}${path}`);
        const meta = await res.json();
        assert.equal(res.status, 200, path);
        assert.equal(meta.resource, RESOURCE);
        assert.deepEqual(meta.authorization_servers, [op.issuer]);
      }
    });
    await t.step("401 without a token names the metadata in WWW-Authenticate", async () => {
      const res = await post();
      assert.equal(res.status, 401);
      assert.match(
        res.text,
        /www-authenticate: Bearer realm="mcp-server-router", resource_metadata="https:\/\/routers\.example\.test\/\.well-known\/oauth-protected-resource\/mcp"/i,
      );
    });
    await t.step("an operate token opens an MCP session and writes", async () => {
      const token = await op.token("agent", "routers:operate");
      const client = await authClient("streamable-http", `${srv.base}/mcp`, token);
      try {
        const r = await client.callTool({
          name: "router_update_identity",
          arguments: { name: "oauth-ok", device: "r1" },
        });
        assert.notEqual(r.isError, true, textOf(r));
      } finally {
        await client.close();
      }
      // The call's intent line (written ahead) says who; its outcome links back to it.
      const line = (await srv.audit()).filter((l) =>
        l.tool === "router_update_identity" && l.kind === "intent"
      ).at(-1);
      assert.equal(
        line?.principal,
        `oauth:${op.issuer}#agent`,
        "the token's issuer and subject are the principal",
      );
    });
    await t.step("a read token cannot call a write", async () => {
      const token = await op.token("agent", "routers:read");
      const client = await authClient("streamable-http", `${srv.base}/mcp`, token);
      try {
        const tools = await listAllTools(client);
        assert.ok(tools.every((x) => x.annotations?.readOnlyHint === true));
        const r = await client.callTool({
          name: "router_update_identity",
          arguments: { name: "nope", device: "r1" },
        });
        assert.match(
          textOf(r),
          /needs the operate role; "oauth:http:\/\/127\.0\.0\.1:\d+#agent" has read/,
        );
      } finally {
        await client.close();
      }
    });
    await t.step("a token for another audience is refused", async () => {
      const token = await op.token("agent", "routers:admin", "https://other.example.test/api");
      const res = await post(token);
      assert.equal(res.status, 401);
      assert.match(res.text, /issued for another resource/);
    });
    await t.step("an expired token is refused", async () => {
      const token = await op.token("brief", "routers:admin");
      await new Promise((r) => setTimeout(r, 2200));
      const res = await post(token);
      assert.equal(res.status, 401);
      assert.match(res.text, /expired/);
    });
    await t.step("a forged token (signed by another key) is refused", async () => {
      const token = await op.token("agent", "routers:admin");
      const [h, p] = token.split(".");
      const res = await post(`${h}.${p}.${"A".repeat(342)}`);
      assert.equal(res.status, 401);
      assert.match(res.text, /signature does not verify|not a valid access token/);
    });
  } finally {
    await srv.close();
    await sim.close();
    await op.stop();
  }
});
