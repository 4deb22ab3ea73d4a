/**
 * The idle collector: one full collection when a stretch of work ends with
 * a grown heap, none while busy, none for a server that barely works, and
 * V8's collector is reachable in this runtime (it shrinks the heap).
 */
import assert from "node:assert/strict";
import {
  BUSY_CPU_MS,
  GROWTH_BYTES,
  IdleGc,
  type IdleGcProbe,
  RETRIES_MAX,
  RETRY_TICKS,
  v8Collector,
} from "../../lib/server/idle_gc.ts";

const MiB = 1024 * 1024;

/** A fake process: CPU time and heap size set by the test. */
function fake(heap = 20 * MiB) {
  const state = { cpu: 0, heap, collected: 0 };
  const probe: IdleGcProbe = {
    cpuMs: () => state.cpu,
    heapBytes: () => state.heap,
    collect: () => {
      state.collected++;
      state.heap = 20 * MiB;
    },
  };
  return { state, gc: new IdleGc(probe) };
}

Deno.test("idle gc: collects at the first quiet tick after work that grew the heap", () => {
  const { state, gc } = fake();
  state.cpu += 500;
  state.heap += GROWTH_BYTES + MiB;
  assert.equal(gc.tick(), false, "not while busy");
  state.cpu += 400;
  assert.equal(gc.tick(), false, "still busy");
  state.cpu += 1;
  assert.equal(gc.tick(), true, "quiet after work, heap grown");
  assert.equal(state.collected, 1);
  state.cpu += 1;
  assert.equal(gc.tick(), false, "once per stretch of work");
  assert.equal(gc.collections, 1);
});

Deno.test("idle gc: no collection when the heap did not grow, or without work", () => {
  const { state, gc } = fake();
  for (let i = 0; i < 5; i++) {
    state.cpu += BUSY_CPU_MS - 1;
    state.heap += MiB;
    assert.equal(gc.tick(), false, "light work is not a stretch of work");
  }
  state.cpu += 300;
  gc.tick();
  state.heap += GROWTH_BYTES - 6 * MiB;
  assert.equal(gc.tick(), false, "grew, but less than the threshold since the start");
  assert.equal(state.collected, 0);
});

Deno.test("idle gc: the growth is measured from the heap after the last collection", () => {
  const { state, gc } = fake();
  state.cpu += 300;
  state.heap = 60 * MiB;
  gc.tick();
  assert.equal(gc.tick(), true);
  assert.equal(state.heap, 20 * MiB);
  state.cpu += 300;
  state.heap = 20 * MiB + GROWTH_BYTES - 1;
  gc.tick();
  assert.equal(gc.tick(), false, "just under the threshold above the new baseline");
});

Deno.test("idle gc: V8's full collection is reachable and gives garbage back", () => {
  const collect = v8Collector();
  assert.ok(collect, "node:v8 --expose-gc and node:vm no longer reach V8's gc in this Deno");
  let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `x${i}` }));
  const before = Deno.memoryUsage().heapUsed;
  junk = null;
  collect();
  assert.equal(junk, null);
  assert.ok(
    Deno.memoryUsage().heapUsed < before - 5 * MiB,
    "a full collection freed the dropped objects",
  );
});

Deno.test("idle gc: a collection that live memory kept grown is tried again once it is dropped", () => {
  const state = { cpu: 0, heap: 20 * MiB, collected: 0, held: true };
  const gc = new IdleGc({
    cpuMs: () => state.cpu,
    heapBytes: () => state.heap,
    collect: () => {
      state.collected++;
      state.heap = state.held ? 80 * MiB : 20 * MiB;
    },
  });
  // Stalled request bodies: the server goes quiet, but their buffers are live.
  state.cpu += 300;
  state.heap = 80 * MiB;
  assert.equal(gc.tick(), false, "busy");
  assert.equal(gc.tick(), true, "quiet after work: collects, the bodies still live");
  assert.equal(state.heap, 80 * MiB);
  // Their timeout closes them with barely any CPU: no stretch of work follows.
  state.held = false;
  state.cpu += 1;
  assert.equal(gc.tick(), false, "one quiet tick");
  state.cpu += 1;
  assert.equal(gc.tick(), true, "two quiet ticks later it looks again");
  assert.equal(state.heap, 20 * MiB, "and the memory comes back");
  for (let i = 0; i < 100; i++) assert.equal(gc.tick(), false, "then nothing more");
});

Deno.test("idle gc: a heap that stays grown is taken as the new level after a few looks", () => {
  const state = { cpu: 0, heap: 20 * MiB, collected: 0 };
  const gc = new IdleGc({
    cpuMs: () => state.cpu,
    heapBytes: () => state.heap,
    collect: () => state.collected++,
  });
  state.cpu += 300;
  state.heap = 80 * MiB;
  for (let i = 0; i < 200; i++) gc.tick();
  assert.equal(state.collected, 1 + RETRIES_MAX, `at once, then every ${RETRY_TICKS} quiet ticks`);
  for (let i = 0; i < 200; i++) gc.tick();
  assert.equal(state.collected, 1 + RETRIES_MAX, "no more: 80 MiB is the level now");
  state.cpu += 300;
  state.heap = 80 * MiB + GROWTH_BYTES + MiB;
  gc.tick();
  assert.equal(gc.tick(), true, "growth above the new level is collected again");
});
