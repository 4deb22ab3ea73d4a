/**
 * Confirm-or-revert promises that the router reverts BY ITSELF at the
 * deadline unless the change is committed; a change may not defeat its own
 * revert job while the tool reports it armed (found by the second hostile
 * re-test of issue 31):
 *
 * - the job runs by the router's clock, so a write that may move it (the
 *   date, time or time zone, the NTP client, `/ip/cloud` `update-time`) is
 *   refused inside `router_apply_changes`, and anywhere while a change
 *   waits for its commit on that device; so is `/ip/cloud` `ddns_enabled:
 *   true` while `update-time` is on, its default (found by the third
 *   hostile re-test: MikroTik's IP/Cloud manual says the "router clock will
 *   be set to time provided by cloud server if there is no NTP or SNTP
 *   client enabled", so turning DDNS on let the cloud set the clock of a
 *   router without NTP while turning NTP on was refused);
 * - after an import, the job must still be there, enabled, at its
 *   deadline, with the clock not moved and the backup it loads still in
 *   storage; a script that removed, disabled or outran them is reverted at
 *   once and says so (or, with the backup gone, says it cannot be);
 * - while an import waits for its commit, the backup its revert loads is
 *   neither removed (router_remove_file, by name or id) nor replaced
 *   (router_upload_file): found by the third hostile re-test, where any
 *   operate key could remove it and the import then stayed uncommitted;
 * - the import's diff leaves out only its own job: a script that removes
 *   another change's job shows it.
 *
 * In process against the simulator (RouterOS 7.16.2).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, type McpSession } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";
import { REFUSAL_META_KEY } from "../lib/refusal_meta.ts";

type Sim = Awaited<ReturnType<typeof startSimulator>>;

async function lab(): Promise<{ sim: Sim; session: McpSession; close(): Promise<void> }> {
  const sim = await startSimulator({ version: "7.16.2" });
  const session = await serveInProcess([
    ...simArgs(sim),
  ]);
  return {
    sim,
    session,
    close: async () => {
      await session.close();
      await sim.close();
    },
  };
}

const ADDRESS = { address: "10.9.9.1/24", interface: "ether3" };
const hasAddress = (sim: Sim) => sim.items("/ip/address").some((a) => a.address === "10.9.9.1/24");
const jobs = (sim: Sim) => sim.items("/system/scheduler").map((j) => String(j.name));

Deno.test("a write that may move the router's clock is no part of a change, nor made while one is pending", async (t) => {
  const { sim, session, close } = await lab();
  try {
    await t.step("inside router_apply_changes: refused before anything is armed", async () => {
      // The clock's settings; its time ticks on by itself.
      const settings = () => {
        const { time: _, ...rest } = sim.items("/system/clock")[0];
        return rest;
      };
      const clock = settings();
      for (
        const op of [
          { tool: "router_update_clock", arguments: { date: "2020-01-01" } },
          { tool: "router_update_clock", arguments: { time_zone_name: "Pacific/Kiritimati" } },
          { tool: "router_update_ntp_client", arguments: { enabled: true } },
          { tool: "router_update_ip_cloud", arguments: { update_time: true } },
          { tool: "router_update_ip_cloud", arguments: { ddns_enabled: true } },
        ]
      ) {
        const r = await callTool(session, "router_apply_changes", {
          operations: [op, { tool: "router_add_ip_address", arguments: ADDRESS }],
          confirm_within_seconds: 10,
          confirm: true,
        });
        assert.equal(r.isError, true, `${op.tool} inside a change`);
        assert.match(
          r.content[0].text,
          /operation 1 \(router_update_\w+\): \w+( \(with update_time on\))? may move the router's clock, by which this change's revert job runs/,
        );
      }
      assert.deepEqual(jobs(sim), [], "no job armed");
      assert.ok(!hasAddress(sim), "nothing applied");
      assert.deepEqual(settings(), clock);
    });

    const applied = await callTool(session, "router_apply_changes", {
      operations: [{ tool: "router_add_ip_address", arguments: ADDRESS }],
      confirm_within_seconds: 600,
      confirm: true,
    });
    assert.equal(applied.isError, undefined, applied.content[0].text);
    const change = (applied.structuredContent as { change_id: string }).change_id;

    await t.step("while a change is pending: refused, dry run included", async () => {
      for (
        const [tool, args] of [
          ["router_update_clock", { date: "2020-01-01" }],
          ["router_update_clock", { time_zone_name: "Pacific/Kiritimati", dry_run: true }],
          ["router_update_ntp_client", { servers: ["pool.ntp.org"] }],
        ] as const
      ) {
        const r = await callTool(session, tool, args);
        assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
        assert.match(
          r.content[0].text,
          new RegExp(
            `may move the router's clock, while change ${change} waits for ` +
              "router_commit_changes: a revert job runs by that clock.*Nothing was sent",
          ),
        );
      }
      // Turning NTP off moves nothing.
      const off = await callTool(session, "router_update_ntp_client", { enabled: false });
      assert.equal(off.isError, undefined, off.content[0].text);
      // Cloud DDNS with update-time on (its default): the cloud's answer sets the clock.
      const cloud = () => sim.items("/ip/cloud")[0];
      assert.equal(cloud()["update-time"], "true", "update-time is on (default)");
      for (const dry_run of [false, true]) {
        const r = await callTool(session, "router_update_ip_cloud", {
          ddns_enabled: true,
          dry_run,
        });
        assert.equal(r.isError, true, r.content[0].text);
        assert.match(
          r.content[0].text,
          new RegExp(
            `sets ddns_enabled \\(with update_time on\\), which may move the router's clock, ` +
              `while change ${change} waits .*or set update_time: false in the same call`,
          ),
        );
      }
      assert.notEqual(cloud()["ddns-enabled"], "true", "DDNS stays off");
      // With update-time off (in the same call, then on the router) it moves nothing.
      const both = await callTool(session, "router_update_ip_cloud", {
        ddns_enabled: true,
        update_time: false,
      });
      assert.equal(both.isError, undefined, both.content[0].text);
      const again = await callTool(session, "router_update_ip_cloud", { ddns_enabled: true });
      assert.equal(again.isError, undefined, again.content[0].text);
      assert.deepEqual([cloud()["ddns-enabled"], cloud()["update-time"]], ["true", "false"]);
    });

    await t.step("once the change is committed, the clock is the operator's again", async () => {
      const c = await callTool(session, "router_commit_changes", { change_id: change });
      assert.equal(c.isError, undefined, c.content[0].text);
      const r = await callTool(session, "router_update_clock", {
        time_zone_name: "Europe/Riga",
      });
      assert.equal(r.isError, undefined, r.content[0].text);
    });
  } finally {
    await close();
  }
});

Deno.test("an import that defeats its revert job is reverted at once and says so", async (t) => {
  const { sim, session, close } = await lab();
  const importing = (source: string) =>
    callTool(session, "router_import_script", {
      source: `${source}\n/ip address add address=10.9.9.1/24 interface=ether3\n`,
      confirm_within_seconds: 600,
      confirm: true,
    });
  try {
    for (
      const [what, source, why] of [
        ["removes the scheduler's jobs", "/system scheduler remove [find]", /is gone/],
        ["disables its job", "/system scheduler disable [find]", /was disabled/],
        ["sets the clock back", "/system clock set date=2020-01-01", /clock was moved back/],
      ] as const
    ) {
      await t.step(what, async () => {
        const r = await importing(source);
        assert.equal(r.isError, true, r.content[0].text);
        assert.match(r.content[0].text, /The import ran, but it would not revert by itself/);
        assert.match(r.content[0].text, why);
        assert.match(r.content[0].text, /The change was reverted\. The router loaded/);
        assert.ok(!hasAddress(sim), "the import is undone");
        assert.deepEqual(jobs(sim), []);
      });
      // A clock set back stays set back after the load (it is not configuration).
      sim.run(`/system clock set date=${new Date().toISOString().slice(0, 10)}`);
    }

    await t.step("removes the backup its revert loads: says it cannot be reverted", async () => {
      const r = await importing('/file remove [find where name~"^mcp-revert"]');
      assert.equal(r.isError, true, r.content[0].text);
      assert.match(
        r.content[0].text,
        /the script removed mcp-revert-[0-9a-f]{12}\.backup, the backup its revert loads: the router cannot revert it by itself and this server cannot either/,
      );
    });
  } finally {
    await close();
  }
});

Deno.test("an import's diff shows the removal of another change's revert job", async () => {
  const { sim, session, close } = await lab();
  try {
    const applied = await callTool(session, "router_apply_changes", {
      operations: [{ tool: "router_add_ip_address", arguments: ADDRESS }],
      confirm_within_seconds: 600,
      confirm: true,
    });
    assert.equal(applied.isError, undefined, applied.content[0].text);
    const other = (applied.structuredContent as { job: string }).job;
    const r = await callTool(session, "router_import_script", {
      source: `/system scheduler remove [find where name="${other}"]\n`,
      confirm_within_seconds: 600,
      confirm: true,
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    const { changes, job } = r.structuredContent as { changes: string; job: string };
    assert.match(changes, new RegExp(`name=${other}`), `the diff hides it: ${changes}`);
    assert.doesNotMatch(changes, new RegExp(job), "the import's own job is no change of it");
    assert.match(r.content[0].text, /1 removed/);
    assert.doesNotMatch(changes, /password="[^*]/, "the revert jobs' backup passwords are masked");
    assert.deepEqual(jobs(sim), [job]);
  } finally {
    await close();
  }
});

Deno.test("the backup a pending import's revert loads is neither removed nor replaced", async () => {
  const { sim, session, close } = await lab();
  try {
    const imported = await callTool(session, "router_import_script", {
      source: "/ip address\nadd address=10.63.0.1/24 interface=ether2\n",
      confirm_within_seconds: 600,
      confirm: true,
    });
    assert.equal(imported.isError, undefined, imported.content[0].text);
    const { backup, change_id: change } = imported.structuredContent as {
      backup: string;
      change_id: string;
    };
    const file = () => sim.items("/file").find((f) => f.name === backup);
    assert.ok(file(), `${backup} is on the router`);
    for (
      const [tool, args] of [
        ["router_remove_file", { name: backup, confirm: true }],
        ["router_remove_file", { id: file()![".id"], confirm: true }],
        ["router_remove_file", { name: backup, dry_run: true }],
        ["router_upload_file", { name: backup, contents: "x", overwrite: true }],
      ] as const
    ) {
      const r = await callTool(session, tool, args) as Awaited<ReturnType<typeof callTool>> & {
        _meta?: Record<string, unknown>;
      };
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.content[0].text}`);
      assert.match(
        r.content[0].text,
        new RegExp(
          `${tool} would (remove|replace) ${backup}, the backup that the revert job of change ` +
            `${change} loads, while change ${change} waits for router_commit_changes.*` +
            "Commit it .*or roll it back first.*Nothing was sent",
        ),
      );
      // What the REST proxy answers 409 pending_change.
      assert.deepEqual(r._meta?.[REFUSAL_META_KEY], { kind: "pending-change" });
      assert.ok(file(), `${backup} is still there`);
    }
    // Another file is removed as before.
    sim.run('/file add name="notes.txt" contents="x"');
    const other = await callTool(session, "router_remove_file", {
      name: "notes.txt",
      confirm: true,
    });
    assert.equal(other.isError, undefined, other.content[0].text);
    // Settled by a commit, which removes the backup with the job.
    const committed = await callTool(session, "router_commit_changes", { change_id: change });
    assert.equal(committed.isError, undefined, committed.content[0].text);
    assert.equal(file(), undefined);
  } finally {
    await close();
  }
});
