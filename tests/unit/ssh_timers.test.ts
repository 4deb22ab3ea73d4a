/**
 * The SSH layer's timers: command deadlines on one timer (earliest first,
 * whatever order they were added in; a removed one never fires) and the
 * lazily moved idle close.
 */
import assert from "node:assert/strict";
import { Deadlines } from "../../lib/ssh/deadlines.ts";
import { IdleClose } from "../../lib/ssh/idle_close.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("deadlines: each fires once at its time, in deadline order; removed ones never", async () => {
  const d = new Deadlines();
  const fired: string[] = [];
  const t0 = performance.now();
  const at: Record<string, number> = {};
  const add = (name: string, ms: number) =>
    d.add(ms, () => {
      fired.push(name);
      at[name] = performance.now() - t0;
    });
  add("slow", 120);
  add("fast", 30); // earlier than the armed timer: re-armed
  const gone = add("removed", 60);
  add("mid", 80);
  d.remove(gone);
  await sleep(200);
  assert.deepEqual(fired, ["fast", "mid", "slow"]);
  assert.ok(at.fast >= 29 && at.mid >= 79 && at.slow >= 119, JSON.stringify(at));
  assert.equal(d.size, 0);
  // A finished command leaves the timer armed; nothing fires when it does.
  const done = add("done", 20);
  d.remove(done);
  await sleep(50);
  assert.deepEqual(fired, ["fast", "mid", "slow"]);
  d.clear();
});

Deno.test("idle close: after the idle time since the last use, never while busy or stopped", async () => {
  let busy = false;
  let closed = 0;
  const idle = new IdleClose(60, () => busy, () => closed++);
  idle.touch();
  await sleep(40);
  idle.touch(); // used again: the close moves on
  await sleep(40);
  assert.equal(closed, 0, "closed 40 ms after the last use");
  await sleep(60);
  assert.equal(closed, 1);
  busy = true;
  idle.touch();
  await sleep(100);
  assert.equal(closed, 1, "closed while a command ran");
  busy = false;
  idle.touch(); // the command ended
  idle.stop();
  await sleep(100);
  assert.equal(closed, 1, "closed after stop");
});
