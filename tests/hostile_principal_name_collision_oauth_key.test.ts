/**
 * Hostile re-test (issue 31): an OAuth token's subject and an API key's
 * name shared one namespace. A session belongs to the principal *name* that
 * opened it (`Sessions.get(id, principal.name)`), and audit lines record
 * only that name, so a token whose `sub` (or `client_id`, for
 * client_credentials) equals a key's name:
 *
 * - uses, and can end (`DELETE`), the sessions that key opened; a `read`
 *   token takes over the `admin` key's session (its calls still run with
 *   the token's own role, but it receives that session's server-to-client
 *   stream and can end it);
 * - writes audit lines indistinguishable from the key's.
 *
 * Client ids are chosen by whoever registers clients at the authorization
 * server, and operators name keys after the clients that use them
 * ("grafana"), so the collision needs no forgery. End to end against the
 * certified `oidc-provider` (as tests/http_oauth.test.ts), with the keys of
 * the auth tests. Failed before the fix in both steps; principals are now
 * named by their source (`key:admin`, `oauth:<issuer>#admin`).
 */
import assert from "node:assert/strict";
import http from "node:http";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";
import { DEFAULT_SCOPES, TokenVerifier } from "../lib/auth/oauth.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { INITIALIZE } from "./http_helpers.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

const RESOURCE = "https://routers.example.test/mcp";
const SCOPES = "routers:read routers:operate routers:admin";

/** An OpenID provider whose clients are named like the test keys. */
async function startProvider(clientIds: string[]) {
  let handle: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: "k", alg: "RS256", use: "sig" }],
    },
    clients: clientIds.map((id) => ({
      client_id: id,
      client_secret: `${id}-secret-0123456789`,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      scope: SCOPES,
    })),
    scopes: SCOPES.split(" "),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: SCOPES,
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: "jwt",
        }),
      },
    },
  });
  handle = provider.callback() as http.RequestListener;
  const token = async (clientId: string, scope: string) => {
    const res = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${clientId}:${clientId}-secret-0123456789`)}`,
      },
      body: new URLSearchParams({ grant_type: "client_credentials", scope, resource: RESOURCE }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.access_token as string;
  };
  return { issuer, token, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

function post(base: string, credential: string, body: string, session?: string) {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${credential}`,
      ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
    },
    body,
  });
}

Deno.test("hostile: a token named like a key is not that key", async (t) => {
  const op = await startProvider(["admin", "reader"]);
  const sim = await startSimulator();
  const srv = await startAuthServer(sim, {
    oauth: new TokenVerifier({
      issuers: [op.issuer],
      resource: RESOURCE,
      scopes: DEFAULT_SCOPES,
    }),
    resourceMetadata: {
      resource: RESOURCE,
      authorizationServers: [op.issuer],
      scopes: Object.values(DEFAULT_SCOPES),
    },
  });
  try {
    await t.step("a read token named admin cannot use the admin key's session", async () => {
      const opened = await post(srv.base, KEYS.admin, INITIALIZE);
      await opened.body?.cancel();
      const session = opened.headers.get("mcp-session-id")!;
      assert.ok(session);
      const token = await op.token("admin", "routers:read");
      const hijack = await post(
        srv.base,
        token,
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        session,
      );
      await hijack.body?.cancel();
      assert.equal(
        hijack.status,
        404,
        'a read token whose subject is "admin" was let into the admin key\'s session',
      );
    });

    await t.step("its audit lines are told apart from the key's", async () => {
      // The keys file has a read-only key "reader"; a client "reader" gets an operate token.
      const token = await op.token("reader", "routers:operate");
      const client = await authClient("streamable-http", `${srv.base}/mcp`, token);
      try {
        const r = await client.callTool({
          name: "router_update_identity",
          arguments: { device: "r1", name: "who-did-this" },
        });
        assert.notEqual(r.isError, true, textOf(r));
      } finally {
        await client.close();
      }
      const line = (await srv.audit()).find((l) =>
        l.kind === "intent" && l.tool === "router_update_identity"
      );
      assert.notEqual(
        line?.principal,
        "reader",
        'the audit log says the read-only key "reader" made a write',
      );
    });
  } finally {
    await srv.close();
    await sim.close();
    await op.stop();
  }
});
