/**
 * The SDK internals lib/mcp_sdk/dispatch.ts relies on are there, and its
 * shortcuts do what they say: plain requests skip the SDK's schema routing
 * (notifications do not), and a tools/call result is sent as the handler
 * made it, not parsed and copied again. When an SDK upgrade moves an
 * internal, this fails naming it.
 */
import assert from "node:assert/strict";
import { Client, InMemoryTransport } from "../../lib/mcp_sdk/client.ts";
import {
  missingSdkInternals,
  routePlainRequests,
  setToolCallHandler,
} from "../../lib/mcp_sdk/dispatch.ts";
import { Server } from "../../lib/mcp_sdk/server.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  ListToolsRequestSchema,
} from "../../lib/mcp_sdk/types.ts";

const SDK = /sdk@(\d+\.\d+\.\d+)/.exec(import.meta.resolve("@modelcontextprotocol/sdk/"))?.[1];

Deno.test("sdk dispatch: the internals are there", () => {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  assert.deepEqual(
    missingSdkInternals(server),
    [],
    `MCP SDK ${SDK} changed what lib/mcp_sdk/dispatch.ts uses; update it for this version`,
  );
});

Deno.test("sdk dispatch: plain requests bypass the SDK's routing; results go out as made", async () => {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  const made: CallToolResult[] = [];
  setToolCallHandler(server, CallToolRequestSchema, (request) => {
    const result = { content: [{ type: "text" as const, text: request.params.name }] };
    made.push(result);
    return Promise.resolve(result);
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // Count what reaches the SDK's own routing, and catch what is sent.
  const sdkRoute = serverSide.onmessage!;
  const routed: JSONRPCMessage[] = [];
  serverSide.onmessage = (m, extra) => {
    routed.push(m);
    sdkRoute(m, extra);
  };
  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (m, o) => {
    sent.push(m);
    return send(m, o);
  };
  routePlainRequests(server, serverSide);
  const client = new Client({ name: "c", version: "0" });
  try {
    await client.connect(clientSide);
    const before = routed.length;
    const r = await client.callTool({ name: "echo", arguments: {} });
    assert.deepEqual(r.content, [{ type: "text", text: "echo" }]);
    assert.equal(routed.length, before, "a plain tools/call went through the SDK's routing");
    // The very object the handler made (the Server wrapper would send a parsed copy).
    const answer = sent.find((m) => "result" in m && m.id !== undefined && "content" in m.result);
    assert.ok(answer && "result" in answer);
    assert.equal(answer.result, made[0]);
    // A request with _meta, and notifications, still take the SDK's routing.
    await client.callTool({ name: "echo", arguments: {}, _meta: { progressToken: 1 } });
    assert.ok(routed.length > before, "a request with _meta skipped the SDK's routing");
  } finally {
    await client.close();
    await server.close();
  }
});
