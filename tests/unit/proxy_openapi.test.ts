/**
 * The proxy's OpenAPI building blocks as pure logic: tool groups (the
 * tags), shared schemas, required-only examples and the OpenAPI 3.0
 * rendition Swagger UI reads.
 */
import assert from "node:assert/strict";
import type { Tool } from "../../lib/mcp_sdk/types.ts";
import { requiredExample } from "../../lib/proxy/openapi.ts";
import { shareRepeatedSchemas } from "../../lib/proxy/openapi_shared.ts";
import { openApiForUi, schemaFor30 } from "../../lib/proxy/openapi_ui.ts";
import { toolGroups } from "../../lib/proxy/tool_groups.ts";

function tools(...names: string[]): Tool[] {
  return names.map((name) => ({ name, inputSchema: { type: "object" } }) as Tool);
}

Deno.test("tool groups: prefix and verb dropped, plurals merged, loners placed", () => {
  const groups = toolGroups(
    tools(
      "router_list_users",
      "router_get_user",
      "router_list_active_users",
      "router_list_ip_addresses",
      "router_add_ip_address",
      "router_ping",
      "router_reboot",
    ),
    "router",
  );
  assert.deepEqual(Object.fromEntries(groups), {
    router_list_users: "users",
    router_get_user: "users",
    router_list_active_users: "users",
    router_list_ip_addresses: "ip",
    router_add_ip_address: "ip",
    router_ping: "other",
    router_reboot: "other",
  });
});

Deno.test("tool groups: _meta toolset wins; no shared word means the server name", () => {
  const meta = [{
    name: "listThings",
    inputSchema: { type: "object" },
    _meta: { "example.com/toolset": "stuff" },
  }] as unknown as Tool[];
  assert.equal(toolGroups(meta, "srv").get("listThings"), "stuff");
  const loners = toolGroups(tools("echo", "fail", "slow"), "remote");
  assert.deepEqual([...loners.values()], ["remote", "remote", "remote"]);
  const camel = toolGroups(tools("getIssue", "listIssues", "createIssue", "getRepo"), "gh");
  assert.deepEqual([...camel.values()], ["issues", "issues", "issues", "other"]);
});

Deno.test("shared schemas: repeated objects become one component; simple values stay", () => {
  const record = {
    type: "object",
    properties: {
      name: { type: "string", description: "The name of the item as the router shows it" },
      disabled: { type: "boolean", description: "Whether the item is disabled" },
    },
  };
  const tag = { type: "string", description: "A repeated simple value with a long description" };
  const out = shareRepeatedSchemas({
    "a.output": { type: "object", properties: { items: { type: "array", items: record } } },
    "b.output": { type: "object", properties: { item: record, tag } },
    "c.input": { type: "object", properties: { tag } },
    "d.input": { $defs: { r: record }, properties: { x: { $ref: "#/$defs/r" } } },
  });
  const ref = { $ref: "#/components/schemas/a.output.items.item" };
  assert.deepEqual(out["a.output"], {
    type: "object",
    properties: { items: { type: "array", items: ref } },
  });
  assert.deepEqual((out["b.output"].properties as any).item, ref);
  assert.deepEqual((out["c.input"].properties as any).tag, tag, "simple values stay inline");
  assert.deepEqual(out["a.output.items.item"], record);
  assert.deepEqual(out["d.input"].$defs, { r: record }, "a schema with its own $ref is untouched");
  assert.equal(Object.keys(out).length, 5);
});

Deno.test("examples: required arguments only, from the schema's own values", () => {
  assert.deepEqual(
    requiredExample({
      type: "object",
      properties: {
        address: { type: "string" },
        port: { type: "integer", minimum: 1 },
        proto: { enum: ["tcp", "udp"] },
        mode: { type: ["string", "null"], default: "auto" },
        tags: { type: "array" },
        comment: { type: "string" },
      },
      required: ["address", "port", "proto", "mode", "tags"],
    }),
    { address: "", port: 1, proto: "tcp", mode: "auto", tags: [] },
  );
  assert.deepEqual(requiredExample({ type: "object", properties: { a: { type: "string" } } }), {});
  assert.deepEqual(requiredExample({ type: "object" }), {});
  assert.equal(requiredExample({ anyOf: [] }), undefined);
});

Deno.test("Swagger UI rendition: 3.1 schemas written as 3.0, schemas referred elsewhere", () => {
  assert.deepEqual(
    schemaFor30({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        a: { type: ["string", "null"], examples: ["x"] },
        b: { const: 5 },
        c: { type: "number", exclusiveMinimum: 0 },
        d: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
        e: { type: "object", propertyNames: { pattern: "^x" }, additionalProperties: {} },
        f: { type: ["string", "integer"] },
      },
    }),
    {
      type: "object",
      properties: {
        a: { type: "string", nullable: true, example: "x" },
        b: { enum: [5] },
        c: { type: "number", minimum: 0, exclusiveMinimum: true },
        d: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
        e: { type: "object", additionalProperties: {} },
        f: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
    },
  );
  const ui = openApiForUi({
    openapi: "3.1.0",
    info: { title: "t", version: "1", description: "d" },
    paths: {
      "/x": {
        post: {
          requestBody: {
            content: { "application/json": { schema: { $ref: "#/components/schemas/X" } } },
          },
          responses: { "400": { $ref: "#/components/responses/Bad" } },
        },
      },
    },
    components: { schemas: { X: { type: "object" } }, responses: { Bad: { description: "b" } } },
  });
  assert.equal(ui.openapi, "3.0.3");
  assert.deepEqual((ui.components as any).schemas, undefined);
  assert.equal(
    (ui.paths as any)["/x"].post.requestBody.content["application/json"].schema.$ref,
    "schemas.json#/components/schemas/X",
  );
  assert.equal((ui.paths as any)["/x"].post.responses["400"].$ref, "#/components/responses/Bad");
  assert.match((ui.info as any).description, /^d\n\n.*\[openapi\.json\]\(openapi\.json\)/);
});
