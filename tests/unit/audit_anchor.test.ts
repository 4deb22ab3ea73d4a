/**
 * The audit log's chain and anchor, in process: what AuditLog writes, and
 * every verdict judgeLog gives (intact, broken, cut, rewritten, unanchored
 * tail, no anchor, bad anchor).
 */
import assert from "node:assert/strict";
import {
  type AnchorError,
  anchorPath,
  judgeLog,
  readAnchor,
  writeAnchor,
} from "../../lib/server/safety/audit_anchor.ts";
import { GENESIS, verifyChain } from "../../lib/server/safety/audit_chain.ts";
import { type AuditEntry, AuditLog, AuditLogError } from "../../lib/server/safety/audit_log.ts";

function entry(n: number): AuditEntry {
  return {
    kind: "outcome",
    time: new Date(0).toISOString(),
    device: "r1",
    tool: "router_add_ip_address",
    arguments: { n },
    commands: [`/ip address add address=10.0.${n}.1/24`],
    dry_run: false,
    outcome: "ok",
    duration_ms: 1,
  };
}

/** A fresh directory with a log of `count` entries written through AuditLog. */
async function withLog(count: number, fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "audit-unit-" });
  const path = `${dir}/audit.jsonl`;
  const log = new AuditLog(path);
  await log.checkWritable();
  await Promise.all(Array.from({ length: count }, (_, i) => log.append(entry(i + 1))));
  await log.settle();
  try {
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function judge(path: string) {
  const check = await verifyChain(await Deno.readTextFile(path));
  const anchor = await readAnchor(path).catch((e) => e as AnchorError);
  return judgeLog(path, check, anchor);
}

async function lines(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path)).trim().split("\n");
}

Deno.test("AuditLog: a new log is anchored empty, and every append moves the anchor", async () => {
  await withLog(0, async (path) => {
    assert.deepEqual(await readAnchor(path), { entries: 0, head: GENESIS });
    assert.equal(
      (await judge(path)).message,
      "OK, 0 entries, chain intact (unkeyed) and anchored, last verified entry #0",
    );
  });
  await withLog(5, async (path) => {
    const anchor = await readAnchor(path);
    const check = await verifyChain(await Deno.readTextFile(path));
    assert.equal(anchor?.entries, 5);
    assert.equal(anchor?.head, check.heads[5]);
    const v = await judge(path);
    assert.deepEqual([v.ok, v.entries, v.lastVerified], [true, 5, 5]);
    const left = [...Deno.readDirSync(path.slice(0, path.lastIndexOf("/")))].map((e) => e.name);
    assert.deepEqual(left.sort(), ["audit.jsonl", "audit.jsonl.anchor"], "no temporary file left");
  });
});

Deno.test("judgeLog: a cut tail, an edit, a rewrite and an unanchored tail", async () => {
  await withLog(4, async (path) => {
    const all = await lines(path);
    const write = (ls: string[]) => Deno.writeTextFile(path, ls.map((l) => l + "\n").join(""));

    await write(all.slice(0, 3));
    let v = await judge(path);
    assert.deepEqual([v.ok, v.entries, v.lastVerified], [false, 3, 3]);
    assert.match(
      v.message,
      /^CUT: the anchor records 4 entries but the log ends at entry #3; entry #4 was removed/,
    );

    await write([all[0], all[1].replace("10.0.2.1", "10.0.9.1"), ...all.slice(2)]);
    v = await judge(path);
    assert.equal(v.message.split(";")[0], "BROKEN at entry #2: its content was edited");
    assert.equal(v.lastVerified, 1);

    // Three forged entries, correctly chained, flushed one by one, with the
    // anchor left alone: more than the two flushes a crash leaves past it.
    await write(all);
    const other = new AuditLog(`${path}.copy`);
    await Deno.copyFile(path, `${path}.copy`);
    await Deno.copyFile(anchorPath(path), anchorPath(`${path}.copy`));
    for (const n of [5, 6, 7]) await other.append(entry(n));
    await other.settle();
    await Deno.copyFile(`${path}.copy`, path);
    v = await judge(path);
    assert.deepEqual([v.ok, v.lastVerified], [false, 4]);
    assert.match(
      v.message,
      /^UNANCHORED TAIL: entries #5 to #7 come after the anchor \(last verified entry #4\)/,
    );
    assert.match(v.message, /audit anchor .*audit\.jsonl$/);

    // The whole log re-sealed from another history, with as many entries.
    const forged = new AuditLog(`${path}.forged`);
    for (let i = 0; i < 4; i++) await forged.append({ ...entry(i + 1), device: "other" });
    await forged.settle();
    await Deno.copyFile(`${path}.forged`, path);
    v = await judge(path);
    assert.match(v.message, /^REWRITTEN: entry #4 is not the entry the anchor records/);
  });
});

Deno.test("judgeLog: no anchor and a bad anchor fail closed and name the accepting command", async () => {
  await withLog(2, async (path) => {
    await Deno.remove(anchorPath(path));
    let v = await judge(path);
    assert.equal(v.ok, false);
    assert.match(v.message, /^NO ANCHOR: .*\.anchor is missing, .*\(2 entries, chain intact\)/);
    await Deno.writeTextFile(anchorPath(path), '{"entries": "two"}');
    v = await judge(path);
    assert.match(v.message, /^BAD ANCHOR: .* is not an audit anchor/);
    const spaced = await judgeLog("/tmp/my log's.jsonl", await verifyChain(""), null);
    assert.match(spaced.message, /audit anchor '\/tmp\/my log'\\''s.jsonl'$/, "quoted for a shell");
  });
});

Deno.test("AuditLog: refuses to append to a cut or unanchored log (fail closed)", async () => {
  await withLog(3, async (path) => {
    const all = await lines(path);
    await Deno.writeTextFile(path, all.slice(0, 2).join("\n") + "\n");
    const log = new AuditLog(path);
    await assert.rejects(() => log.checkWritable(), AuditLogError);
    await assert.rejects(() => log.append(entry(9)), /is not intact, so writes are refused: CUT/);
    assert.equal((await lines(path)).length, 2, "nothing appended");

    await Deno.remove(anchorPath(path));
    await assert.rejects(() => new AuditLog(path).append(entry(9)), /NO ANCHOR/);
    await writeAnchor(path, {
      entries: 2,
      head: (await verifyChain(await Deno.readTextFile(path))).heads[2],
    });
    const accepted = new AuditLog(path);
    await accepted.append(entry(9));
    await accepted.settle();
    assert.equal((await judge(path)).message.split(",")[0], "OK");
  });
});
