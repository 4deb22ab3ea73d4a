/**
 * The lock-out guard on menus that take interfaces over: making the
 * interface that carries the server's SSH session a bond slave, or moving
 * it into a VRF, needs `confirm: true`; other interfaces do not. Through
 * MCP against the simulator, which listens on 127.0.0.3 and holds that
 * address on ether2.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const HOST = "127.0.0.3";

Deno.test("lock-out guard: the session's interface into a bond or a VRF needs confirm", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.20.8" });
  assert.equal(sim.run(`/ip address add address=${HOST}/8 interface=ether2`).exitCode, 0);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    for (
      const [tool, args, what] of [
        ["router_add_bond", { name: "bond-cut", slaves: ["ether2", "ether3"] }, /bond bond-cut/],
        ["router_add_vrf", { name: "vrf-cut", interfaces: ["ether2"] }, /VRF vrf-cut/],
      ] as const
    ) {
      const before = configOf(sim);
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, true, `${tool} should be refused`);
      assert.match(r.content[0].text, /interface ether2 carries the address this server's SSH/);
      assert.match(r.content[0].text, what);
      assert.match(r.content[0].text, /needs confirm: true\. Nothing was done/);
      assert.equal(configOf(sim), before, `${tool} changed the router`);
    }
    // Other interfaces pass; adding the session's one later is refused too.
    const bond = await callTool(session, "router_add_bond", {
      name: "bond-ok",
      slaves: ["ether4"],
    });
    assert.notEqual(bond.isError, true, bond.content[0].text);
    const grow = await callTool(session, "router_update_bond", {
      name: "bond-ok",
      slaves: ["ether4", "ether2"],
    });
    assert.equal(grow.isError, true);
    assert.match(grow.content[0].text, /needs confirm: true/);
    const other = await callTool(session, "router_add_vrf", {
      name: "vrf-other",
      interfaces: ["ether5"],
    });
    assert.notEqual(other.isError, true, other.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});
