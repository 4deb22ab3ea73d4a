/**
 * What `tools/list` costs an agent, measured through an SDK client against
 * the real server: the default list stays within 100 KB, `--toolsets all`
 * within 1.6 KB per tool on average, and the figures the docs and the
 * benchmark print (lib/server/list_size.ts) are the ones the wire carries.
 * The lean schemas stay valid: the SDK client checks a write's answer
 * against its output schema, whose `after` is a `$ref` to `before`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { catalogueSizes, LIST_BUDGET, measureList } from "../lib/server/list_size.ts";
import { callTool, listAllTools } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("tools/list: default ≤ 100 KB, --toolsets all ≤ 1.6 KB per tool, as documented", async (t) => {
  const sim = await startSimulator();
  const at = ["--host", sim.host, "--port", String(sim.port)];
  const expected = catalogueSizes();
  try {
    await t.step("the default list", async () => {
      const session = await serveInProcess([...at, "--toolsets", "default"]);
      try {
        const size = measureList(await listAllTools(session.client));
        console.log(`default: ${size.tools} tools, ${size.bytes} bytes`);
        assert.ok(
          size.bytes <= LIST_BUDGET.defaultBytes,
          `default tools/list is ${size.bytes} bytes`,
        );
        assert.deepEqual(size, expected.default);
      } finally {
        await session.close();
      }
    });
    await t.step("--toolsets all", async () => {
      const session = await serveInProcess([...at, "--toolsets", "all"]);
      try {
        const tools = await listAllTools(session.client);
        const size = measureList(tools);
        console.log(`all: ${size.tools} tools, ${size.bytes} bytes, ${size.average} per tool`);
        assert.ok(
          size.average <= LIST_BUDGET.allAverage,
          `--toolsets all averages ${size.average} bytes per tool`,
        );
        assert.deepEqual(size, expected.all);

        const update = tools.find((x) => x.name === "router_update_ip_address")!;
        const out = update.outputSchema as { properties: Record<string, unknown> };
        assert.deepEqual(out.properties.after, { $ref: "#/properties/before" });
        const list = await callTool(session, "router_list_ip_addresses");
        const [first] = (list.structuredContent as { items: { id: string }[] }).items;
        // The SDK client validates structuredContent against the output schema.
        const r = await callTool(session, "router_update_ip_address", {
          id: first.id,
          comment: "lean",
        });
        assert.ok(!r.isError, r.content[0]?.text);
        const { before, after } = r.structuredContent as Record<string, { comment?: string }>;
        assert.notEqual(before.comment, "lean");
        assert.equal(after.comment, "lean");
      } finally {
        await session.close();
      }
    });
  } finally {
    await sim.close();
  }
});
