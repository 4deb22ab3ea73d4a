/**
 * The write-ahead audit log, through MCP against the simulator: an intent
 * line is on disk before the router gets the command it records, its
 * outcome follows, a dry run is one line and a read none; and a server
 * killed (`kill -9`) in a burst of writes leaves an intent for every change
 * the router took, then restarts, recovers the log by itself and serves
 * writes, while `audit verify` reports the interrupted writes, not a
 * broken log.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, type McpSession, runCli, spawnServer } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Line = Record<string, unknown>;

function readLines(path: string): Line[] {
  const text = Deno.readTextFileSync(path);
  return text.split("\n").filter((l) => l !== "").flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return []; // a line the kill cut short
    }
  });
}

Deno.test("write-ahead: the intent is on disk before the router gets the command", async () => {
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  const late: string[] = [];
  let writes = 0;
  const sim = await startSimulator({
    onCommand(command) {
      if (!/address\/add|address add/.test(command) || command.includes("print")) return;
      writes++;
      const intents = readLines(audit).filter((l) => l.kind === "intent");
      if (!intents.some((l) => l.command === command)) late.push(command);
    },
  });
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--audit-log",
    audit,
  ]);
  try {
    const add = (address: string, more: Record<string, unknown> = {}) =>
      callTool(session, "router_add_ip_address", { address, interface: "ether2", ...more });
    assert.equal((await add("10.11.0.1/24")).isError, undefined);
    await Promise.all(["10.11.1.1/24", "10.11.2.1/24", "10.11.3.1/24"].map((a) => add(a)));
    const before = readLines(audit).length;
    assert.equal((await callTool(session, "router_list_ip_addresses")).isError, undefined);
    assert.equal(readLines(audit).length, before, "a read writes nothing");
    assert.equal((await add("10.11.9.1/24", { dry_run: true })).isError, undefined);
    assert.equal(readLines(audit).length, before + 1, "a dry run is one line");

    assert.ok(writes >= 4, `the router got ${writes} writes`);
    assert.deepEqual(late, [], "no command reached the router before its intent");
    const lines = readLines(audit);
    const outcomes = lines.filter((l) => l.kind === "outcome" && l.intent !== undefined);
    assert.equal(outcomes.length, 4);
    for (const o of outcomes) {
      const n = o.intent as number;
      assert.equal(lines[n - 1].kind, "intent");
      assert.ok(lines.indexOf(o) + 1 > n, "the outcome comes after its intent");
    }
    const verify = await runCli(["audit", "verify", audit]);
    assert.equal(verify.code, 0, verify.stdout);
    assert.doesNotMatch(verify.stdout, /interrupted/);
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("write-ahead: kill -9 in a burst of writes; every change has its intent; the restart recovers", async () => {
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  const burst = 300;
  const killAt = 60;
  let adds = 0;
  let server: McpSession | undefined;
  let again: McpSession | undefined;
  const sim = await startSimulator({
    onCommand(command) {
      if (!command.includes("10.12.")) return;
      // The kill lands while this command runs on the router: its call has
      // an intent on disk and will never get an outcome.
      if (++adds === killAt && server) Deno.kill(server.pid, "SIGKILL");
    },
  });
  const args = ["--host", sim.host, "--port", String(sim.port), "--audit-log", audit];
  try {
    server = await spawnServer(args);
    const calls = Array.from(
      { length: burst },
      (_, i) =>
        callTool(server!, "router_add_ip_address", {
          address: `10.12.${i >> 8}.${i & 255}/32`,
          interface: "ether3",
        }).then((r) => !r.isError, () => false),
    );
    const answered = (await Promise.all(calls)).filter(Boolean).length;
    await server.close().catch(() => {});

    const onRouter = sim.items("/ip/address").map((a) => a.address)
      .filter((a) => a.startsWith("10.12."));
    const lines = readLines(audit);
    const intents = lines.filter((l) => l.kind === "intent");
    const withIntent = onRouter.filter((a) =>
      intents.some((l) => String(l.command).includes(`"${a}"`))
    );
    const outcomes = new Set(lines.filter((l) => l.kind === "outcome").map((l) => l.intent));
    const open = intents.filter((l) => !outcomes.has(lines.indexOf(l) + 1));
    console.log(
      `kill -9 after ${adds} of ${burst} writes reached the router: ${answered} answered, ` +
        `${onRouter.length} changes on the router, ${intents.length} intents, ` +
        `${open.length} without an outcome`,
    );
    assert.ok(onRouter.length >= killAt - 4, "the burst was under way");
    assert.ok(onRouter.length < burst, "the kill came in the middle of the burst");
    assert.deepEqual(
      onRouter.filter((a) => !withIntent.includes(a)),
      [],
      "every change on the router has an intent line",
    );
    assert.ok(open.length >= 1, "the call the kill interrupted has no outcome");

    const before = await runCli(["audit", "verify", audit]);
    assert.equal(before.code, 0, before.stdout);
    assert.match(before.stdout, /: OK, \d+ entries/);
    assert.match(before.stdout, /: interrupted: #\d+ router_add_ip_address on /);
    assert.doesNotMatch(before.stdout, /BROKEN|UNANCHORED|CUT/);

    // The restarted server recovers the log by itself and serves writes.
    again = await spawnServer(args);
    const w = await callTool(again, "router_add_ip_address", {
      address: "10.12.255.1/32",
      interface: "ether3",
    });
    assert.equal(w.isError, undefined, w.content[0]?.text);
    assert.match(again.stderr(), /recovered after a stop \(recovery line #\d+\)/);
    await again.close();
    again = undefined;

    const after = readLines(audit);
    const recovery = after.filter((l) => l.kind === "recovery");
    assert.equal(recovery.length, 1);
    assert.deepEqual(
      recovery[0].interrupted,
      open.map((l) => after.findIndex((x) => x.hash === l.hash) + 1),
      "the recovery line names the intents without an outcome",
    );
    const verified = await runCli(["audit", "verify", audit]);
    assert.equal(verified.code, 0, verified.stdout);
    assert.equal(
      verified.stdout.match(/: interrupted: .*\(recovery line #\d+\)/g)?.length,
      open.length,
      verified.stdout,
    );
  } finally {
    await again?.close();
    await server?.close().catch(() => {});
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("write-ahead: an intent that cannot be written stops its command (no line, no command)", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--audit-log",
    audit,
  ]);
  try {
    const add = (address: string) =>
      callTool(session, "router_add_ip_address", { address, interface: "ether2" });
    assert.equal((await add("10.13.0.1/24")).isError, undefined);
    // The log becomes a directory: the next line cannot be appended.
    await Deno.remove(audit);
    await Deno.mkdir(audit);
    const r = await add("10.13.1.1/24");
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /router_add_ip_address was not sent, because its audit line could not be written: audit log .* cannot be written/,
    );
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.13.1.1/24"));
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});
