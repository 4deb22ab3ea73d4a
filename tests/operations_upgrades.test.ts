/**
 * Upgrades end to end through an MCP client against the simulator: the
 * update check, an upgrade from a 7.15 profile to 7.17 that reboots, comes
 * back, is re-detected (reads keep working and strings stay byte-exact
 * across the change of read dialect), confirm required; a failed upgrade;
 * and a rolling fleet upgrade that stops after the first failed device.
 */
import assert from "node:assert/strict";
import { ProgressNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { connectInProcess } from "./helpers/in_process.ts";
import { callTool, startRouters } from "./helpers/mcp.ts";

/** Routers up for an hour, as managed ones are (a router up under 2 s is waited for first). */
const UP = 3600;

/** A comment with quotes, a backslash, a dollar and non-ASCII text. */
const ODD = 'say "hi" \\ $x ümlaut';

Deno.test("upgrade 7.15.3 -> 7.17: check, confirm, reboot, re-detected dialect, byte-exact reads, health", async () => {
  const sim = await startSimulator({ version: "7.15.3", uptime: UP });
  const session = await connectInProcess(sim);
  try {
    const uptodate = await callTool(session, "router_check_updates", {});
    assert.equal(uptodate.structuredContent!.update_available, false);
    assert.equal(uptodate.structuredContent!.installed, "7.15.3");

    const added = await callTool(session, "router_add_ip_address", {
      address: "10.7.7.1/24",
      interface: "ether2",
      comment: ODD,
    });
    assert.equal(added.isError, undefined, added.content[0].text);

    sim.offerUpgrade("7.17");
    const check = await callTool(session, "router_check_updates", {});
    assert.deepEqual(check.structuredContent, {
      channel: "stable",
      installed: "7.15.3",
      latest: "7.17",
      status: "New version is available",
      update_available: true,
    });

    const refused = await callTool(session, "router_upgrade", {});
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /destructive.*confirm: true/s);
    assert.equal(sim.version, "7.15.3", "nothing installed without confirm");

    const wrong = await callTool(session, "router_upgrade", { confirm: true, version: "7.18" });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0].text, /offers 7\.17, not 7\.18/);

    // The router has been up a while: its uptime after the reboot must start again.
    await new Promise((res) => setTimeout(res, 2500));
    const progress: string[] = [];
    session.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { message?: string } }) => {
        progress.push(n.params.message ?? "");
      },
    );
    const r = await session.client.callTool(
      { name: "router_upgrade", arguments: { confirm: true, timeout_seconds: 60 } },
      undefined,
      { onprogress: () => {} },
    ) as {
      structuredContent: Record<string, unknown>;
      isError?: boolean;
      content: { text: string }[];
    };
    assert.equal(r.isError, undefined, r.content[0].text);
    assert.equal(r.structuredContent.before, "7.15.3");
    assert.equal(r.structuredContent.after, "7.17");
    assert.equal(r.structuredContent.upgraded, true);
    assert.deepEqual(r.structuredContent.health, { login: true, ping: {} });
    assert.equal(sim.version, "7.17");
    assert.equal(sim.counters.reboots, 1);
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(progress.map((m) => m.split(" ")[0]), [
      "installing",
      "waiting",
      "running",
      "done",
    ]);

    // Reads keep working on the new release (7.15 reads json-guarded, 7.17 plain JSON), byte-exact.
    const list = await callTool(session, "router_list_ip_addresses", {});
    assert.equal(list.isError, undefined, list.content[0].text);
    const items = list.structuredContent!.items as { address: string; comment?: string }[];
    assert.equal(items.find((i) => i.address === "10.7.7.1/24")?.comment, ODD);
    const after = await callTool(session, "router_check_updates", {});
    assert.equal(after.structuredContent!.installed, "7.17");
    assert.equal(after.structuredContent!.update_available, false);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("upgrade: a router that comes back on the old release fails the upgrade", async () => {
  const sim = await startSimulator({ version: "7.15.3", uptime: UP });
  const session = await connectInProcess(sim);
  try {
    sim.offerUpgrade("7.17", true);
    const r = await callTool(session, "router_upgrade", { confirm: true, timeout_seconds: 30 });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /upgrade of .* to 7\.17 failed: it came back running 7\.15\.3/);
    assert.equal(sim.counters.reboots, 1);
    assert.equal(sim.version, "7.15.3");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("fleet upgrade: rolling, one at a time, stops after the first failed device", async () => {
  const sims = await startRouters(4, { version: "7.15.3", uptime: UP });
  sims[0].offerUpgrade("7.17");
  sims[1].offerUpgrade("7.17", true);
  sims[2].offerUpgrade("7.17");
  sims[3].offerUpgrade("7.17");
  const inventory = sims.map((s, i) => ({ title: `R${i + 1}`, host: s.host, port: s.port }));
  const session = await connectInProcess(sims[0], { inventory: JSON.stringify(inventory) });
  try {
    const refused = await callTool(session, "router_fleet_upgrade", {});
    assert.equal(refused.isError, true, "destructive: confirm");
    // Progress is the fleet's own (one per batch): the nested upgrades report none of theirs.
    const progress: number[] = [];
    session.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { progress: number } }) => {
        progress.push(n.params.progress);
      },
    );
    const r = await session.client.callTool(
      { name: "router_fleet_upgrade", arguments: { confirm: true, timeout_seconds: 30 } },
      undefined,
      { onprogress: () => {} },
    ) as {
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
      content: { text: string }[];
    };
    assert.equal(r.isError, undefined, r.content[0].text);
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(progress, [1, 2]);
    const results = r.structuredContent!.results as { device: string; status: string }[];
    assert.deepEqual(results.map((x) => [x.device, x.status]), [
      ["R1", "upgraded"],
      ["R2", "failed"],
      ["R3", "skipped"],
      ["R4", "skipped"],
    ]);
    assert.equal(r.structuredContent!.stopped, true);
    assert.deepEqual(sims.map((s) => s.version), ["7.17", "7.15.3", "7.15.3", "7.15.3"]);
    assert.deepEqual(sims.map((s) => s.counters.reboots), [1, 1, 0, 0]);
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
  }
});
