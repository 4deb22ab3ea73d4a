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
 * Now the channels are shared fairly between callers (lib/ssh/channel_slots.ts):
 * one caller holds at most `--max-channels` - 2 of a device's channels, one
 * channel is kept for urgent commands (the commit and rollback of a
 * pending change), and waiting callers are served in turn.
 *
 * Hostile re-test 3 found a way around it: a client names a principal in a
 * `tools/call`'s `_meta`, and a name starting with `anonymous:` made
 * `<inner> (via <outer>)` count per MCP session, so a read key with two
 * sessions held every ordinary channel again. The transport's principal is
 * now the share key (and the audit subject), the `_meta` name only a label,
 * and "anonymous" is a mark the transport sets, not a name's shape: half of
 * the reader's torches below come from a second session naming one.
 *
 * Over streamable-http with the test keys; the simulator runs torch at a
 * quarter of its time (a 20 s torch holds its channel 5 s). Failed before
 * the fix: the admin's one-line read waited for the reader's queue, and
 * (second test, without the kept channel) the commit for the others'.
 */
import assert from "node:assert/strict";
import { PRINCIPAL_META_KEY } from "../lib/auth/principal.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";

Deno.test("hostile2: a read key's long reads do not starve an admin's calls on a device", async () => {
  const sim = await startSimulator({ version: "7.16.2", timeScale: 0.25 });
  const srv = await startAuthServer(sim);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const second = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const running: Promise<unknown>[] = [];
  const anonymous = { [PRINCIPAL_META_KEY]: { name: "anonymous:203.0.113.9", role: "read" } };
  try {
    const warm = await admin.callTool({ name: "router_get_identity", arguments: { device: "r1" } });
    assert.equal(warm.isError, undefined, textOf(warm));
    for (let i = 0; i < 12; i++) {
      running.push(
        (i % 2 ? second : reader).callTool(
          {
            name: "router_torch",
            arguments: { device: "r1", interface: "bridge", duration_s: 20 },
            ...(i % 2 ? { _meta: anonymous } : {}),
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
    for (const c of [reader, second, admin]) await c.close().catch(() => {});
    await srv.close();
    await sim.close();
    await Promise.all(running);
  }
});

Deno.test("the commit of a pending change does not wait behind every ordinary channel", async () => {
  const sim = await startSimulator({ version: "7.16.2", timeScale: 0.25 });
  const srv = await startAuthServer(sim);
  const reader = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.reader);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const running: Promise<unknown>[] = [];
  const torch = (client: typeof reader) =>
    running.push(
      client.callTool(
        { name: "router_torch", arguments: { device: "r1", interface: "bridge", duration_s: 20 } },
        undefined,
        { timeout: 120_000 },
      ).catch(() => {}),
    );
  try {
    const applied = await admin.callTool({
      name: "router_apply_changes",
      arguments: {
        device: "r1",
        confirm: true,
        confirm_within_seconds: 600,
        operations: [{
          tool: "router_add_ip_address",
          arguments: { address: "10.99.0.1/24", interface: "bridge" },
        }],
      },
    });
    assert.equal(applied.isError, undefined, textOf(applied));
    const changeId = (applied.structuredContent as { change_id: string }).change_id;
    // The reader takes its share (2 of 4), the operator the last ordinary channel.
    for (let i = 0; i < 12; i++) torch(reader);
    for (let i = 0; i < 4; i++) torch(operator);
    await new Promise((ok) => setTimeout(ok, 500));
    const started = performance.now();
    const committed = await Promise.race([
      admin.callTool({
        name: "router_commit_changes",
        arguments: { device: "r1", change_id: changeId },
      })
        .then((r) => ({ r, ms: performance.now() - started })),
      new Promise<undefined>((ok) => setTimeout(() => ok(undefined), 4_000)),
    ]);
    assert.ok(committed, "router_commit_changes waited more than 4 s behind long reads");
    assert.equal(committed.r.isError, undefined, textOf(committed.r));
  } finally {
    for (const c of [reader, operator, admin]) await c.close().catch(() => {});
    await srv.close();
    await sim.close();
    await Promise.all(running);
  }
});
