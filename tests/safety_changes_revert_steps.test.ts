/**
 * A revert job's undo steps are independent: one that fails (its item was
 * already removed by hand) does not stop the others, and the job records
 * which failed where it can be read back (its own comment, kept disabled,
 * and a `:log warning` line). Against the simulator, whose scheduler runs
 * the job at its deadline, and through router_rollback_changes.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { connectInProcess } from "./helpers/in_process.ts";

type Structured = Record<string, unknown>;

const ADD = "router_add_ip_address";
const ops = [
  { tool: ADD, arguments: { address: "10.31.0.1/24", interface: "ether3" } },
  { tool: ADD, arguments: { address: "10.32.0.1/24", interface: "ether3" } },
  { tool: ADD, arguments: { address: "10.33.0.1/24", interface: "ether3" } },
];

const has = (sim: { items(m: string): Record<string, string>[] }, address: string) =>
  sim.items("/ip/address").some((a) => a.address === address);
const jobs = (sim: { items(m: string): Record<string, string>[] }) =>
  sim.items("/system/scheduler").filter((j) => j.name.startsWith("mcp-revert-"));

Deno.test("a failing undo step at the deadline does not stop the others; the job says which failed", async () => {
  const sim = await startSimulator();
  const session = await connectInProcess(sim);
  try {
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: ops,
      confirm_within_seconds: 10,
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    const id = (r.structuredContent as Structured).change_id;
    // Operation 2's item goes by hand: its undo (a remove by id) will fail.
    sim.run("/ip address remove [find address=10.32.0.1/24]");
    // The deadline comes on the router's clock: move it there instead of waiting.
    sim.advanceClock(10);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (has(sim, "10.31.0.1/24") || has(sim, "10.33.0.1/24"))) {
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.ok(!has(sim, "10.33.0.1/24"), "operation 3 undone (it runs first)");
    assert.ok(!has(sim, "10.31.0.1/24"), "operation 1 undone after operation 2's undo failed");
    const [job] = jobs(sim);
    assert.ok(job, "the job stays as the record of an incomplete revert");
    assert.equal(job.name, `mcp-revert-${id}`);
    assert.equal(job.disabled, "true", "it never runs again");
    assert.match(job.comment, /revert incomplete: undo failed for operation\(s\) 2$/);
    assert.match(
      sim.run('/log print where message~"mcp-revert"').output,
      /revert incomplete: undo failed for operation\(s\) 2/,
    );
    const pending = await callTool(session, "router_list_pending_changes");
    const [item] = pending.structuredContent?.items as Structured[];
    assert.match(String(item.comment), /revert incomplete/);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("router_rollback_changes runs every undo step and names the one that failed", async () => {
  const sim = await startSimulator();
  const session = await connectInProcess(sim);
  try {
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: ops,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    const id = (r.structuredContent as Structured).change_id;
    sim.run("/ip address remove [find address=10.33.0.1/24]");
    const rb = await callTool(session, "router_rollback_changes", { change_id: id });
    assert.equal(rb.isError, true, rb.content[0]?.text);
    assert.match(rb.content[0].text, /undo failed for operation\(s\) 3/);
    assert.ok(!has(sim, "10.31.0.1/24") && !has(sim, "10.32.0.1/24"), "the others were undone");
    assert.equal(jobs(sim)[0]?.disabled, "true");
    // Acknowledged with a commit: the record goes.
    const c = await callTool(session, "router_commit_changes", { change_id: id });
    assert.equal(c.isError, undefined, c.content[0]?.text);
    assert.equal(jobs(sim).length, 0);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("the revert script's independent steps run alike on every simulated release", async () => {
  const { revertScript } = await import("../lib/routeros/scheduler.ts");
  for (const version of ["6.49.13", "7.12.2", "7.16.2", "7.24"]) {
    const sim = await startSimulator({ version });
    try {
      sim.run("/ip address add address=10.41.0.1/24 interface=ether3");
      sim.run("/system scheduler add name=mcp-revert-000000000001 interval=0 disabled=yes");
      const script = revertScript("mcp-revert-000000000001", [
        '/ip address remove [find where address="10.41.0.1/24"]',
        "/ip address remove numbers=*FFFF",
      ]);
      const out = sim.run(script);
      assert.equal(out.output, "", `${version}: ${out.output}`);
      assert.ok(!has(sim, "10.41.0.1/24"), `${version}: step 1 ran after step 2 failed`);
      const [job] = jobs(sim);
      assert.match(job?.comment ?? "", /undo failed for operation\(s\) 2$/, version);
      sim.run("/system scheduler remove [find]");
      sim.run("/ip address add address=10.41.0.1/24 interface=ether3");
      sim.run("/system scheduler add name=mcp-revert-000000000001 interval=0 disabled=yes");
      sim.run(revertScript("mcp-revert-000000000001", [
        '/ip address remove [find where address="10.41.0.1/24"]',
      ]));
      assert.equal(jobs(sim).length, 0, `${version}: every step done, the job removed itself`);
    } finally {
      await sim.close();
    }
  }
});

/** The firewall filter rules as `chain action comment`, in order. */
function filterRules(sim: { items(path: string): Record<string, string>[] }): string[] {
  return sim.items("/ip/firewall/filter").map((r) => `${r.chain} ${r.action} ${r.comment ?? ""}`);
}

