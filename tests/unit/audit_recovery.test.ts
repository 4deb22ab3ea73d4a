/**
 * What a crash leaves in the audit log, and how the server recovers it at
 * start without anyone's help: an anchor one flush behind, a torn last
 * line, writes whose intent never got an outcome. In process, through
 * AuditLog and openAuditLog.
 */
import assert from "node:assert/strict";
import {
  type AnchorError,
  anchorPath,
  judgeLog,
  readAnchor,
} from "../../lib/server/safety/audit_anchor.ts";
import { verifyChain } from "../../lib/server/safety/audit_chain.ts";
import {
  type AuditEntry,
  AuditLog,
  AuditLogError,
  openAuditLog,
} from "../../lib/server/safety/audit_log.ts";
import { setLogLevel } from "../../lib/log.ts";

setLogLevel("error");

function outcome(n: number): AuditEntry {
  return {
    kind: "outcome",
    time: new Date(0).toISOString(),
    device: "r1",
    tool: "router_update_identity",
    arguments: { name: `r${n}` },
    commands: [],
    dry_run: false,
    outcome: "ok",
    duration_ms: 1,
  };
}

function intent(n: number): AuditEntry {
  return {
    kind: "intent",
    time: new Date(0).toISOString(),
    device: "r1",
    tool: "router_add_ip_address",
    arguments: { address: `10.0.${n}.1/24` },
    command: `/ip address add address="10.0.${n}.1/24"`,
  };
}

async function withDir(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "audit-recovery-" });
  try {
    await fn(`${dir}/audit.jsonl`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function judge(path: string) {
  const check = await verifyChain(await Deno.readTextFile(path));
  const anchor = await readAnchor(path).catch((e) => e as AnchorError);
  return judgeLog(path, check, anchor);
}

async function lines(path: string): Promise<Record<string, unknown>[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("recovery: an anchor two flushes behind is what a crash leaves, accepted and moved", async () => {
  await withDir(async (path) => {
    const log = new AuditLog(path);
    await log.append(outcome(1));
    await log.settle();
    const anchor = await Deno.readTextFile(anchorPath(path));
    // Three lines in one flush, one in the next; then a third flush.
    await Promise.all([2, 3, 4].map((n) => log.append(outcome(n))));
    await log.append(outcome(5));
    await log.settle();
    const twoFlushes = await Deno.readTextFile(path);
    assert.equal((await lines(path))[1].flush, 3, "a flush of several lines says so");
    await log.append(outcome(6));
    await log.settle();

    // The anchor as it was before the three flushes: more than a crash leaves.
    await Deno.writeTextFile(anchorPath(path), anchor);
    let v = await judge(path);
    assert.equal(v.ok, false);
    assert.match(v.message, /^UNANCHORED TAIL: entries #2 to #6 come after the anchor/);

    // Before the last two: what a crash leaves.
    await Deno.writeTextFile(path, twoFlushes);
    v = await judge(path);
    assert.deepEqual([v.ok, v.behind], [true, 4]);
    assert.match(v.notes.join("\n"), /anchor behind: entries #2 to #5 were flushed just before/);

    await openAuditLog(path);
    const all = await lines(path);
    assert.deepEqual(
      { ...all[5], time: undefined, prev: undefined, hash: undefined },
      {
        kind: "recovery",
        interrupted: [],
        anchor_behind: 4,
        time: undefined,
        prev: undefined,
        hash: undefined,
      },
    );
    v = await judge(path);
    assert.deepEqual([v.ok, v.behind, v.entries], [true, 0, 6]);
  });
});

Deno.test("recovery: a torn last line is reported, refused at run time, and cut at start", async () => {
  await withDir(async (path) => {
    const log = new AuditLog(path);
    await log.append(outcome(1));
    await log.settle();
    const torn = '{"kind":"intent","time":"2025-01-01T00:00:00.000Z","dev';
    await Deno.writeTextFile(path, torn, { append: true });

    const v = await judge(path);
    assert.equal(v.ok, true);
    assert.match(v.notes.join("\n"), new RegExp(`torn: the last ${torn.length} bytes`));
    await assert.rejects(() => new AuditLog(path).checkWritable(), /ends in a torn line/);

    const recovered = await openAuditLog(path);
    await recovered!.append(outcome(2));
    await recovered!.settle();
    const all = await lines(path);
    assert.deepEqual(all.map((l) => l.kind), ["outcome", "recovery", "outcome"]);
    assert.equal(all[1].torn_bytes, torn.length);
    assert.match(String(all[1].torn_sha256), /^[0-9a-f]{64}$/);
    assert.equal((await judge(path)).message.split(",")[0], "OK");
  });
});

Deno.test("recovery: an intent without an outcome is interrupted, named once by a recovery line", async () => {
  await withDir(async (path) => {
    const log = new AuditLog(path);
    const first = await log.append(intent(1));
    await log.append({ ...outcome(1), intent: first, sent: 1 } as AuditEntry);
    const lost = await log.append(intent(2));
    await log.settle();

    let v = await judge(path);
    assert.equal(v.ok, true);
    assert.deepEqual(v.interrupted, [{ entry: lost, tool: "router_add_ip_address", device: "r1" }]);
    assert.match(
      v.notes.join("\n"),
      /interrupted: #3 router_add_ip_address on r1: .* \(the server records it at its next start\)/,
    );

    await openAuditLog(path);
    await openAuditLog(path); // a second start has nothing left to recover
    const all = await lines(path);
    assert.deepEqual(all.map((l) => l.kind), ["intent", "outcome", "intent", "recovery"]);
    assert.deepEqual(all[3].interrupted, [3]);
    v = await judge(path);
    assert.deepEqual(v.interrupted, [{
      entry: 3,
      tool: "router_add_ip_address",
      device: "r1",
      recoveredAt: 4,
    }]);
    assert.match(v.notes.join("\n"), /interrupted: #3 .*\(recovery line #4\)/);
  });
});

Deno.test("recovery: a log cut by someone is not recovered: writes stay refused", async () => {
  await withDir(async (path) => {
    const log = new AuditLog(path);
    await log.append(intent(1));
    await log.append(outcome(1));
    await log.settle();
    const [one] = (await Deno.readTextFile(path)).split("\n");
    await Deno.writeTextFile(path, one + "\n");
    const reopened = await openAuditLog(path);
    await assert.rejects(() => reopened!.append(outcome(2)), AuditLogError);
    assert.equal((await lines(path)).length, 1, "nothing appended");
  });
});
