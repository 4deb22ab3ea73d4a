/**
 * Live monitoring through an MCP client against the simulator: sampling
 * traffic and resources for a bounded time with one progress notification
 * per sample and a min/mean/max summary (RouterOS 6 prints memory with
 * units, 7 in bytes: both come back as bytes), and following the log with
 * a cursor.
 */
import assert from "node:assert/strict";
import { ProgressNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { connectInProcess } from "./helpers/in_process.ts";
import { callTool } from "./helpers/mcp.ts";
import { quantity } from "../lib/tools/operations/monitor.ts";

Deno.test("quantity: RouterOS numbers with units", () => {
  assert.equal(quantity("5"), 5);
  assert.equal(quantity("12%"), 12);
  assert.equal(quantity("30.5MiB"), 30.5 * 1024 * 1024);
  assert.equal(quantity(1024), 1024);
  assert.equal(quantity("fast"), undefined);
});

for (const version of ["7.16.2", "6.49.13"]) {
  Deno.test(`monitor on ${version}: samples, progress per sample, summary per counter`, async () => {
    const sim = await startSimulator({ version });
    const session = await connectInProcess(sim);
    try {
      const progress: number[] = [];
      session.client.setNotificationHandler(
        ProgressNotificationSchema,
        (n: { params: { progress: number } }) => {
          progress.push(n.params.progress);
        },
      );
      const r = await session.client.callTool(
        {
          name: "router_monitor",
          arguments: { interfaces: ["ether1", "bridge"], resources: true, seconds: 3 },
        },
        undefined,
        { onprogress: () => {} },
      ) as {
        structuredContent: Record<string, unknown>;
        isError?: boolean;
        content: { text: string }[];
      };
      assert.equal(r.isError, undefined, r.content[0].text);
      const out = r.structuredContent as {
        samples: number;
        seconds: number;
        stopped_early: boolean;
        counters: { counter: string; min: number; mean: number; max: number; last: number }[];
      };
      assert.equal(out.samples, 3);
      assert.equal(out.stopped_early, false);
      assert.ok(out.seconds >= 1.9 && out.seconds < 10, String(out.seconds));
      const names = out.counters.map((c) => c.counter);
      for (const c of ["ether1 rx_bits_per_second", "bridge tx_packets_per_second", "cpu_load"]) {
        assert.ok(names.includes(c), `${c} in ${names.join(", ")}`);
      }
      for (const c of out.counters) assert.ok(c.min <= c.mean && c.mean <= c.max, c.counter);
      const memory = out.counters.find((c) => c.counter === "free_memory")!;
      assert.ok(memory.min > 1024 * 1024, `free memory in bytes: ${memory.min}`);
      await new Promise((res) => setTimeout(res, 50));
      assert.deepEqual(progress, [1, 2, 3]);

      const bad = await callTool(session, "router_monitor", { seconds: 601 });
      assert.equal(bad.isError, true, "bounded by time");
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

Deno.test("logs: follow with a cursor, oldest first, none skipped", async () => {
  const sim = await startSimulator();
  const session = await connectInProcess(sim);
  try {
    const first = await callTool(session, "router_get_logs", {});
    const cursor = first.structuredContent!.cursor as string;
    assert.match(cursor, /^\*[0-9A-F]+$/);
    for (let i = 1; i <= 5; i++) sim.run(`:log info "follow-me ${i}"`);
    const mine = (r: Awaited<ReturnType<typeof callTool>>) =>
      (r.structuredContent!.items as { message: string }[]).map((i) => i.message)
        .filter((m) => m.startsWith("follow-me"));
    const page1 = await callTool(session, "router_get_logs", {
      after: cursor,
      text: "follow-me",
      limit: 3,
    });
    assert.deepEqual(mine(page1), ["follow-me 1", "follow-me 2", "follow-me 3"]);
    assert.equal(page1.structuredContent!.truncated, true);
    const page2 = await callTool(session, "router_get_logs", {
      after: page1.structuredContent!.cursor,
      text: "follow-me",
      limit: 3,
    });
    assert.deepEqual(mine(page2), ["follow-me 4", "follow-me 5"]);
    const page3 = await callTool(session, "router_get_logs", {
      after: page2.structuredContent!.cursor,
      text: "follow-me",
    });
    assert.deepEqual(mine(page3), []);
    assert.equal(page3.structuredContent!.cursor, page2.structuredContent!.cursor, "cursor stays");
  } finally {
    await session.close();
    await sim.close();
  }
});
