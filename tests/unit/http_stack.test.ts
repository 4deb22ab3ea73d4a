/**
 * The shared HTTP stack (lib/http) as pure logic, with requests built in
 * memory: route patterns and their precedence, 404/405, refusals rendered
 * by the application's error shape (also when outer middleware wraps them),
 * the guards, CORS, bearer auth, body limit, content type and JSON body.
 */
import assert from "node:assert/strict";
import { App, type Middleware } from "../../lib/http/app.ts";
import { isLoopback, parseHosts, parseOrigins, sameOrigin } from "../../lib/http/allow_list.ts";
import { bearerAuth, bearerToken, keysMatch } from "../../lib/http/bearer_auth.ts";
import { bodyLimit } from "../../lib/http/body_limit.ts";
import { isJson, requireJson } from "../../lib/http/content_type.ts";
import { cors } from "../../lib/http/cors.ts";
import { jsonErrorShape } from "../../lib/http/error_shape.ts";
import { HttpError } from "../../lib/http/errors.ts";
import { guardChain, guardLists } from "../../lib/http/guard_settings.ts";
import { jsonBody } from "../../lib/http/json_body.ts";
import { listenFailure } from "../../lib/http/listen.ts";
import { jsonResponse } from "../../lib/http/responses.ts";

const NAMES = {
  hostsFlag: "--allowed-hosts",
  originsFlag: "--allowed-origins",
  hosts: "--allowed-hosts",
  origins: "--allowed-origins",
};

function app(): App {
  return new App({ errorShape: jsonErrorShape, name: "test" });
}

async function call(
  a: App,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: BodyInit,
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await a.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

Deno.test("http app: literal segments beat parameters; parameters are decoded", async () => {
  const a = app()
    .route("/:server/:tool", [], { POST: (_r, c) => jsonResponse(200, { tool: c.params }) })
    .route("/:server/docs", [], { GET: (_r, c) => jsonResponse(200, { docs: c.params }) })
    .route("/health", [], { GET: () => jsonResponse(200, "ok") });
  assert.deepEqual((await call(a, "GET", "/router/docs")).json, { docs: { server: "router" } });
  assert.deepEqual((await call(a, "POST", "/r%20x/a%2Fb")).json, {
    tool: { server: "r x", tool: "a/b" },
  });
  assert.equal((await call(a, "GET", "/health")).json, "ok");
  const bad = await call(a, "POST", "/router/%zz");
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, "bad_path");
  const missing = await call(a, "GET", "/a/b/c");
  assert.equal(missing.status, 404);
  assert.equal((await call(a, "POST", "/router/")).status, 404, "an empty segment is no parameter");
  const wrong = await call(a, "GET", "/router/tool");
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
  assert.equal(wrong.json.error.code, "method_not_allowed");
});

Deno.test("http app: a refusal deep inside reaches outer middleware as a response", async () => {
  const seen: number[] = [];
  const outer: Middleware = async (_req, _ctx, next) => {
    const res = await next();
    seen.push(res.status);
    return res;
  };
  const refuse: Middleware = () => {
    throw new HttpError(418, "teapot", "no coffee", { headers: { "x-why": "tea" } });
  };
  const a = app().use(outer).route("/x", [refuse], { GET: () => jsonResponse(200, {}) })
    .route("/boom", [], {
      GET: () => {
        throw new Error("secret internal detail");
      },
    });
  const res = await call(a, "GET", "/x");
  assert.equal(res.status, 418);
  assert.equal(res.headers.get("x-why"), "tea");
  assert.deepEqual(res.json, { error: { code: "teapot", message: "no coffee", details: null } });
  const boom = await call(a, "GET", "/boom");
  assert.equal(boom.status, 500);
  assert.doesNotMatch(JSON.stringify(boom.json), /secret/);
  assert.deepEqual(seen, [418, 500]);
});

Deno.test("http allow-lists: same origin, loopback addresses", () => {
  assert.ok(sameOrigin("http://proxy.lan:8000", "proxy.lan:8000"));
  assert.ok(sameOrigin("https://mcp.example.com", "mcp.example.com"));
  assert.ok(sameOrigin("https://mcp.example.com", "MCP.example.com:443"));
  assert.ok(!sameOrigin("http://proxy.lan:8001", "proxy.lan:8000"));
  assert.ok(!sameOrigin("http://proxy.lan", "proxy.lan:8000"));
  assert.ok(!sameOrigin("null", "proxy.lan"));
  assert.ok(!sameOrigin("ftp://proxy.lan", "proxy.lan"));
  assert.ok(!sameOrigin("http://proxy.lan", null));
  for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) assert.ok(isLoopback(h));
  for (const h of ["0.0.0.0", "::", "10.0.0.1", "myhost", "localhost.example"]) {
    assert.ok(!isLoopback(h), h);
  }
  assert.throws(() => parseHosts(["http://x"]), /not a host entry/);
  assert.throws(() => parseOrigins(["x.example"]), /not an origin/);
});

