/**
 * What ssh2 writes in one tick leaves as one socket write: an exec on a
 * warm connection (exec request; then the channel close with the next
 * pre-opened channel) costs two writes, not the nine ssh2 makes on its own
 * (three per AES-GCM packet). Counted where Node's stream hands data to the
 * socket (`_write` / `_writev`), for the product's sockets only.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

type WriteFn = (this: net.Socket, ...args: unknown[]) => unknown;

Deno.test("write batching: an exec on a warm connection is two socket writes", async () => {
  const sim = await startSimulator();
  const pool = new SshPool({ hostKeyPolicy: "off" });
  const proto = net.Socket.prototype as unknown as Record<"_write" | "_writev", WriteFn>;
  const original = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  for (const name of ["_write", "_writev"] as const) {
    proto[name] = function (this: net.Socket, ...args: unknown[]) {
      if (this.remotePort === sim.port) writes++;
      return original[name].apply(this, args);
    };
  }
  const target: SshTarget = {
    title: "R1",
    host: sim.host,
    port: sim.port,
    username: "admin",
    password: "",
    connectTimeoutMs: 10_000,
    commandTimeoutMs: 10_000,
  };
  const run = () => pool.exec(target, ":put ok", { idempotent: true, what: "test" });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  try {
    for (let i = 0; i < 3; i++) await run();
    await settle();
    writes = 0;
    const execs = 20;
    for (let i = 0; i < execs; i++) assert.equal((await run()).output.trim(), "ok");
    await settle();
    assert.equal(pool.stats("R1")?.preopenedUsed, execs + 3, "every exec on a pre-opened channel");
    assert.equal(writes / execs, 2, `socket writes per exec: ${writes / execs}`);
  } finally {
    Object.assign(proto, original);
    await pool.close();
    await sim.close();
  }
});
