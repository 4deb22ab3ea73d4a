/**
 * The fair channel limit of one SSH connection (lib/ssh/channel_slots.ts):
 * one slot kept for urgent commands, a share per caller, waiting callers
 * served in turn, timeouts, a lowered limit.
 */
import assert from "node:assert/strict";
import { channelShareKey, narrow } from "../../lib/auth/principal.ts";
import { ChannelSlots } from "../../lib/ssh/channel_slots.ts";
import { SshError } from "../../lib/ssh/errors.ts";

const timedOut = (limit: number) => new SshError("channel-limit", `all ${limit} busy`);

/** Acquire, and record in `got` when the slot comes. */
function take(
  slots: ChannelSlots,
  got: string[],
  who: string,
  label: string,
  opts: { urgent?: boolean; timeoutMs?: number } = {},
): Promise<void> {
  return slots.acquire(opts.timeoutMs ?? 10_000, timedOut, { who, urgent: opts.urgent }).then(
    () => {
      got.push(label);
    },
  );
}

const tick = () => new Promise((ok) => setTimeout(ok, 0));

Deno.test("channel slots: one caller takes its share; another gets a slot at once", async () => {
  const slots = new ChannelSlots(4);
  const got: string[] = [];
  const pending = [1, 2, 3, 4].map((i) => take(slots, got, "reader", `r${i}`));
  await tick();
  assert.deepEqual(got, ["r1", "r2"], "a caller holds at most limit - 2 at once");
  await take(slots, got, "admin", "a1");
  assert.deepEqual(got, ["r1", "r2", "a1"]);
  assert.equal(slots.active, 3, "the fourth is kept for urgent commands");
  await take(slots, got, "admin", "u1", { urgent: true });
  assert.equal(slots.active, 4);
  // Releasing the reader's slots lets its own queue go on, in arrival order.
  slots.release("admin");
  slots.release("admin");
  slots.release("reader");
  await tick();
  assert.deepEqual(got.slice(4), ["r3"]);
  slots.rejectAll(() => new SshError("connection-lost", "gone"));
  const settled = await Promise.allSettled(pending);
  assert.deepEqual(settled.map((s) => s.status), [
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "rejected",
  ]);
});

Deno.test("channel slots: waiting callers are served in turn, urgent ones first", async () => {
  const slots = new ChannelSlots(4);
  const got: string[] = [];
  // The owner (no key) has no share to keep: it fills the three ordinary slots.
  for (const i of [1, 2, 3]) await take(slots, got, "", `o${i}`);
  const waiting = [
    take(slots, got, "a", "a1"),
    take(slots, got, "a", "a2"),
    take(slots, got, "a", "a3"),
    take(slots, got, "b", "b1"),
    take(slots, got, "b", "b2"),
    take(slots, got, "c", "c1"),
    take(slots, got, "c", "u", { urgent: true }),
  ];
  await tick();
  assert.deepEqual(got.slice(3), ["u"], "the urgent command takes the kept slot at once");
  slots.release("c"); // the urgent one is done
  for (let i = 0; i < 3; i++) slots.release("");
  await tick();
  // Three ordinary slots came free: a, b and c in turn.
  assert.deepEqual(got.slice(4), ["a1", "b1", "c1"]);
  slots.release("a");
  slots.release("b");
  slots.release("c");
  await tick();
  assert.deepEqual(got.slice(7), ["a2", "b2", "a3"]);
  for (const who of ["a", "b", "a"]) slots.release(who);
  await Promise.all(waiting);
  assert.equal(slots.active, 0);
  assert.equal(slots.queued, 0);
});

Deno.test("channel slots: a wait times out and leaves the line", async () => {
  const slots = new ChannelSlots(2);
  const got: string[] = [];
  await take(slots, got, "a", "a1");
  await assert.rejects(take(slots, got, "a", "a2", { timeoutMs: 20 }), /all 2 busy/);
  assert.equal(slots.queued, 0);
  // With a limit of 2, one slot is kept for urgent commands.
  await take(slots, got, "b", "u", { urgent: true });
  assert.deepEqual(got, ["a1", "u"]);
});

Deno.test("channel slots: a limit lowered to 1 keeps no slot aside", async () => {
  const slots = new ChannelSlots(4);
  assert.equal(slots.perCaller, 2);
  slots.lower(1);
  assert.equal(slots.perCaller, 1);
  const got: string[] = [];
  await take(slots, got, "a", "a1");
  const next = take(slots, got, "b", "b1");
  slots.release("a");
  await next;
  assert.deepEqual(got, ["a1", "b1"]);
});

Deno.test("callers by channelShareKey: a credential's principal; the owner and anonymous local peers by session", () => {
  const key = { name: "key:reader", role: "read" as const };
  const anonymous = { name: "anonymous:127.0.0.1", role: "admin" as const, anonymous: true };
  // Hostile re-test 3 (issue 31): the shape of a name decides nothing. A read
  // key naming `anonymous:x` in _meta is still the read key, all sessions as one.
  const named = narrow({ name: "key:reader", role: "read" }, { name: "anonymous:x", role: "read" });
  assert.equal(channelShareKey({ principal: named, session: "s1" }), "key:reader");
  assert.equal(
    channelShareKey({ principal: { name: "anonymous:x", role: "read" } }),
    "anonymous:x",
  );
  assert.equal(channelShareKey({ principal: key, session: "s1" }), "key:reader");
  assert.equal(channelShareKey({ principal: anonymous, session: "s1" }), "s1");
  assert.equal(channelShareKey({ principal: anonymous, session: "s2" }), "s2");
  assert.equal(channelShareKey({ session: "s3" }), "s3");
  assert.equal(channelShareKey({}), undefined);
});
