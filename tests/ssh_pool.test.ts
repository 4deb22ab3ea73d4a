/**
 * The SSH pool used directly, for what MCP calls cannot show: how many
 * channels run at once, the pre-opened channel and its fallback when the
 * server closes idle channels, idle close, reconnection after a drop, the
 * output cap, the bounded dialer, and close().
 */
import assert from "node:assert/strict";
import { type SimRouter, startFleet, startSimulator } from "../lib/sim/mod.ts";
import { decodeOutput } from "../lib/ssh/decode.ts";
import { SshError } from "../lib/ssh/errors.ts";
import { type PoolOptions, SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

const IDENTITY = "/system identity print";
const read = { idempotent: true, what: "/system/identity" };

function targetOf(sim: SimRouter, title = "R1", extra: Partial<SshTarget> = {}): SshTarget {
  return {
    title,
    host: sim.host,
    port: sim.port,
    username: "admin",
    password: "",
    connectTimeoutMs: 5000,
    commandTimeoutMs: 5000,
    ...extra,
  };
}

function newPool(options: Partial<PoolOptions> = {}): SshPool {
  return new SshPool({ hostKeyPolicy: "off", ...options });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("pool: parallel calls share one connection, up to the channel limit", async () => {
  const sim = await startSimulator({ faults: { latencyMs: 100 } });
  const pool = newPool({ maxChannels: 4 });
  try {
    const target = targetOf(sim);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => pool.exec(target, IDENTITY, read)),
    );
    for (const r of results) assert.match(r.output, /name: MikroTik/);
    assert.equal(new Set(results.map((r) => r.connectionId)).size, 1);
    const stats = pool.stats("R1")!;
    // One of the four is kept for urgent commands (tests/ssh_channels_fair_between_callers.test.ts).
    assert.equal(stats.peakActive, 3, "three channels at once, never more");
    assert.equal(stats.active, 0);
    assert.equal(stats.queued, 0);
    assert.equal(sim.counters.connections, 1);
    assert.equal(sim.counters.execChannels, 10);
    assert.ok(sim.counters.sessionChannels <= 11, "at most one spare channel beyond the execs");
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: every sequential call runs on a pre-opened channel", async () => {
  const sim = await startSimulator();
  const pool = newPool();
  try {
    for (let i = 0; i < 5; i++) await pool.exec(targetOf(sim), IDENTITY, read);
    const stats = pool.stats("R1")!;
    assert.equal(stats.preopenedUsed, 5);
    assert.equal(stats.freshChannels, 0);
    assert.equal(sim.counters.sessionChannels, 6, "five used, one waiting");
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: a server that closes idle channels gets fresh ones", async () => {
  const sim = await startSimulator({ faults: { closeIdleSessionChannels: true } });
  const pool = newPool();
  try {
    for (let i = 0; i < 5; i++) {
      const r = await pool.exec(targetOf(sim), IDENTITY, read);
      assert.match(r.output, /name: MikroTik/);
      await sleep(200); // the simulator closes a channel idle for 100 ms
    }
    const stats = pool.stats("R1")!;
    assert.ok(stats.sparesClosedByServer >= 3, JSON.stringify(stats));
    assert.equal(stats.preopen, false, "pre-opening stops after three closed spares");
    assert.ok(stats.freshChannels >= 4, JSON.stringify(stats));
    assert.equal(sim.counters.connections, 1, "the connection itself is kept");
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: idle connections close, and the next call reconnects", async () => {
  const sim = await startSimulator();
  const pool = newPool({ idleTimeoutMs: 100 });
  try {
    const first = await pool.exec(targetOf(sim), IDENTITY, read);
    assert.ok(pool.isConnected("R1"));
    for (let i = 0; i < 50 && pool.isConnected("R1"); i++) await sleep(20);
    assert.equal(pool.isConnected("R1"), false);
    const second = await pool.exec(targetOf(sim), IDENTITY, read);
    assert.notEqual(second.connectionId, first.connectionId);
    assert.equal(sim.counters.connections, 2);
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: a connection dropped while idle is detected and reopened", async () => {
  let sim = await startSimulator();
  const port = sim.port;
  const pool = newPool();
  try {
    const first = await pool.exec(targetOf(sim), IDENTITY, read);
    await sim.close(); // the router goes away: every socket is destroyed
    for (let i = 0; i < 50 && pool.isConnected("R1"); i++) await sleep(20);
    assert.equal(pool.isConnected("R1"), false, "the drop is noticed without a call");
    sim = await startSimulator({ port });
    const second = await pool.exec(targetOf(sim), IDENTITY, { idempotent: false, what: "x" });
    assert.match(second.output, /name: MikroTik/);
    assert.notEqual(second.connectionId, first.connectionId);
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: output beyond the cap fails clearly; the connection stays usable", async () => {
  const sim = await startSimulator();
  const pool = newPool({ maxOutputBytes: 1024 });
  try {
    await assert.rejects(
      pool.exec(targetOf(sim), "/export", { idempotent: true, what: "/export" }),
      (err: unknown) => {
        assert.ok(err instanceof SshError);
        assert.equal(err.kind, "output-too-large");
        assert.match(err.message, /device "R1" \(127\.0\.0\.1:\d+\): the output of \/export/);
        assert.match(err.message, /exceeded 1024 bytes \(--max-output\)/);
        return true;
      },
    );
    const r = await pool.exec(targetOf(sim), IDENTITY, read);
    assert.match(r.output, /name: MikroTik/);
    assert.equal(sim.counters.connections, 1);
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: a call waiting for a busy channel gives up after the timeout", async () => {
  const sim = await startSimulator({ faults: { hang: /hang-me/ } });
  const pool = newPool({ maxChannels: 1 });
  try {
    const target = targetOf(sim, "R1", { commandTimeoutMs: 300 });
    const [hung, queued] = await Promise.allSettled([
      pool.exec(target, ':put "hang-me"', read),
      pool.exec(target, IDENTITY, read),
    ]);
    assert.equal(hung.status, "rejected");
    assert.equal(((hung as PromiseRejectedResult).reason as SshError).kind, "timeout");
    assert.equal(queued.status, "rejected");
    const err = (queued as PromiseRejectedResult).reason as SshError;
    assert.equal(err.kind, "channel-limit");
    assert.match(err.message, /all 1 channels stayed busy for 0\.3 s.*was not sent/);
    const r = await pool.exec(target, IDENTITY, read);
    assert.match(r.output, /name: MikroTik/);
  } finally {
    await pool.close();
    await sim.close();
  }
});

Deno.test("pool: the dialer bounds handshakes and a slow one blocks no other", async () => {
  const slow = await startSimulator({ faults: { slowHandshakeMs: 600 } });
  const fleet = await startFleet(6);
  const pool = newPool({ maxDialing: 3 });
  try {
    const finished: string[] = [];
    const targets = [targetOf(slow, "slow"), ...fleet.map((s, i) => targetOf(s, `fast${i}`))];
    await Promise.all(targets.map(async (t) => {
      await pool.exec(t, IDENTITY, read);
      finished.push(t.title);
    }));
    assert.equal(finished.length, 7);
    assert.equal(finished.at(-1), "slow", "the fast devices did not wait for the slow one");
    assert.equal(pool.dialerStats().peak, 3, "never more than three handshakes at once");
    assert.equal(pool.dialerStats().inFlight, 0);
  } finally {
    await pool.close();
    await slow.close();
    await Promise.all(fleet.map((s) => s.close()));
  }
});

Deno.test("pool: close() ends every connection, and later calls fail clearly", async () => {
  const sim = await startSimulator();
  const pool = newPool();
  await pool.exec(targetOf(sim), IDENTITY, read);
  await pool.close();
  assert.equal(pool.isConnected("R1"), false);
  await assert.rejects(pool.exec(targetOf(sim), IDENTITY, read), /shutting down/);
  await sim.close();
});

Deno.test("pool: close() aborts a connection still in its handshake", async () => {
  const sim = await startSimulator({ faults: { slowHandshakeMs: 30_000 } });
  const pool = newPool();
  try {
    const pending = pool.exec(targetOf(sim, "R1", { connectTimeoutMs: 20_000 }), IDENTITY, read);
    const outcome = pending.then(() => "connected", (err: Error) => err.message);
    for (let i = 0; i < 100 && pool.dialerStats().inFlight === 0; i++) await sleep(10);
    assert.equal(pool.dialerStats().inFlight, 1);
    await pool.close();
    assert.match(await outcome, /device "R1" .*: the server is shutting down/);
  } finally {
    await sim.close();
  }
});

Deno.test("decodeOutput: UTF-8, invalid bytes as Latin-1, CRLF normalised", () => {
  const enc = new TextEncoder();
  assert.equal(decodeOutput([enc.encode("a\r\nb\r\n")]), "a\nb\n");
  assert.equal(decodeOutput([enc.encode("lone\rCR\n")]), "lone\rCR\n");
  // "café" split inside the two-byte é across chunks still decodes.
  const cafe = enc.encode("café ✅");
  assert.equal(decodeOutput([cafe.subarray(0, 4), cafe.subarray(4)]), "café ✅");
  // 0xE9 alone is not UTF-8: kept as Latin-1 é, and the valid rest stays UTF-8.
  const mixed = new Uint8Array([
    0x74,
    0xe9,
    0x74,
    0xe9,
    0x20,
    ...enc.encode("✅"),
    0xff,
    0x0d,
    0x0a,
  ]);
  assert.equal(decodeOutput([mixed]), "tété ✅ÿ\n");
  // Overlong and surrogate encodings are invalid too.
  assert.equal(decodeOutput([new Uint8Array([0xc0, 0xaf, 0xed, 0xa0, 0x80])]), "À¯í\u00a0\u0080");
  assert.equal(decodeOutput([]), "");
});
