/**
 * List tools made by the engine: `limit`, exact filters and their
 * combination, against the simulator's default firewall.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rule = { id: string; chain: string; action: string; comment?: string };

Deno.test("list tools: limit, filters and both together", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    const stored = sim.items("/ip/firewall/filter");
    const all = await callTool(session, "router_list_firewall_filter_rules");
    const rules = all.structuredContent?.items as Rule[];
    assert.deepEqual(rules.map((r) => r.id), stored.map((r) => r[".id"]), "router order");

    // The firewall has a `limit` property of its own; the argument still limits.
    const three = await callTool(session, "router_list_firewall_filter_rules", { limit: 3 });
    assert.deepEqual((three.structuredContent?.items as Rule[]).map((r) => r.id), [
      ...rules.slice(0, 3).map((r) => r.id),
    ]);
    assert.equal(three.structuredContent?.count, 3);

    const forward = await callTool(session, "router_list_firewall_filter_rules", {
      where: { chain: "forward" },
    });
    const want = stored.filter((r) => r.chain === "forward").map((r) => r[".id"]);
    assert.ok(want.length > 1);
    assert.deepEqual((forward.structuredContent?.items as Rule[]).map((r) => r.id), want);

    const both = await callTool(session, "router_list_firewall_filter_rules", {
      where: { chain: "forward", action: "drop" },
      limit: 1,
    });
    const drops = stored.filter((r) => r.chain === "forward" && r.action === "drop");
    assert.deepEqual((both.structuredContent?.items as Rule[]).map((r) => r.id), [
      drops[0][".id"],
    ]);

    const none = await callTool(session, "router_list_firewall_filter_rules", {
      where: { comment: 'no such "rule" $x' },
    });
    assert.equal(none.structuredContent?.count, 0);
  } finally {
    await session.close();
    await sim.close();
  }
});
