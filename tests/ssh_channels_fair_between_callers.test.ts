/**
 * Hostile re-test 2 (issue 31): the first re-test found that a read key
 * could take every MCP session from an admin, and sessions are now shared
 * fairly between principals. The SSH connection behind them is not: each
 * device has one connection with `--max-channels` (4) exec channels, and
 * every call of every principal waits for one in arrival order. A `read`
 * key that keeps a few long reads running (router_torch runs up to 20 s;
 * `router_print` of a large table, a traceroute, an IP scan alike) holds
 * every channel, and the admin's calls queue behind it until they time out:
 * `router_commit_changes` of a pending change included (the router then
 * reverts it), or the `router_rollback_changes` an operator needs now.
 *
 * Over streamable-http with the test keys; the simulator runs torch at a
 * quarter of its time (a 20 s torch holds its channel 5 s). Fails on main:
 * the admin's one-line read waits for the reader's queue.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

Deno.test("hostile2: a read key's long reads do not starve an admin's calls on a device", async () => {
  const sim = await startSimulator({ version: "7.16.2", timeScale: 0.25 });
  const srv = await startAuthServer(sim);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const running: Promise<unknown>[] = [];
  try {
    const warm = await admin.callTool({ name: "router_get_identity", arguments: { device: "r1" } });
    assert.equal(warm.isError, undefined, textOf(warm));
    for (let i = 0; i < 12; i++) {
      running.push(
        reader.callTool(
          {
            name: "router_torch",
            arguments: { device: "r1", interface: "bridge", duration_s: 20 },
          },
          undefined,
          { timeout: 120_000 },
        ).catch(() => {}),
      );
    }
    await new Promise((ok) => setTimeout(ok, 500));
    const started = performance.now();
    const answered = await Promise.race([
      admin.callTool({ name: "router_get_identity", arguments: { device: "r1" } }).then(() =>
        performance.now() - started
      ),
      new Promise<number>((ok) => setTimeout(() => ok(Infinity), 4_000)),
    ]);
    assert.ok(
      answered < 4_000,
      "the admin's router_get_identity waited more than 4 s behind a read key's 12 torches " +
        "(every SSH channel of the device held by one principal)",
    );
  } finally {
    await reader.close().catch(() => {});
    await admin.close().catch(() => {});
    await srv.close();
    await sim.close();
    await Promise.all(running);
  }
});
