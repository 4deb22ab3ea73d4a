/**
 * MCP over HTTP end to end: SDK clients over streamable-http and SSE call
 * tools on the simulator through the product's HTTP server (in this
 * process: the server process itself, its signals and exit status, is
 * http_shutdown.test.ts's); MCP logging of tool calls; sessions (DELETE,
 * idle expiry, stateless); and the HTTP edges: 404, 405 with Allow, 413,
 * 415 and JSON-RPC parse errors, none of which reach the router.
 */
import assert from "node:assert/strict";
import type { Client } from "../lib/mcp_sdk/client.ts";
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { LoggingMessageNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { connect, INITIALIZE, MCP_POST, startInProcess } from "./http_helpers.ts";

type Structured = { items: { address: string; interface: string }[] };

async function listAddresses(client: Client, address?: string) {
  const result = await client.callTool({
    name: "router_list_ip_addresses",
    arguments: address ? { where: { address } } : {},
  });
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return (result.structuredContent as Structured).items;
}

/** Wait (bounded) until `test` holds; the bound is generous, not a timing claim. */
async function eventually(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(test(), what);
}

for (const transport of ["streamable-http", "sse"] as const) {
  Deno.test(`http ${transport}: an SDK client calls tools on the simulator`, async (t) => {
    const sim = await startSimulator();
    sim.run('/ip address add address=10.0.0.1/24 interface=ether1 comment="uplink"');
    const server = await startInProcess(sim, { transport });
    const path = transport === "sse" ? "/sse" : "/mcp";
    const client = await connect(transport, `${server.base}${path}`);
    const logs: { level: string; data: Record<string, unknown> }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n: { params: unknown }) => {
      logs.push(n.params as (typeof logs)[number]);
    });
    try {
      await t.step("tools/list and router_list_ip_addresses", async () => {
        const tools = await listAllTools(client);
        assert.ok(tools.some((x: { name: string }) => x.name === "router_list_ip_addresses"));
        const items = await listAddresses(client);
        const addresses = items.map((i) => i.address).sort();
        assert.deepEqual(addresses, ["10.0.0.1/24", "192.168.88.1/24"]);
      });
      await t.step("the tool call was logged through MCP logging (info)", async () => {
        // Nothing below warning is sent until the client asks for it.
        assert.deepEqual(logs.filter((l) => l.level === "info"), []);
        await client.setLoggingLevel("info");
        await listAddresses(client);
        await eventually(
          () => logs.some((l) => l.level === "info" && l.data.tool === "router_list_ip_addresses"),
          `an info log for the call; got ${JSON.stringify(logs)}`,
        );
        const entry = logs.find((l) => l.data.tool === "router_list_ip_addresses")!;
        assert.equal(entry.data.ok, true);
        assert.equal(typeof entry.data.durationMs, "number");
      });
      await t.step("logging/setLevel warning drops info and keeps failures", async () => {
        await client.setLoggingLevel("warning");
        logs.length = 0;
        await listAddresses(client);
        const failed = await client.callTool({
          name: "router_get_ip_address",
          arguments: { id: "*7FFFFFF" },
        });
        assert.equal(failed.isError, true);
        await eventually(
          () => logs.some((l) => l.level === "warning"),
          "a warning for the failure",
        );
        assert.deepEqual(logs.map((l) => l.level), ["warning"], JSON.stringify(logs));
        assert.equal(logs[0].data.tool, "router_get_ip_address");
        assert.equal(logs[0].data.ok, false);
      });
    } finally {
      await client.close();
      await server.close();
      await sim.close();
    }
  });
}