/** Whether `command` adds a filter rule (not the revert job that holds one). */
function isFilterAdd(command: string): boolean {
  return /\/ip firewall filter add/.test(command) && !/scheduler/.test(command);
}

/**
 * Found by the third hostile re-test of issue 31. The revert job is armed
 * with each operation's undo step before the operation runs; for an
 * `add`, the new item's id is not known yet, so the undo step finds the
 * item by the properties given (`chain=input action=accept`), and only
 * after the add answers is the job re-armed with `remove numbers=<id>`.
 * When the add's outcome is unknown (here: its answer garbled, so it ran
 * but was not understood), the change is rolled back at once with that
 * find-based step; and if the server dies between the add and the re-arm,
 * the router's own job runs it at the deadline. Removing every item with
 * those properties took defconf's "accept established,related,untracked",
 * "accept ICMP" and "accept to local loopback" rules with it. The step now
 * leaves the items its properties found before the add (compared by id).
 */
Deno.test("rolling back an add of unknown outcome removes only what the change added", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await connectInProcess(sim);
  const rules = () => filterRules(sim);
  try {
    const before = rules();
    assert.ok(before.some((r) => r.includes("accept established")), "defconf's rules are there");
    let armed = "";
    sim.faults.garble = (command, output) => {
      if (!isFilterAdd(command)) return output;
      // The job as the router holds it while the add runs (what it would run at its deadline).
      armed = sim.items("/system/scheduler").find((j) =>
        j.name.startsWith("mcp-revert-")
      )!["on-event"];
      return "!!garbled!!";
    };
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      confirm_within_seconds: 600,
      operations: [{
        tool: "router_add_firewall_filter_rule",
        arguments: { chain: "input", action: "accept" },
      }],
    });
    sim.faults.garble = undefined;
    assert.equal(r.isError, true, r.content[0]?.text);
    assert.match(r.content[0]?.text ?? "", /outcome is unknown/);
    assert.deepEqual(
      rules(),
      before,
      "the rollback removed rules the change never added: " + r.content[0]?.text,
    );
    assert.deepEqual(jobs(sim), [], "every undo step succeeded: the job removed itself");

    // The job armed before the add, run as the router would at the deadline.
    assert.match(armed, /find where chain="input" and action="accept"/, armed);
    assert.equal(sim.run("/ip firewall filter add chain=input action=accept").exitCode, 0);
    assert.equal(rules().length, before.length + 1);
    assert.equal(sim.run(armed).output.trim(), "");
    assert.deepEqual(rules(), before, "the armed job removed only the rule added after it");
  } finally {
    sim.faults.garble = undefined;
    await session.close();
    await sim.close();
  }
});

/**
 * The same add twice in one change: the second add's undo step, armed
 * before its id is known, must leave the first add's item to the first
 * add's own undo (by id). Leaving out only what was there before the change
 * removed the first add's item with the second's, and the first undo step
 * then failed (no such item) and left the job saying the revert was
 * incomplete.
 */
Deno.test("rolling back the same add twice removes each added item once, by its own undo step", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await connectInProcess(sim);
  const rules = () => filterRules(sim);
  try {
    const before = rules();
    let adds = 0;
    sim.faults.garble = (command, output) => {
      if (!isFilterAdd(command)) return output;
      return ++adds === 2 ? "!!garbled!!" : output;
    };
    const add = {
      tool: "router_add_firewall_filter_rule",
      arguments: { chain: "input", action: "accept" },
    };
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      confirm_within_seconds: 600,
      operations: [add, add],
    });
    sim.faults.garble = undefined;
    assert.equal(r.isError, true, r.content[0]?.text);
    assert.match(r.content[0]?.text ?? "", /outcome is unknown/);
    assert.deepEqual(rules(), before, "both added rules are gone, and only they");
    assert.deepEqual(jobs(sim), [], "every undo step succeeded: " + r.content[0]?.text);
  } finally {
    sim.faults.garble = undefined;
    await session.close();
    await sim.close();
  }
});
