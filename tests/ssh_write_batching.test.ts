/**
 * What ssh2 writes in one tick leaves as one socket write, and the answer to
 * the router's channel close rides with the next exec request
 * (`close_replies.ts`): back-to-back execs on a warm connection cost one
 * write each (the earlier close, the exec request, the next pre-opened
 * channel), not the nine ssh2 makes on its own (three per AES-GCM packet,
 * the close on its own); with no command after it, the close leaves on its
 * own shortly after. Counted where Node's stream hands data to the socket
 * (`_write` / `_writev`), for the product's sockets only.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startSimulator } from "../lib/sim/mod.ts";
import { CLOSE_REPLY_MS } from "../lib/ssh/close_replies.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

type WriteFn = (this: net.Socket, ...args: unknown[]) => unknown;

Deno.test("write batching: back-to-back execs are one socket write each, a lone close follows", async () => {
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
  const settle = () => new Promise((resolve) => setTimeout(resolve, CLOSE_REPLY_MS + 50));
  try {
    for (let i = 0; i < 3; i++) await run();
    await settle();
    writes = 0;
    const execs = 20;
    for (let i = 0; i < execs; i++) assert.equal((await run()).output.trim(), "ok");
    await settle();
    assert.equal(pool.stats("R1")?.preopenedUsed, execs + 3, "every exec on a pre-opened channel");
    // The last close answer left on its own once no command followed it.
    assert.equal(writes, execs + 1, `socket writes for ${execs} execs: ${writes}`);
    writes = 0;
    await run();
    let first = 0;
    await new Promise<void>((resolve) =>
      queueMicrotask(() => {
        first = writes;
        resolve();
      })
    );
    assert.equal(first, 1, "the exec request and the next channel's open: one write");
    await settle();
    assert.equal(writes, 2, "then the close answer, on its own");
  } finally {
    Object.assign(proto, original);
    await pool.close();
    await sim.close();
  }
});
