/**
 * Keepalive: a busy connection stays up on its pings' answers, and a
 * router that stops answering (its link gone without a FIN or a reset) is
 * dropped after three unanswered pings, so the next command goes on a new
 * connection instead of waiting out its timeout on the dead one. The
 * connection runs through a relay that can freeze the connections it
 * carries; commands go through the pool, over real SSH to the simulator.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

const KEEPALIVE_MS = 150;

/** A loopback TCP relay to `port`; `freeze()` stops moving bytes on the connections open now. */
async function startRelay(port: number) {
  const open = new Set<{ frozen: boolean; sockets: net.Socket[] }>();
  const server = net.createServer((down) => {
    const up = net.connect({ host: "127.0.0.1", port });
    const link = { frozen: false, sockets: [down, up] };
    open.add(link);
    down.on("data", (d) => link.frozen || up.write(d));
    up.on("data", (d) => link.frozen || down.write(d));
    const end = () => {
      open.delete(link);
      down.destroy();
      up.destroy();
    };
    down.on("close", end).on("error", end);
    up.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => open.size,
    freeze: () => open.forEach((l) => (l.frozen = true)),
    close: async () => {
      open.forEach((l) => l.sockets.forEach((s) => s.destroy()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name:
    "ssh keepalive: pings keep a busy connection up; a router gone silent is dropped after three",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sim = await startSimulator();
    const relay = await startRelay(sim.port);
    const pool = new SshPool({ hostKeyPolicy: "off", keepaliveMs: KEEPALIVE_MS });
    const target: SshTarget = {
      title: "R1",
      host: "127.0.0.1",
      port: relay.port,
      username: "admin",
      password: "",
      connectTimeoutMs: 5_000,
      commandTimeoutMs: 5_000,
    };
    const read = () => pool.exec(target, "/system identity print", { idempotent: true, what: "t" });
    try {
      const first = await read();
      // Busy for eight keepalive intervals: the pings are answered, the connection stays.
      const until = performance.now() + 8 * KEEPALIVE_MS;
      while (performance.now() < until) {
        assert.equal((await read()).connectionId, first.connectionId);
        await sleep(10);
      }
      assert.equal(pool.connectionId("R1"), first.connectionId);
      // The link freezes: no byte moves either way, and nothing closes.
      relay.freeze();
      const frozenAt = performance.now();
      while (pool.connectionId("R1") !== undefined && performance.now() - frozenAt < 5_000) {
        await sleep(25);
      }
      const noticedMs = performance.now() - frozenAt;
      assert.equal(pool.connectionId("R1"), undefined, "the silent connection was not dropped");
      assert.ok(noticedMs >= 2 * KEEPALIVE_MS, `dropped after only ${noticedMs.toFixed(0)} ms`);
      // The next command goes on a new connection, at once.
      const t0 = performance.now();
      const next = await read();
      assert.notEqual(next.connectionId, first.connectionId);
      assert.match(next.output, /name: /);
      assert.ok(performance.now() - t0 < 2_000, "the command waited on the dead connection");
    } finally {
      await pool.close();
      await relay.close();
      await sim.close();
    }
  },
});
