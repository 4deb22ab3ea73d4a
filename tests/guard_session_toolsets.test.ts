/**
 * With `--dynamic-toolsets`, a call nested in a composite tool meets the
 * session's toolset check as a direct call does: `router_apply_changes`
 * cannot run `router_add_user` while `users` is not enabled in this session,
 * nor `router_fleet_query` run `router_list_users`; the refusal names the
 * toolset to enable, and once enabled the same call runs. Through MCP
 * against the simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const PASSWORD = "Zq9-toolset-Pa55";

Deno.test("dynamic toolsets: nested calls need their toolset enabled in the session", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--dynamic-toolsets",
  ]);
  try {
    const enable = async (toolsets: string[]) => {
      const r = await callTool(session, "router_enable_toolsets", { toolsets });
      assert.equal(r.isError, undefined, r.content[0].text);
    };
    await enable(["changes", "fleet"]);
    const before = configOf(sim);
    const addUser = {
      confirm: true,
      operations: [{
        tool: "router_add_user",
        arguments: { name: "intruder", group: "full", password: PASSWORD },
      }],
    };
    const r = await callTool(session, "router_apply_changes", addUser);
    assert.equal(r.isError, true, r.content[0].text);
    assert.match(
      r.content[0].text,
      /router_add_user \(inside router_apply_changes\) is in the users toolset, which is not enabled in this session: call router_enable_toolsets with \["users"\] first/,
    );
    assert.ok(!r.content[0].text.includes(PASSWORD));
    assert.equal(configOf(sim), before, "nothing was added");

    const q = await callTool(session, "router_fleet_query", { tool: "router_list_users" });
    assert.equal(q.isError, true, q.content[0].text);
    assert.match(
      q.content[0].text,
      /router_list_users \(inside router_fleet_query\) is in the users toolset, which is not enabled in this session: call router_enable_toolsets with \["users"\] first/,
    );

    // Dry runs of a composite meet the same check.
    const dry = await callTool(session, "router_apply_changes", { ...addUser, dry_run: true });
    assert.equal(dry.isError, true, dry.content[0].text);
    assert.match(dry.content[0].text, /users toolset, which is not enabled in this session/);

    await enable(["users"]);
    const q2 = await callTool(session, "router_fleet_query", { tool: "router_list_users" });
    assert.equal(q2.isError, undefined, q2.content[0].text);
    assert.equal((q2.structuredContent as { succeeded: number }).succeeded, 1);
    const dry2 = await callTool(session, "router_apply_changes", { ...addUser, dry_run: true });
    assert.equal(dry2.isError, undefined, dry2.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});
