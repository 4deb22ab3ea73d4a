/**
 * The proxy with an already running MCP server reached over Streamable
 * HTTP (an SDK server in this test process, checking the configured
 * headers): text results parsed as JSON, a tool error (502), a tool that
 * outlives the timeout (504), `--strict-auth`, and SIGINT.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { McpServer } from "../lib/mcp_sdk/mcp_server.ts";
import { WebStandardStreamableHTTPServerTransport } from "../lib/mcp_sdk/streamable_http.ts";
import * as z from "zod";
import { getJson, postJson, startProxy } from "./proxy_helpers.ts";

const KEY = "remote-key-77d2";
const AUTH = { authorization: `Bearer ${KEY}` };
const TOKEN = "upstream-token-1";

/** A tiny MCP server; `slow` waits until `release` resolves (or the call is cancelled). */
function remoteServer(release: Promise<void>): McpServer {
  const server = new McpServer({ name: "remote-test", version: "1.0.0" });
  server.registerTool("echo", {
    description: "Echo the text back as JSON",
    inputSchema: { text: z.string(), times: z.number().int().min(1).max(3).optional() },
  }, ({ text, times }: { text: string; times?: number }) => ({
    content: [{ type: "text", text: JSON.stringify({ echo: text.repeat(times ?? 1) }) }],
  }));
  server.registerTool("plain", { description: "Answer in words" }, () => ({
    content: [{ type: "text", text: "just words" }],
  }));
  server.registerTool("even", {
    description: "Takes an even number (a rule JSON Schema cannot say)",
    inputSchema: { n: z.number().refine((n: number) => n % 2 === 0, "must be even") },
  }, ({ n }: { n: number }) => ({ content: [{ type: "text", text: String(n) }] }));
  server.registerTool("fail", { description: "Always fails" }, () => ({
    content: [{ type: "text", text: "the disk is on fire" }],
    isError: true,
  }));
  server.registerTool(
    "slow",
    { description: "Takes its time" },
    async (extra: { signal: AbortSignal }) => {
      await Promise.race([
        release,
        new Promise((resolve) => extra.signal.addEventListener("abort", resolve)),
      ]);
      return { content: [{ type: "text", text: "late" }] };
    },
  );
  return server;
}