Deno.test("http guards: 421 and 403 name the refused value and the setting", async () => {
  const lists = guardLists(["proxy.lan:*"], [], NAMES);
  const a = app().route("/x", guardChain(lists, NAMES), { GET: () => jsonResponse(200, "ok") });
  const host = await call(a, "GET", "/x", { host: "rebind.example:8000" });
  assert.equal(host.status, 421);
  assert.equal(host.json.error.code, "host_not_allowed");
  assert.equal(
    host.json.error.message,
    "Invalid Host header: rebind.example:8000 is not allowed; add it with --allowed-hosts",
  );
  const origin = await call(a, "GET", "/x", { host: "proxy.lan", origin: "http://evil.example" });
  assert.equal(origin.status, 403);
  assert.equal(origin.json.error.code, "origin_not_allowed");
  assert.match(
    origin.json.error.message,
    /http:\/\/evil\.example is not allowed; add it with --allowed-origins/,
  );
  const own = await call(a, "GET", "/x", {
    host: "proxy.lan:8000",
    origin: "http://proxy.lan:8000",
  });
  assert.equal(own.status, 200, "a page of this server calls it");
  const local = await call(a, "GET", "/x", { host: "proxy.lan", origin: "http://localhost:3000" });
  assert.equal(local.status, 200, "local origins by default");
  assert.throws(() => guardLists(["a/b"], [], NAMES), /invalid value for --allowed-hosts/);
});

Deno.test("http cors: preflights answered, refusals readable", async () => {
  const a = app().route("/x", [
    cors({ methods: ["POST"], allowHeaders: ["authorization", "content-type"] }),
    bearerAuth("k", "test"),
  ], { POST: () => jsonResponse(200, "ok") });
  const pre = await call(a, "OPTIONS", "/x", {
    origin: "http://localhost:3000",
    "access-control-request-method": "POST",
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-methods"), "POST");
  const refused = await call(a, "POST", "/x", { origin: "http://localhost:3000" });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("access-control-allow-origin"), "http://localhost:3000");
  const none = await call(a, "POST", "/x", { authorization: "Bearer k" });
  assert.equal(none.status, 200);
  assert.equal(none.headers.get("access-control-allow-origin"), null);
});

Deno.test("http bearer auth: one answer for missing and wrong keys", async () => {
  assert.ok(keysMatch("abc", "abc"));
  assert.ok(!keysMatch("abc", "abcd"));
  assert.equal(bearerToken("Bearer  tok "), "tok");
  assert.equal(bearerToken("Basic dG9rOg=="), "");
  const a = app().route("/x", [bearerAuth("s3cret", "test")], { GET: () => jsonResponse(200, 1) });
  const missing = await call(a, "GET", "/x");
  const wrong = await call(a, "GET", "/x", { authorization: "Bearer s3cre" });
  assert.equal(missing.status, 401);
  assert.deepEqual(missing.json, wrong.json);
  assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="test"');
  assert.equal((await call(a, "GET", "/x", { authorization: "bearer s3cret" })).status, 200);
});

Deno.test("http body: 415, 413, UTF-8 and JSON with line and column", async () => {
  assert.ok(isJson("application/json; charset=UTF-8"));
  assert.ok(isJson("application/merge-patch+json"));
  assert.ok(!isJson("application/json; charset=latin1"));
  assert.ok(!isJson("text/plain"));
  const a = app().route("/x", [], {
    POST: {
      use: [requireJson, bodyLimit(16), jsonBody("send {}")],
      handle: (_r, c) => jsonResponse(200, c.body),
    },
  });
  const json = { "content-type": "application/json" };
  assert.equal((await call(a, "POST", "/x", { "content-type": "text/plain" }, "{}")).status, 415);
  const big = await call(a, "POST", "/x", json, '{"a": "0123456789abcdef"}');
  assert.equal(big.status, 413);
  assert.deepEqual(big.json.error.details, { limitBytes: 16 });
  const bad = await call(a, "POST", "/x", json, '{\n "a": }');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.error.details, { line: 2, column: 7 });
  const empty = await call(a, "POST", "/x", json, " ");
  assert.match(empty.json.error.message, /empty; send \{\}/);
  const latin = await call(a, "POST", "/x", json, new Uint8Array([0x22, 0xff, 0x22]));
  assert.match(latin.json.error.message, /not valid UTF-8/);
  assert.deepEqual((await call(a, "POST", "/x", json, "[1]")).json, [1]);
});

Deno.test("http listen: failures become one sentence naming the setting", () => {
  const opts = {
    hostname: "127.0.0.1",
    port: 8000,
    portSetting: "--port",
    hostSetting: "--host",
    onListen() {},
  };
  assert.equal(
    listenFailure(new Deno.errors.AddrInUse("Address already in use (os error 98)"), opts),
    "cannot listen on 127.0.0.1:8000: port 8000 is already in use by another program; " +
      "choose a free port with --port, or 0 to let the system pick one",
  );
  assert.match(
    listenFailure(new Deno.errors.AddrNotAvailable("x"), { ...opts, hostname: "10.9.9.9" }),
    /10\.9\.9\.9 is not an address of this machine; set --host/,
  );
});
