/**
 * Arguments are checked strictly (an unknown key such as `bogus` is
 * refused), and so is a key that names a JavaScript prototype: `__proto__`,
 * `constructor`, `prototype`, at any depth. The SDK's parse of a
 * `tools/call` drops an own `__proto__` key of the arguments (JSON.parse
 * makes it like any other key), so `{"name": "x", "__proto__": {"dry_run":
 * true}}` once ran the write for real, its `dry_run` read by nobody. Raw
 * JSON-RPC over stdio to `main.ts`, and over streamable HTTP; the REST
 * proxy refuses the key with a 422 before it calls (its schema check sees
 * it as an unknown argument).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { childEnv, DENO } from "./helpers/env.ts";
import { JsonRpcStdio } from "./helpers/jsonrpc_stdio.ts";
import { MAIN } from "./helpers/mcp.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";
import { checkArguments } from "../lib/proxy/validate.ts";

Deno.test("guard: a __proto__ argument over stdio is refused, never a silent real write", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir({ prefix: "guard-proto-" });
  const server = new JsonRpcStdio(
    DENO,
    ["run", "--allow-all", MAIN, "--toolsets", "all", "--host", sim.host, "--port", `${sim.port}`],
    childEnv({ ROUTER_HOST_KEY_POLICY: "off" }, home),
  );
  try {
    await server.initialize();
    const bogus = await server.request("tools/call", {
      name: "router_update_identity",
      arguments: { name: "renamed", bogus: 1 },
    });
    assert.match(JSON.stringify(bogus.message), /Unrecognized key/, "the control is refused");
    // An own "__proto__" key, as JSON.parse makes it and JSON.stringify sends it.
    const args = JSON.parse('{"name": "renamed", "__proto__": {"dry_run": true}}');
    const r = await server.request("tools/call", {
      name: "router_update_identity",
      arguments: args,
    });
    const identity = sim.items("/system/identity")[0]?.name;
    assert.notEqual(
      identity,
      "renamed",
      `a call carrying {"__proto__": {"dry_run": true}} renamed the router: ${
        JSON.stringify(r.message).slice(0, 200)
      }`,
    );
    assert.equal(r.message.result?.isError, true);
    assert.match(JSON.stringify(r.message.result), /__proto__: is not an argument of any tool/);
  } finally {
    await server.close();
    await sim.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});

Deno.test("guard: prototype keys at any depth are refused over streamable HTTP", async () => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  try {
    const calls: [string, string, RegExp][] = [
      [
        "router_update_identity",
        '{"device": "r1", "name": "renamed", "__proto__": {"confirm": true}}',
        /arguments: __proto__: /,
      ],
      [
        "router_update_identity",
        '{"device": "r1", "name": "renamed", "constructor": {"prototype": {"dry_run": true}}}',
        /arguments: constructor: /,
      ],
      [
        "router_print",
        '{"device": "r1", "path": "/ip/address", "where": {"__proto__": {"x": "1"}}}',
        /arguments: where\.__proto__: /,
      ],
      [
        "router_print",
        '{"device": "r1", "path": "/ip/address", "where": {"prototype": "1"}}',
        /arguments: where\.prototype: /,
      ],
    ];
    for (const [name, json, refused] of calls) {
      const r = await admin.callTool({ name, arguments: JSON.parse(json) });
      assert.equal(r.isError, true, `${json} was taken: ${textOf(r).slice(0, 200)}`);
      assert.match(textOf(r), refused);
      assert.match(textOf(r), /refused at any depth/);
    }
    assert.equal(sim.items("/system/identity")[0]?.name, "MikroTik", "the router was renamed");
  } finally {
    await admin.close();
    await srv.close();
    await sim.close();
  }
});

Deno.test("proxy: a __proto__ argument is refused by the schema check before any call", () => {
  const tool = {
    name: "router_update_identity",
    inputSchema: {
      type: "object" as const,
      properties: { name: { type: "string" } },
      additionalProperties: false,
    },
  };
  const errors = checkArguments(tool, JSON.parse('{"name": "x", "__proto__": {"dry_run": true}}'));
  assert.deepEqual(errors.map((e) => e.field), ["__proto__"]);
});
