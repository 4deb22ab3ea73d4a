/**
 * The fast path of plain requests (the stdio transport, and the SDK routing
 * of lib/mcp_sdk/dispatch.ts): whatever `isPlainRequest` accepts, the SDK's
 * `JSONRPCMessageSchema` accepts too and its own routing would send to the
 * request dispatch (property test over JSON-RPC-like values), and everyday
 * requests take it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
} from "../../lib/mcp_sdk/types.ts";
import { isPlainRequest } from "../../lib/mcp_sdk/dispatch.ts";

const json = fc.jsonValue({ maxDepth: 3 });
/** Requests, mostly well formed, each field sometimes wrong or missing, sometimes a stray key. */
const messageLike = fc.record(
  {
    jsonrpc: fc.oneof(
      { weight: 4, arbitrary: fc.constant("2.0") },
      fc.constant("1.0"),
      fc.integer(),
      fc.constant(null),
    ),
    id: fc.oneof(
      { weight: 2, arbitrary: fc.string() },
      { weight: 2, arbitrary: fc.integer() },
      fc.double(),
      fc.constant(2 ** 60),
      fc.constant(null),
      fc.boolean(),
    ),
    method: fc.oneof({ weight: 4, arbitrary: fc.string() }, fc.integer(), fc.constant(null)),
    params: fc.oneof(
      { weight: 4, arbitrary: fc.dictionary(fc.string(), json) },
      fc.record({ _meta: json }),
      fc.array(json),
      fc.constant(null),
      fc.string(),
    ),
  },
  { requiredKeys: [] },
).chain((m) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(m) },
    fc.record({ result: json }).map((x) => ({ ...m, ...x })),
    fc.dictionary(fc.string(), json, { maxKeys: 2 }).map((x) => ({ ...x, ...m })),
  )
);

Deno.test("every plain request isPlainRequest accepts is a JSON-RPC request the SDK routes as one", () => {
  let accepted = 0;
  fc.assert(
    fc.property(fc.oneof(messageLike, json), (value) => {
      const copy = JSON.parse(JSON.stringify(value ?? null));
      if (isPlainRequest(copy)) {
        accepted++;
        assert.ok(JSONRPCMessageSchema.safeParse(copy).success, JSON.stringify(copy));
        // The SDK's Protocol tells responses first, then requests.
        assert.ok(!isJSONRPCResultResponse(copy) && !isJSONRPCErrorResponse(copy));
        assert.ok(isJSONRPCRequest(copy), JSON.stringify(copy));
      }
    }),
    { numRuns: 5000 },
  );
  assert.ok(accepted > 50, `only ${accepted} generated values took the fast path`);
});

Deno.test("stdio: everyday requests take the fast path; notifications and _meta do not", () => {
  const call = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "router_list_ip_addresses", arguments: { where: { disabled: false } } },
  };
  assert.equal(isPlainRequest(call), true);
  assert.equal(isPlainRequest({ jsonrpc: "2.0", id: "a", method: "tools/list" }), true);
  assert.equal(isPlainRequest({ jsonrpc: "2.0", method: "notifications/initialized" }), false);
  assert.equal(isPlainRequest({ ...call, params: { _meta: { progressToken: 1 } } }), false);
  assert.equal(isPlainRequest({ ...call, id: 1.5 }), false);
  assert.equal(isPlainRequest({ ...call, extra: 1 }), false);
  assert.equal(isPlainRequest([call]), false);
});