Deno.test("http sse: the first event names the messages endpoint; bad posts are refused", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, { transport: "sse" });
  try {
    const res = await fetch(`${srv.base}/sse`, { headers: { Accept: "text/event-stream" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    const first = new TextDecoder().decode(value);
    const m = /^event: endpoint\ndata: (\/messages\?sessionId=[0-9a-f-]{36})\n\n/.exec(first);
    assert.ok(m, first);
    assert.equal(srv.http.sessions.size, 1);
    const post = (path: string, body: string, type = "application/json") =>
      fetch(`${srv.base}${path}`, { method: "POST", headers: { "Content-Type": type }, body });
    const ok = await post(
      m[1],
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    );
    assert.equal(ok.status, 202);
    await ok.body?.cancel();
    const unknown = await post("/messages?sessionId=nope", INITIALIZE);
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    const missing = await post("/messages", INITIALIZE);
    assert.equal(missing.status, 400);
    await missing.body?.cancel();
    const type = await post(m[1], INITIALIZE, "text/plain");
    assert.equal(type.status, 415);
    await type.body?.cancel();
    const parse = await post(m[1], "{nope");
    assert.equal(parse.status, 400);
    assert.equal((await parse.json()).error.code, -32700);
    const empty = await post(m[1], "[]");
    assert.equal(empty.status, 400);
    assert.equal((await empty.json()).error.code, -32600);
    const notRpc = await post(m[1], JSON.stringify({ hello: 1 }));
    assert.equal(notRpc.status, 400);
    assert.equal((await notRpc.json()).error.code, -32600);
    await reader.cancel();
    await eventually(() => srv.http.sessions.size === 0, "the session ends with its stream");
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http streamable: 404, 405, 413, 415 and parse errors never reach the router", async (t) => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim);
  const before = { ...sim.counters };
  const mcp = `${srv.base}/mcp`;
  try {
    await t.step("unknown paths get 404", async () => {
      for (const path of ["/", "/nope", "/sse", "/messages", "/mcp/", "/health/x"]) {
        const res = await fetch(`${srv.base}${path}`);
        await res.body?.cancel();
        assert.equal(res.status, 404, path);
      }
    });
    await t.step("a wrong method gets 405 with Allow", async () => {
      for (
        const [path, method, allow] of [
          ["/mcp", "PUT", "POST, GET, DELETE"],
          ["/mcp", "PATCH", "POST, GET, DELETE"],
          ["/health", "POST", "GET, HEAD"],
        ]
      ) {
        const res = await fetch(`${srv.base}${path}`, { method });
        await res.body?.cancel();
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.headers.get("allow"), allow);
      }
    });
    await t.step("a body over 4 MiB gets 413 (declared or streamed)", async () => {
      const big = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "ping",
        params: { x: "a".repeat(4 * 1024 * 1024) },
      });
      const declared = await fetch(mcp, {
        method: "POST",
        headers: Object.fromEntries(MCP_POST),
        body: big,
      });
      assert.equal(declared.status, 413);
      await declared.body?.cancel();
      const bytes = new TextEncoder().encode(big);
      const streamed = await fetch(mcp, {
        method: "POST",
        headers: Object.fromEntries(MCP_POST),
        body: new ReadableStream({
          start(c) {
            for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.slice(i, i + 65536));
            c.close();
          },
        }),
      });
      assert.equal(streamed.status, 413);
      await streamed.body?.cancel();
    });
    await t.step("a wrong content type gets 415", async () => {
      for (
        const type of [
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/json; charset=latin1",
        ]
      ) {
        const res = await fetch(mcp, {
          method: "POST",
          headers: { "Content-Type": type, Accept: "application/json, text/event-stream" },
          body: INITIALIZE,
        });
        await res.body?.cancel();
        assert.equal(res.status, 415, type);
      }
      const none = await fetch(mcp, { method: "POST", body: new Uint8Array([123]) });
      await none.body?.cancel();
      assert.equal(none.status, 415);
    });
    await t.step("malformed JSON gets a JSON-RPC parse error", async () => {
      for (const body of ["{", "", "\xff", '{"jsonrpc":"2.0","id":1,"method":']) {
        const res = await fetch(mcp, {
          method: "POST",
          headers: Object.fromEntries(MCP_POST),
          body,
        });
        assert.equal(res.status, 400, JSON.stringify(body));
        const json = await res.json();
        assert.equal(json.jsonrpc, "2.0");
        assert.equal(json.error.code, -32700);
      }
    });
    await t.step(
      "an empty batch gets 400 Invalid Request (-32600), with or without a session",
      async () => {
        const init = await fetch(mcp, {
          method: "POST",
          headers: Object.fromEntries(MCP_POST),
          body: INITIALIZE,
        });
        await init.text();
        const session = init.headers.get("mcp-session-id")!;
        const withSession: Record<string, string> = {
          "Mcp-Session-Id": session,
          "Mcp-Protocol-Version": "2025-06-18",
        };
        for (const extra of [{}, withSession]) {
          const res = await fetch(mcp, {
            method: "POST",
            headers: { ...Object.fromEntries(MCP_POST), ...extra },
            body: "[]",
          });
          assert.equal(res.status, 400, JSON.stringify(extra));
          const json = await res.json();
          assert.equal(json.jsonrpc, "2.0");
          assert.equal(json.error.code, -32600);
          assert.equal(json.id, null);
        }
        const end = await fetch(mcp, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
        await end.body?.cancel();
      },
    );
    await t.step("a request without a session, or with an unknown one, is refused", async () => {
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
      const none = await fetch(mcp, {
        method: "POST",
        headers: Object.fromEntries(MCP_POST),
        body: ping,
      });
      assert.equal(none.status, 400);
      await none.body?.cancel();
      const unknown = await fetch(mcp, {
        method: "POST",
        headers: { ...Object.fromEntries(MCP_POST), "Mcp-Session-Id": "nope" },
        body: ping,
      });
      assert.equal(unknown.status, 404);
      assert.equal((await unknown.json()).error.code, -32001);
    });
    assert.deepEqual(sim.counters, before, "nothing reached the router");
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http streamable: DELETE ends a session and idle sessions expire", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, { sessionTimeout: 1 });
  const mcp = `${srv.base}/mcp`;
  const open = async () => {
    const res = await fetch(mcp, {
      method: "POST",
      headers: Object.fromEntries(MCP_POST),
      body: INITIALIZE,
    });
    await res.text();
    assert.equal(res.status, 200);
    return res.headers.get("mcp-session-id")!;
  };
  const ping = (id: string) =>
    fetch(mcp, {
      method: "POST",
      headers: {
        ...Object.fromEntries(MCP_POST),
        "Mcp-Session-Id": id,
        "Mcp-Protocol-Version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
  try {
    const a = await open();
    const alive = await ping(a);
    assert.equal(alive.status, 200);
    await alive.text();
    const del = await fetch(mcp, { method: "DELETE", headers: { "Mcp-Session-Id": a } });
    await del.body?.cancel();
    assert.equal(del.status, 200);
    const gone = await ping(a);
    await gone.body?.cancel();
    assert.equal(gone.status, 404);

    const b = await open();
    assert.equal(srv.http.sessions.size, 1);
    await eventually(() => srv.http.sessions.size === 0, "the idle session expires");
    const expired = await ping(b);
    await expired.body?.cancel();
    assert.equal(expired.status, 404);
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http streamable --mcp.stateless: no sessions, tools still work", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim, { stateless: true });
  try {
    const res = await fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: Object.fromEntries(MCP_POST),
      body: INITIALIZE,
    });
    await res.text();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("mcp-session-id"), null);
    const get = await fetch(`${server.base}/mcp`, { headers: { Accept: "text/event-stream" } });
    await get.body?.cancel();
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    const client = await connect("streamable-http", `${server.base}/mcp`);
    try {
      const items = await listAddresses(client, "192.168.88.1/24");
      assert.deepEqual(items.map((i) => i.interface), ["bridge"]);
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
    await sim.close();
  }
});

Deno.test("http: a busy port is one sentence naming --mcp.port, not a raw error", async () => {
  const { runCli } = await import("./helpers/mcp.ts");
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const out = await runCli([
      "--host",
      "127.0.0.1",
      "--mcp.transport",
      "streamable-http",
      "--mcp.host",
      "127.0.0.1",
      "--mcp.port",
      String(busy.addr.port),
    ]);
    assert.notEqual(out.code, 0, out.stderr);
    const errors = out.stderr.split("\n").filter((l) => / error: /.test(l));
    assert.equal(errors.length, 1, out.stderr);
    assert.match(
      errors[0],
      new RegExp(
        `cannot listen on 127\\.0\\.0\\.1:${busy.addr.port}: port ${busy.addr.port} is already ` +
          "in use by another program; choose a free port with --mcp\\.port \\(ROUTER_MCP__PORT\\)",
      ),
    );
    assert.doesNotMatch(out.stderr, /os error|AddrInUse|\n\s+at /);
  } finally {
    busy.close();
  }
});
