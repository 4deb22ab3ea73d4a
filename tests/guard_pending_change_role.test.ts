/**
 * Committing or rolling back a pending change needs the role that made it
 * (found by the second hostile re-test of issue 31: an operate key rolled
 * back an admin's import, and its rollback loads a backup, which reboots
 * the router). `router_import_script` is admin, so its change is too; a
 * change of `router_apply_changes` whose operations needed admin (a user
 * added) says so in its revert job's comment and is admin's as well; an
 * operate key still commits and rolls back its own changes.
 *
 * Over streamable-http with the test keys.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

const changeOf = (r: unknown) =>
  (r as { structuredContent: { change_id: string } })
    .structuredContent.change_id;

Deno.test("a pending change is committed or rolled back only by the role that made it", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const jobs = () => sim.items("/system/scheduler").map((j) => j.name);
  try {
    await t.step("an admin's import: refused to an operate key, dry run included", async () => {
      const imported = await admin.callTool({
        name: "router_import_script",
        arguments: {
          device: "r1",
          source: "/ip address add address=10.9.9.1/24 interface=ether3\n",
          confirm_within_seconds: 600,
          confirm: true,
        },
      });
      assert.equal(imported.isError, undefined, textOf(imported));
      const change = changeOf(imported);
      const reboot = await operator.callTool({
        name: "router_reboot",
        arguments: { device: "r1" },
      });
      assert.equal(reboot.isError, true, "control: an operate key may not reboot");
      for (
        const [name, extra] of [
          ["router_rollback_changes", { confirm: true }],
          ["router_rollback_changes", { dry_run: true }],
          ["router_commit_changes", {}],
        ] as const
      ) {
        const r = await operator.callTool({
          name,
          arguments: { device: "r1", change_id: change, ...extra },
        });
        assert.equal(r.isError, true, `${name} by an operate key: ${textOf(r).slice(0, 160)}`);
        assert.match(
          textOf(r),
          new RegExp(
            `an import by router_import_script .*needs the admin role; "key:operator" has operate\\. ` +
              "Nothing was sent",
          ),
        );
      }
      assert.ok(jobs().includes(`mcp-revert-${change}`), "the job is still armed");
      const committed = await admin.callTool({
        name: "router_commit_changes",
        arguments: { device: "r1", change_id: change },
      });
      assert.equal(committed.isError, undefined, textOf(committed));
    });

    await t.step("an apply whose operations needed admin is admin's to commit", async () => {
      const applied = await admin.callTool({
        name: "router_apply_changes",
        arguments: {
          device: "r1",
          confirm: true,
          operations: [{
            tool: "router_add_user",
            arguments: { name: "nested", group: "read", password: "Nested-Pass-1" },
          }],
        },
      });
      assert.equal(applied.isError, undefined, textOf(applied));
      const change = changeOf(applied);
      const r = await operator.callTool({
        name: "router_rollback_changes",
        arguments: { device: "r1", change_id: change, confirm: true },
      });
      assert.equal(r.isError, true, textOf(r));
      assert.match(textOf(r), /whose operations needed the admin role, which needs the admin/);
      assert.ok(sim.items("/user").some((u) => u.name === "nested"), "the user stays");
      const rolled = await admin.callTool({
        name: "router_rollback_changes",
        arguments: { device: "r1", change_id: change, confirm: true },
      });
      assert.equal(rolled.isError, undefined, textOf(rolled));
      assert.ok(!sim.items("/user").some((u) => u.name === "nested"));
    });

    await t.step("an operate key commits its own change", async () => {
      const applied = await operator.callTool({
        name: "router_apply_changes",
        arguments: {
          device: "r1",
          confirm: true,
          operations: [{
            tool: "router_add_ip_address",
            arguments: { address: "10.9.8.1/24", interface: "ether4" },
          }],
        },
      });
      assert.equal(applied.isError, undefined, textOf(applied));
      const r = await operator.callTool({
        name: "router_commit_changes",
        arguments: { device: "r1", change_id: changeOf(applied) },
      });
      assert.equal(r.isError, undefined, textOf(r));
    });
  } finally {
    await admin.close();
    await operator.close();
    await srv.close();
    await sim.close();
  }
});
