/**
 * Confirm-or-revert changes against the simulator, whose scheduler runs
 * jobs at their time: commit, rollback, a failing operation (through the
 * in-process server), and a router that reverts by itself after the MCP
 * server's process was killed (a spawned server: the process is the point).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { callTool, configOf, spawnServer } from "./helpers/mcp.ts";

type Structured = Record<string, unknown>;

/** A simulator with one address, and a server on it: in this process unless `spawned`. */
async function setup(spawned = false) {
  const sim = await startSimulator();
  sim.run('/ip address add address=10.20.0.1/24 interface=ether2 comment="before"');
  const args = ["--host", sim.host, "--port", String(sim.port)];
  const session = spawned ? await spawnServer(args) : await serveInProcess(args);
  const existing = sim.items("/ip/address").find((a) => a.address === "10.20.0.1/24")![".id"];
  const ops = [
    { tool: "router_add_ip_address", arguments: { address: "10.21.0.1/24", interface: "ether3" } },
    { tool: "router_update_ip_address", arguments: { id: existing, comment: "after" } },
    { tool: "router_disable_ip_address", arguments: { id: existing } },
  ];
  return { sim, session, ops, existing };
}

const jobs = (sim: { items(menu: string): Record<string, string>[] }) =>
  sim.items("/system/scheduler").filter((j) => j.name.startsWith("mcp-revert-"));

Deno.test("apply then commit keeps the change and disarms the router's revert job", async () => {
  const { sim, session, ops } = await setup();
  try {
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: ops,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    const s = r.structuredContent as Structured;
    assert.match(String(s.change_id), /^[0-9a-f]{12}$/);
    assert.deepEqual(s.health, { login: true, default_route: true, ping: {} });
    assert.equal((s.operations as unknown[]).length, 3);
    assert.equal(jobs(sim).length, 1, "a revert job is armed on the router");
    assert.equal(jobs(sim)[0].name, `mcp-revert-${s.change_id}`);

    const pending = await callTool(session, "router_list_pending_changes");
    assert.deepEqual(
      (pending.structuredContent?.items as Structured[]).map((i) => i.change_id),
      [s.change_id],
    );
    const c = await callTool(session, "router_commit_changes", { change_id: s.change_id });
    assert.equal(c.isError, undefined, c.content[0]?.text);
    assert.equal(jobs(sim).length, 0, "the job is gone");
    const a = sim.items("/ip/address");
    assert.ok(a.some((x) => x.address === "10.21.0.1/24"));
    assert.ok(a.some((x) => x.address === "10.20.0.1/24" && x.comment === "after"));
    const again = await callTool(session, "router_commit_changes", { change_id: s.change_id });
    assert.equal(again.isError, true);
    assert.match(again.content[0].text, /no pending change/);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("rollback restores the before-state exactly (export)", async () => {
  const { sim, session, ops } = await setup();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: ops,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    assert.notEqual(configOf(sim), before);
    const rb = await callTool(session, "router_rollback_changes", {
      change_id: (r.structuredContent as Structured).change_id,
    });
    assert.equal(rb.isError, undefined, rb.content[0]?.text);
    assert.equal(configOf(sim), before);
    assert.equal(jobs(sim).length, 0);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a failing third operation rolls back the first two", async () => {
  const { sim, session, ops } = await setup();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: [
        ops[0],
        ops[1],
        {
          tool: "router_add_ip_address",
          arguments: { address: "10.22.0.1/24", interface: "no-such-interface" },
        },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /operation 3 \(router_add_ip_address\) failed/);
    assert.match(r.content[0].text, /input does not match any value of interface/);
    assert.match(r.content[0].text, /2 operation\(s\) applied before it were rolled back/);
    assert.equal(configOf(sim), before);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a failed health check (the default route gone) reverts every applied operation", async () => {
  const { sim, session, ops } = await setup();
  try {
    const before = configOf(sim);
    const route = sim.items("/ip/route").find((r) => r["dst-address"] === "0.0.0.0/0")![".id"];
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: [ops[0], {
        tool: "router_disable_route",
        arguments: { id: route, confirm: true },
      }],
    });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /health check failed after the change \(login: true, default route: false/,
    );
    assert.match(r.content[0].text, /The 2 operation\(s\) were/);
    assert.equal(configOf(sim), before);
    assert.equal(jobs(sim).length, 0, "no revert job is left armed");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("with no confirmation the router reverts by itself, even after the server is killed", async () => {
  const { sim, session, ops } = await setup(true);
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: ops,
      confirm_within_seconds: 10,
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    Deno.kill(session.pid, "SIGKILL");
    assert.notEqual(configOf(sim), before);
    // The deadline comes on the router's clock: move it there instead of waiting.
    sim.advanceClock(10);
    const deadline = Date.now() + 20_000;
    while (configOf(sim) !== before && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.equal(configOf(sim), before, "the simulator reverted at the deadline");
    assert.equal(jobs(sim).length, 0, "the job removed itself");
  } finally {
    await session.close().catch(() => {});
    await sim.close();
  }
});

Deno.test("an irreversible operation is refused before anything changes", async () => {
  const { sim, session } = await setup();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: [{
        tool: "router_update_user",
        arguments: { name: "admin", password: "x", confirm: true },
      }],
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /cannot be reverted/);
    assert.equal(configOf(sim), before);
  } finally {
    await session.close();
    await sim.close();
  }
});
