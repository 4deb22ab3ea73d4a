/**
 * The REST proxy end to end (key given by flag here, by environment in
 * proxy_remote.test.ts): `main.ts proxy` runs as a real process, starts
 * this repository's MCP server from a config file as its child, and the
 * child reaches the simulator over real SSH. Each answer of the HTTP
 * interface is produced by a real request and its body checked.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { listedEntries } from "../lib/server/list_size.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { getJson, postJson, routerEntry, startProxy } from "./proxy_helpers.ts";

const KEY = "test-key-4f1c9a";
const AUTH = { authorization: `Bearer ${KEY}` };
const ORIGIN = "http://allowed.example";

Deno.test("proxy: tools as REST endpoints, every error status, OpenAPI and CORS", async (t) => {
  const sim = await startSimulator();
  sim.run('/ip address add address=10.0.0.1/24 interface=ether1 comment="uplink"');
  const proxy = await startProxy(
    { mcpServers: { router: routerEntry(sim) } },
    ["--cors-allow-origins", `${ORIGIN},http://other-allowed.example`, "--api-key", KEY],
  );
  try {
    await t.step("GET /health is open and shows the child up", async () => {
      const { status, json } = await getJson(proxy, "/health");
      assert.equal(status, 200);
      assert.equal(json.status, "ok");
      assert.equal(json.servers.router.state, "up");
      assert.equal(json.servers.router.kind, "stdio");
      assert.ok(json.servers.router.tools > 0);
      assert.equal(typeof json.servers.router.pid, "number");
    });

    await t.step(
      "200: POST /router/router_list_ip_addresses {} returns the simulator's addresses",
      async () => {
        const { status, json } = await postJson(
          proxy,
          "/router/router_list_ip_addresses",
          {},
          AUTH,
        );
        assert.equal(status, 200, JSON.stringify(json));
        const got = json.items.map((i: { address: string }) => i.address).sort();
        const want = sim.items("/ip/address").map((r) => r.address).sort();
        assert.deepEqual(got, want);
        assert.ok(got.includes("10.0.0.1/24"));
        assert.equal(json.count, want.length);
      },
    );

    await t.step("200: arguments reach the tool (filter by interface)", async () => {
      const { status, json } = await postJson(
        proxy,
        "/router/router_list_ip_addresses",
        { where: { interface: "ether1" } },
        AUTH,
      );
      assert.equal(status, 200, JSON.stringify(json));
      assert.deepEqual(json.items.map((i: { address: string }) => i.address), ["10.0.0.1/24"]);
    });

    await t.step(
      "401: missing and wrong key get the same answer with WWW-Authenticate",
      async () => {
        const missing = await postJson(proxy, "/router/router_list_ip_addresses", {});
        const wrong = await postJson(proxy, "/router/router_list_ip_addresses", {}, {
          authorization: `Bearer ${KEY}x`,
        });
        const basic = await postJson(proxy, "/router/router_list_ip_addresses", {}, {
          authorization: `Basic ${btoa(`admin:${KEY}`)}`,
        });
        for (const r of [missing, wrong, basic]) {
          assert.equal(r.status, 401);
          assert.match(r.headers.get("www-authenticate") ?? "", /^Bearer/);
          assert.equal(r.json.error.code, "unauthorized");
          assert.deepEqual(r.json, missing.json, "one answer for every failure");
        }
        assert.ok(!JSON.stringify(wrong.json).includes(KEY), "the key is never echoed");
      },
    );

    await t.step(
      "400: malformed JSON names line and column; a non-object body is refused",
      async () => {
        const bad = await postJson(proxy, "/router/router_list_ip_addresses", '{\n "a": }', AUTH);
        assert.equal(bad.status, 400);
        assert.equal(bad.json.error.code, "invalid_json");
        assert.deepEqual(bad.json.error.details, { line: 2, column: 7 });
        const array = await postJson(proxy, "/router/router_list_ip_addresses", "[1, 2]", AUTH);
        assert.equal(array.status, 400);
        assert.equal(array.json.error.code, "not_an_object");
        assert.match(array.json.error.message, /not an array/);
        const empty = await postJson(proxy, "/router/router_list_ip_addresses", "", AUTH);
        assert.equal(empty.status, 400);
        assert.match(empty.json.error.message, /send \{\}/);
      },
    );

    await t.step("404: unknown server and unknown tool", async () => {
      const server = await postJson(proxy, "/nosuch/router_list_ip_addresses", {}, AUTH);
      assert.equal(server.status, 404);
      assert.equal(server.json.error.code, "not_found");
      assert.match(server.json.error.message, /no server "nosuch"; the servers are router/);
      const tool = await postJson(proxy, "/router/router_list_nothing", {}, AUTH);
      assert.equal(tool.status, 404);
      assert.equal(tool.json.error.code, "unknown_tool");
      assert.ok(tool.json.error.details.tools.includes("router_list_ip_addresses"));
    });

    await t.step("405: GET on a tool endpoint", async () => {
      const r = await getJson(proxy, "/router/router_list_ip_addresses", AUTH);
      assert.equal(r.status, 405);
      assert.equal(r.headers.get("allow"), "POST");
      assert.equal(r.json.error.code, "method_not_allowed");
    });

    await t.step("413: a body over 4 MiB, declared or streamed", async () => {
      const big = `{"comment": "${"x".repeat(4 * 1024 * 1024)}"}`;
      const declared = await postJson(proxy, "/router/router_list_ip_addresses", big, AUTH);
      assert.equal(declared.status, 413);
      assert.equal(declared.json.error.code, "payload_too_large");
      assert.equal(declared.json.error.details.limitBytes, 4 * 1024 * 1024);
      const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 20) controller.enqueue(chunk); // 5 MiB, no Content-Length
          else controller.close();
        },
      });
      const res = await proxy.fetch("/router/router_list_ip_addresses", {
        method: "POST",
        headers: { "content-type": "application/json", ...AUTH },
        body: stream,
      });
      assert.equal(res.status, 413);
      assert.equal((await res.json()).error.code, "payload_too_large");
    });

    await t.step("415: a body that is not JSON", async () => {
      const res = await proxy.fetch("/router/router_list_ip_addresses", {
        method: "POST",
        headers: { "content-type": "text/plain", ...AUTH },
        body: "{}",
      });
      assert.equal(res.status, 415);
      const json = await res.json();
      assert.equal(json.error.code, "unsupported_media_type");
      assert.match(json.error.message, /Content-Type: application\/json/);
    });

    await t.step("422: arguments failing the input schema, each field listed", async () => {
      const r = await postJson(
        proxy,
        "/router/router_add_ip_address",
        { address: 5, bogus: true },
        AUTH,
      );
      assert.equal(r.status, 422);
      assert.equal(r.json.error.code, "invalid_arguments");
      const fields = Object.fromEntries(
        r.json.error.details.errors.map((e: { field: string; message: string }) => [
          e.field,
          e.message,
        ]),
      );
      assert.equal(fields.interface, "is required");
      assert.equal(fields.bogus, "is not an accepted argument");
      assert.equal(fields.address, "must be string");
      assert.equal(sim.items("/ip/address").length, 2, "nothing reached the router");
    });

    await t.step("502: the tool reports an error", async () => {
      const r = await postJson(proxy, "/router/router_get_ip_address", { id: "*FF" }, AUTH);
      assert.equal(r.status, 502, JSON.stringify(r.json));
      assert.equal(r.json.error.code, "tool_error");
      const text = r.json.error.details.content.map((c: { text: string }) => c.text).join("\n");
      assert.equal(r.json.error.message, text.trim(), "the tool's own message");
      assert.match(r.json.error.message, /router_get_ip_address/);
      assert.equal(r.json.error.details.tool, "router_get_ip_address");
    });

    await t.step("OpenAPI 3.1 documents pass a validator and cover every tool", async () => {
      const list = await getJson(proxy, "/router");
      assert.equal(list.status, 200);
      const names: string[] = list.json.tools.map((x: { name: string }) => x.name);
      assert.ok(names.includes("router_list_ip_addresses"));
      // The child lists its tools in pages: the proxy follows every nextCursor.
      assert.deepEqual(names.sort(), listedEntries(["all"]).map((t) => t.name).sort());
      const all = await getJson(proxy, "/openapi.json");
      const one = await getJson(proxy, "/router/openapi.json");
      for (const [doc, prefix] of [[all.json, "/router/"], [one.json, "/"]] as const) {
        assert.equal(doc.openapi, "3.1.0");
        const result = await new Validator().validate(structuredClone(doc));
        assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
        for (const name of names) {
          const op = doc.paths[`${prefix}${name}`]?.post;
          assert.ok(op, `operation for ${name}`);
          assert.ok(op.requestBody.content["application/json"].schema.$ref);
          for (const status of ["200", "400", "401", "413", "415", "422", "502", "503", "504"]) {
            assert.ok(op.responses[status], `${name} documents ${status}`);
          }
        }
        assert.deepEqual(doc.components.securitySchemes, {
          bearerAuth: { type: "http", scheme: "bearer" },
        });
        assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
      }
      assert.deepEqual(one.json.servers, [{ url: "/router" }]);
      const input = all.json.components.schemas["router.router_add_ip_address.input"];
      assert.deepEqual(input.required.sort(), ["address", "interface"]);
      assert.equal(input.$schema, undefined);
    });

    await t.step("OpenAPI: toolset tags, required-only examples, shared schemas", async () => {
      const { json: doc, headers } = await getJson(proxy, "/openapi.json");
      const list = doc.paths["/router/router_list_ip_addresses"].post;
      const add = doc.paths["/router/router_add_ip_address"].post;
      const rules = doc.paths["/router/router_list_firewall_filter_rules"].post;
      assert.deepEqual(list.tags, ["ip"]);
      assert.deepEqual(add.tags, ["ip"]);
      assert.deepEqual(rules.tags, ["firewall"]);
      assert.deepEqual(
        doc.tags.map((t: { name: string }) => t.name).filter((n: string) => n === "ip"),
        ["ip"],
        "each tag listed once",
      );
      assert.deepEqual(list.requestBody.content["application/json"].example, {});
      assert.deepEqual(add.requestBody.content["application/json"].example, {
        address: "",
        interface: "",
      });
      // Every reference resolves, and repeated records are shared, not copied.
      const refs: string[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (typeof node !== "object" || node === null) return;
        const ref = (node as { $ref?: unknown }).$ref;
        if (typeof ref === "string") refs.push(ref);
        Object.values(node).forEach(walk);
      };
      walk(doc);
      for (const ref of new Set(refs)) {
        const target = ref.slice(2).split("/").reduce(
          (at: any, key) => at?.[key.replaceAll("~1", "/").replaceAll("~0", "~")],
          doc,
        );
        assert.ok(target, `${ref} resolves`);
      }
      const output = doc.components.schemas["router.router_get_ip_address.output"];
      assert.match(JSON.stringify(output), /"\$ref":"#\/components\/schemas\/router\./);
      const size = Number(headers.get("content-length") ?? JSON.stringify(doc).length);
      console.log(
        `proxy_http: /openapi.json is ${size} bytes for ${Object.keys(doc.paths).length} tools`,
      );
    });

    await t.step("docs: the page's OpenAPI 3.0 documents pass a validator", async () => {
      for (const base of ["", "/router"]) {
        const page = await getJson(proxy, `${base}/docs/openapi.json`);
        const schemas = await getJson(proxy, `${base}/docs/schemas.json`);
        assert.equal(page.json.openapi, "3.0.3");
        assert.equal(page.json.components.schemas, undefined, "the schemas come later");
        assert.match(JSON.stringify(page.json.paths), /"schemas\.json#\/components\/schemas\//);
        for (const doc of [schemas.json]) {
          const result = await new Validator().validate(structuredClone(doc));
          assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
        }
        const local = JSON.parse(
          JSON.stringify(page.json).replaceAll('"schemas.json#/', '"#/'),
        );
        local.components.schemas = schemas.json.components.schemas;
        const result = await new Validator().validate(local);
        assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
      }
    });

    await t.step("docs: Swagger UI from the bundled package, no CDN", async () => {
      for (const base of ["", "/router"]) {
        const page = await proxy.fetch(`${base}/docs`);
        assert.equal(page.status, 200);
        const html = await page.text();
        assert.match(html, /src="docs\/swagger-ui-bundle\.js"/);
        assert.doesNotMatch(html, /https?:\/\//, "nothing loaded from elsewhere");
        assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
        const js = await proxy.fetch(`${base}/docs/swagger-ui-bundle.js`);
        assert.equal(js.status, 200);
        assert.match(js.headers.get("content-type") ?? "", /javascript/);
        assert.ok((await js.text()).length > 500_000, "the real Swagger UI bundle");
      }
      const css = await proxy.fetch("/docs/swagger-ui.css");
      assert.match(css.headers.get("content-type") ?? "", /text\/css/);
      await css.body?.cancel();
      const missing = await getJson(proxy, "/docs/nothing.js");
      assert.equal(missing.status, 404);
      assert.equal(missing.json.error.code, "not_found");
    });

    await t.step("CORS: only the listed origins", async () => {
      const preflight = (origin: string) =>
        proxy.fetch("/router/router_list_ip_addresses", {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization, content-type",
          },
        });
      const ok = await preflight(ORIGIN);
      assert.equal(ok.status, 204);
      assert.equal(ok.headers.get("access-control-allow-origin"), ORIGIN);
      assert.match(ok.headers.get("access-control-allow-headers") ?? "", /authorization/);
      await ok.body?.cancel();
      const denied = await preflight("http://evil.example");
      assert.equal(denied.status, 403);
      assert.equal(denied.headers.get("access-control-allow-origin"), null);
      assert.equal((await denied.json()).error.code, "origin_not_allowed");
      const call = await postJson(proxy, "/router/router_list_ip_addresses", {}, {
        ...AUTH,
        origin: ORIGIN,
      });
      assert.equal(call.status, 200);
      assert.equal(call.headers.get("access-control-allow-origin"), ORIGIN);
      const other = await postJson(proxy, "/router/router_list_ip_addresses", {}, {
        ...AUTH,
        origin: "http://evil.example",
      });
      assert.equal(other.headers.get("access-control-allow-origin"), null);
    });
  } finally {
    const code = await proxy.stop();
    await sim.close();
    assert.equal(code, 0, proxy.stderr());
  }
  assert.doesNotMatch(proxy.stderr(), new RegExp(KEY), "the key never reaches the log");
  assert.match(
    proxy.stderr(),
    /--api-key is visible to other users in ps; prefer ROUTER_PROXY_API_KEY/,
  );
  assert.match(
    proxy.stderr(),
    /--cors-allow-origins is now --allowed-origins/,
    "the old flag still works, with a note",
  );
});
