/**
 * Exec channels are torn down without calling `end()` on a stream that has
 * already ended: ssh2's `Channel.destroy` does so, and Node's streams call
 * it by themselves once a channel has ended both ways, which built (and
 * dropped) an `ERR_STREAM_ALREADY_FINISHED` error with its stack on every
 * exec. Counted by wrapping the streams' `end()` for the test's duration.
 */
import assert from "node:assert/strict";
import { Duplex } from "node:stream";
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

Deno.test({
  name: "teardown: no end() on an already ended exec channel, pre-opened or not",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sim = await startSimulator();
    const target: SshTarget = {
      title: "R1",
      host: sim.host,
      port: sim.port,
      username: "admin",
      password: "",
      connectTimeoutMs: 10_000,
      commandTimeoutMs: 10_000,
    };
    const end = Duplex.prototype.end;
    let calls = 0;
    let redundant = 0;
    Duplex.prototype.end = function (this: Duplex, ...args: unknown[]) {
      // Client channels of ssh2 only (the simulator's are server channels).
      if ((this as { server?: boolean }).server === false) {
        calls++;
        if (this.writableEnded) redundant++;
      }
      return (end as (...a: unknown[]) => Duplex).apply(this, args);
    } as typeof end;
    try {
      for (const preopen of [true, false]) {
        const pool = new SshPool({ hostKeyPolicy: "off", preopen });
        try {
          for (let i = 0; i < 10; i++) {
            const r = await pool.exec(target, ":put ok", { idempotent: true, what: "test" });
            assert.equal(r.output, "ok\n");
          }
          // Let the channels' close and autoDestroy run.
          await new Promise((resolve) => setTimeout(resolve, 50));
        } finally {
          await pool.close();
        }
      }
      assert.ok(
        calls >= 20,
        `expected the channels to be ended once each, saw ${calls} end() calls`,
      );
      assert.equal(redundant, 0, `${redundant} end() calls on already ended exec channels`);
    } finally {
      Duplex.prototype.end = end;
      await sim.close();
    }
  },
});
