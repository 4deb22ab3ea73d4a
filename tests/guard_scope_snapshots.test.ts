/**
 * The snapshot tools act on no one device (`perDevice: false`) but read the
 * local store that holds every device's snapshots: a key scoped to some
 * devices lists, compares and prunes only those devices' snapshots. Each
 * snapshot a call loads is held to the caller's scope by the scope guard
 * itself (`router_diff_config`, `router_fleet_drift` with a snapshot as
 * baseline); lists and prunes see only the devices in scope.
 *
 * Over streamable-http with the `lab` key (operate, tag lab: only r1); the
 * admin key takes snapshots of r1 and r2.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

Deno.test("guard: a scoped key sees and deletes only its own devices' snapshots", async (t) => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const lab = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.lab);
  try {
    // r1 and r2 are one simulator here: r2's snapshot is taken after a change
    // only r2's operators should see.
    const ids: Record<string, string> = {};
    for (const device of ["r1", "r2"]) {
      if (device === "r2") {
        await admin.callTool({
          name: "router_update_identity",
          arguments: { device: "r2", name: "prod-core-secret-site" },
        });
      }
      const r = await admin.callTool({ name: "router_snapshot_config", arguments: { device } });
      assert.notEqual(r.isError, true, textOf(r));
      ids[device] = (r.structuredContent as { snapshot: { id: string } }).snapshot.id;
    }

    await t.step("list: r2's snapshots are not listed", async () => {
      const r = await lab.callTool({ name: "router_list_snapshots", arguments: {} });
      const items = (r.structuredContent as { items?: { device: string }[] }).items ?? [];
      const listed = items.map((s) => s.device);
      assert.deepEqual(listed, ["r1"], `lab sees snapshots of ${listed.join(", ")}`);
      const r2 = await lab.callTool({ name: "router_list_snapshots", arguments: { device: "r2" } });
      assert.equal(r2.isError, true, "lab lists r2's snapshots by name");
    });

    await t.step("diff: r2's snapshot is refused", async () => {
      const r = await lab.callTool({
        name: "router_diff_config",
        arguments: { from: ids.r1, to: ids.r2 },
      });
      assert.doesNotMatch(
        textOf(r),
        /prod-core-secret-site/,
        "lab read r2's configuration through a diff",
      );
      assert.equal(r.isError, true);
      assert.match(textOf(r), /outside the devices "key:lab" may use/);
    });

    await t.step("drift: r2's snapshot as a baseline is refused", async () => {
      const r = await lab.callTool({
        name: "router_fleet_drift",
        arguments: { baseline: ids.r2 },
      });
      assert.equal(r.isError, true, textOf(r).slice(0, 200));
      assert.match(
        textOf(r),
        /router_fleet_drift: device "r2" is outside the devices "key:lab" may use/,
      );
      const own = await lab.callTool({ name: "router_diff_config", arguments: { from: ids.r1 } });
      assert.notEqual(own.isError, true, textOf(own));
    });

    await t.step("prune: r2's snapshots stay", async () => {
      const r = await lab.callTool({
        name: "router_prune_snapshots",
        arguments: { keep: 0, confirm: true },
      });
      const after = await admin.callTool({
        name: "router_list_snapshots",
        arguments: { device: "r2" },
      });
      const left = (after.structuredContent as { count: number }).count;
      assert.equal(left, 1, `lab deleted r2's snapshot: ${textOf(r)}`);
      assert.deepEqual((r.structuredContent as { removed: string[] }).removed, [ids.r1]);
    });
  } finally {
    await lab.close();
    await admin.close();
    await srv.close();
    await sim.close();
  }
});