Deno.test("proxy: a Streamable HTTP server, 502, 504, strict auth, SIGINT", async (t) => {
  const { promise: release, resolve: releaseSlow } = Promise.withResolvers<void>();
  let sawToken = true;
  const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.headers.get("x-upstream-token") !== TOKEN) {
      sawToken = false;
      return new Response("forbidden", { status: 403 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = remoteServer(release);
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      await server.close();
    }
  });
  const proxy = await startProxy(
    {
      mcpServers: {
        remote: {
          type: "streamable-http",
          url: `http://127.0.0.1:${upstream.addr.port}/mcp`,
          headers: { "x-upstream-token": TOKEN },
        },
      },
    },
    ["--strict-auth", "--tool-timeout", "1"],
    { ROUTER_PROXY_API_KEY: KEY },
  );
  let stopped = false;
  try {
    await t.step("the remote server is up with its tools; headers were sent", async () => {
      const health = await getJson(proxy, "/health");
      assert.equal(health.status, 200, "health is open even with --strict-auth");
      assert.equal(health.json.servers.remote.state, "up");
      assert.equal(health.json.servers.remote.kind, "streamable-http");
      assert.equal(health.json.servers.remote.tools, 5);
      assert.ok(sawToken, "every upstream request carried the configured header");
    });

    await t.step("--strict-auth protects docs, OpenAPI and tool lists", async () => {
      for (const path of ["/openapi.json", "/docs", "/remote", "/remote/openapi.json"]) {
        const r = await getJson(proxy, path);
        assert.equal(r.status, 401, path);
        assert.equal(r.json.error.code, "unauthorized");
        assert.match(r.headers.get("www-authenticate") ?? "", /^Bearer/);
      }
      const doc = await getJson(proxy, "/remote/openapi.json", AUTH);
      assert.equal(doc.status, 200);
      const result = await new Validator().validate(structuredClone(doc.json));
      assert.equal(result.valid, true, JSON.stringify(result.errors));
      assert.deepEqual(Object.keys(doc.json.paths).sort(), [
        "/echo",
        "/even",
        "/fail",
        "/plain",
        "/slow",
      ]);
      const docs = await proxy.fetch("/docs", { headers: AUTH });
      assert.equal(docs.status, 200);
      await docs.body?.cancel();
    });

    await t.step("200: text content is parsed as JSON when it is JSON", async () => {
      const echo = await postJson(proxy, "/remote/echo", { text: "hi", times: 2 }, AUTH);
      assert.equal(echo.status, 200, JSON.stringify(echo.json));
      assert.deepEqual(echo.json, { echo: "hihi" });
      const plain = await postJson(proxy, "/remote/plain", {}, AUTH);
      assert.equal(plain.status, 200);
      assert.equal(plain.json, "just words");
    });

    await t.step("422: schema bounds from the server's own schema", async () => {
      const r = await postJson(proxy, "/remote/echo", { times: 5 }, AUTH);
      assert.equal(r.status, 422);
      const fields = r.json.error.details.errors.map((e: { field: string }) => e.field).sort();
      assert.deepEqual(fields, ["text", "times"]);
      assert.match(r.json.error.message, /times must be <= 3/);
    });

    await t.step("422, not 502: arguments the server itself refuses", async () => {
      const ok = await postJson(proxy, "/remote/even", { n: 4 }, AUTH);
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      const r = await postJson(proxy, "/remote/even", { n: 3 }, AUTH);
      assert.equal(r.status, 422, JSON.stringify(r.json));
      assert.equal(r.json.error.code, "invalid_arguments");
      assert.match(r.json.error.message, /^remote\/even: Input validation error: .*must be even/s);
      assert.equal(r.json.error.details.errors[0].keyword, "server");
    });

    await t.step("502: isError with the tool's message", async () => {
      const r = await postJson(proxy, "/remote/fail", {}, AUTH);
      assert.equal(r.status, 502);
      assert.equal(r.json.error.code, "tool_error");
      assert.equal(r.json.error.message, "the disk is on fire");
    });

    await t.step("504: a call past --tool-timeout", async () => {
      const r = await postJson(proxy, "/remote/slow", {}, AUTH);
      assert.equal(r.status, 504);
      assert.equal(r.json.error.code, "tool_timeout");
      assert.equal(r.json.error.details.timeoutSeconds, 1);
      assert.match(r.json.error.message, /remote\/slow did not answer within 1 s/);
      const after = await postJson(proxy, "/remote/echo", { text: "ok" }, AUTH);
      assert.equal(after.status, 200, "the server still serves after a timeout");
    });

    await t.step("SIGINT stops the proxy with exit code 0", async () => {
      const code = await proxy.stop("SIGINT");
      stopped = true;
      assert.equal(code, 0, proxy.stderr());
      assert.match(proxy.stderr(), /SIGINT: stopping/);
    });
  } finally {
    if (!stopped) await proxy.stop();
    releaseSlow();
    await upstream.shutdown();
  }
  assert.doesNotMatch(proxy.stderr(), new RegExp(`${KEY}|${TOKEN}`), "no secret in the log");
});

Deno.test("proxy: a remote server that answers 404, or whose name does not resolve, says so in /health", async () => {
  const notMcp = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(null, { status: 404 }),
  );
  const proxy = await startProxy({
    mcpServers: {
      wrong: { type: "streamable-http", url: `http://127.0.0.1:${notMcp.addr.port}/mcp` },
      nowhere: { type: "streamable-http", url: "http://mcp.nonexistent.invalid/mcp" },
    },
  });
  try {
    const errors = async () => (await getJson(proxy, "/health")).json.servers;
    let servers = await errors();
    for (let i = 0; i < 50 && !(servers.wrong.lastError && servers.nowhere.lastError); i++) {
      await new Promise((r) => setTimeout(r, 100));
      servers = await errors();
    }
    // Before: "Streamable HTTP error: Error POSTing to endpoint: " and "fetch failed".
    assert.match(servers.wrong.lastError, /HTTP 404/);
    assert.match(servers.nowhere.lastError, /mcp\.nonexistent\.invalid.*(dns|lookup|resolve)/i);
  } finally {
    await proxy.stop();
    await notMcp.shutdown();
  }
});
