/**
 * `router_import_script` against the simulator, through MCP: a script
 * whose third line fails is reported at that line and the router is put
 * back as it was (lines 1 and 2 ran; the backup is loaded); a good one is
 * kept after a commit, reverted by the router itself when no commit comes
 * (the simulator's scheduler runs the job), rolled back on demand; a first
 * line that does not parse changes nothing and reboots nothing; a dry run
 * shows the commands and the script with secrets masked, and on 7.16+ the
 * router's own dry run; the audit log records the import, masked.
 */
import assert from "node:assert/strict";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { connectInProcess, serveInProcess, simArgs } from "./helpers/in_process.ts";

type Structured = Record<string, unknown>;

const THIRD_LINE_FAILS = [
  "/ip address add address=10.61.0.1/24 interface=ether2",
  '/ip dns static add name=mcp.example address=192.0.2.61 comment="import"',
  "/ip address add address=10.61.2.1/24 interface=no-such-port",
  "/ip address add address=10.61.3.1/24 interface=ether2",
  "",
].join("\n");

const GOOD = '/ip address\nadd address=10.62.0.1/24 interface=ether2\n:put "imported"\n';

const jobs = (sim: SimRouter) =>
  sim.items("/system/scheduler").filter((j) => j.name.startsWith("mcp-revert-"));
const fileNames = (sim: SimRouter) => sim.items("/file").map((f) => f.name);

async function start(version = "7.16.2") {
  // Up for an hour: a reboot shows at once as a shorter uptime.
  const sim = await startSimulator({ version, uptime: 3600 });
  const session = await connectInProcess(sim);
  return { sim, session };
}

Deno.test("a .rsc failing on its third line is reported there and the router is put back as it was", async () => {
  const { sim, session } = await start();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: THIRD_LINE_FAILS,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, true, r.content[0].text);
    const text = r.content[0].text;
    assert.match(text, /line 3 failed: input does not match any value of interface/);
    assert.match(text, /interface=no-such-port/, "the failing line is quoted");
    assert.match(text, /The 2 command\(s\) before it ran/);
    assert.match(
      text,
      /The change was reverted\. The router loaded mcp-revert-[0-9a-f]{12}\.backup and rebooted/,
    );
    assert.match(text, /its configuration matches the export taken before the import/);
    assert.equal(sim.counters.reboots, 1);
    assert.equal(configOf(sim), before, "lines 1 and 2 are undone");
    assert.deepEqual(jobs(sim), []);
    assert.ok(!fileNames(sim).some((f) => f.startsWith("mcp-")), fileNames(sim).join(" "));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a good .rsc is applied, listed as pending, and kept after a commit", async () => {
  const { sim, session } = await start("7.12.2");
  try {
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: GOOD,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    const s = r.structuredContent as Structured;
    assert.equal(s.lines, 3);
    assert.deepEqual(s.output, ["imported"]);
    assert.match(String(s.changes), /10\.62\.0\.1\/24/);
    assert.match(String(s.snapshot), /\/\d{8}T\d{9}Z$/);
    assert.deepEqual(s.health, { login: true, default_route: true, ping: {} });
    assert.equal(jobs(sim)[0]?.name, s.job);
    assert.ok(fileNames(sim).includes(String(s.backup)), "the backup waits on the router");
    assert.ok(!fileNames(sim).some((f) => f.startsWith("mcp-import-")), "the script is removed");
    const pending = await callTool(session, "router_list_pending_changes");
    const [item] = pending.structuredContent?.items as Structured[];
    assert.equal(item.change_id, s.change_id);
    assert.match(String(item.comment), /loads mcp-revert-\w+\.backup \(reboots\)/);
    const c = await callTool(session, "router_commit_changes", { change_id: s.change_id });
    assert.equal(c.isError, undefined, c.content[0].text);
    assert.deepEqual(jobs(sim), []);
    assert.ok(!fileNames(sim).includes(String(s.backup)), "commit removes the backup");
    assert.ok(sim.items("/ip/address").some((a) => a.address === "10.62.0.1/24"));
    assert.equal(sim.counters.reboots, 0);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("without a commit the router loads the backup by itself at the deadline, server gone", async () => {
  const { sim, session } = await start("6.49.13");
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: GOOD,
      confirm_within_seconds: 10,
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    const backup = String((r.structuredContent as Structured).backup);
    await session.close();
    assert.notEqual(configOf(sim), before);
    // The deadline comes on the router's clock: move it there instead of waiting.
    sim.advanceClock(10);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && sim.counters.reboots === 0) {
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.equal(sim.counters.reboots, 1, "the job loaded the backup");
    assert.equal(configOf(sim), before);
    assert.deepEqual(jobs(sim), [], "the restored configuration has no job");
    // Storage is not part of a backup: its file stays (as on RouterOS 7.24.4).
    assert.ok(fileNames(sim).includes(backup));
  } finally {
    await session.close().catch(() => {});
    await sim.close();
  }
});

Deno.test("router_rollback_changes loads an import's backup, waits for the router and checks it", async () => {
  const { sim, session } = await start("7.24");
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: GOOD,
      confirm_within_seconds: 600,
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    const s = r.structuredContent as Structured;
    const rb = await callTool(session, "router_rollback_changes", { change_id: s.change_id });
    assert.equal(rb.isError, undefined, rb.content[0].text);
    assert.match(
      String(rb.structuredContent?.detail),
      /loaded mcp-revert-\w+\.backup and rebooted .*matches the export taken before the import/,
    );
    assert.equal(configOf(sim), before);
    assert.ok(!fileNames(sim).includes(String(s.backup)));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a first command that does not parse changes nothing and reboots nothing", async () => {
  const { sim, session } = await start();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: "/ip address\nadd address=10.63.0.1/24 interfac=ether2\nadd address=10.63.1.1/24\n",
    });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /line 2 failed: Script Error: |line 2 failed: expected end of command/,
    );
    assert.match(r.content[0].text, /Nothing of the script ran before it and it changed nothing/);
    assert.equal(sim.counters.reboots, 0);
    assert.equal(configOf(sim), before);
    assert.deepEqual(jobs(sim), []);
    assert.ok(!fileNames(sim).some((f) => f.startsWith("mcp-")), fileNames(sim).join(" "));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a dry run masks the script's secrets; on 7.16+ the router checks a file it holds", async () => {
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  for (const version of ["7.12.2", "7.16.2"]) {
    const sim = await startSimulator({ version, uptime: 3600 });
    const session = await serveInProcess([
      ...simArgs(sim),
      "--audit-log",
      audit,
    ]);
    try {
      const before = configOf(sim);
      const source = '/user add name=ops group=read password="Sup3r-S3cret"\n/ip dns set foo=1\n';
      const dry = await callTool(session, "router_import_script", { source, dry_run: true });
      assert.equal(dry.isError, undefined, dry.content[0].text);
      const shown = JSON.stringify(dry);
      assert.doesNotMatch(shown, /Sup3r-S3cret/);
      const d = dry.structuredContent?.dry_run as { commands: string[]; preview: Structured };
      assert.match(String(d.preview.script), /password="\*+"/);
      assert.ok(d.commands.some((c) => c.startsWith("/import file-name=")), d.commands.join("\n"));
      assert.ok(d.commands.some((c) => c.startsWith("(arm) /system scheduler add")));
      assert.match(
        String(d.preview.router_check),
        version === "7.12.2" ? /no \/import dry-run \(7\.16/ : /upload the script first/,
      );
      // A file on the router: the router's own dry run on 7.16+ (it applies nothing).
      sim.run(
        `/file add name=check.rsc contents="/ip address add address=10.64.0.1/24 interface=ether2\\n/ip dns set foo=1\\n"`,
      );
      const onRouter = await callTool(session, "router_import_script", {
        file: "check.rsc",
        dry_run: true,
      });
      const problems = (onRouter.structuredContent?.dry_run as { problems: string[] }).problems;
      assert.deepEqual(
        problems,
        version === "7.12.2" ? [] : ["line 2: bad parameter foo (line 2 column 13)"],
      );
      assert.equal(configOf(sim), before, "dry runs changed nothing");
      // A real import with a secret: the audit log never holds it.
      const real = await callTool(session, "router_import_script", {
        confirm: true,
        source: '/ppp secret add name=ops password="Sup3r-S3cret"\n',
        confirm_within_seconds: 600,
      });
      assert.equal(real.isError, undefined, real.content[0].text);
      const log = Deno.readTextFileSync(audit);
      assert.doesNotMatch(log, /Sup3r-S3cret/);
      const lines = log.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      assert.ok(
        lines.some((l) =>
          l.kind === "intent" && /^\/import file-name="mcp-import-/.test(l.command)
        ),
        "the import has its write-ahead intent line",
      );
      // The backup's one-time password: in the job on the router, never in the log,
      // neither when the job is armed nor when a rollback runs it.
      const [job] = jobs(sim);
      const password = /password=\\?"([0-9a-f]{24})/.exec(job["on-event"])?.[1];
      assert.ok(password, job["on-event"]);
      const id = (real.structuredContent as Structured).change_id;
      const rb = await callTool(session, "router_rollback_changes", { change_id: id });
      assert.equal(rb.isError, undefined, rb.content[0].text);
      assert.ok(!Deno.readTextFileSync(audit).includes(password), "the password is masked");
    } finally {
      await session.close();
      await sim.close();
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a failed health check (the default route gone) reverts a good import", async () => {
  const { sim, session } = await start("7.20.8");
  try {
    assert.ok(sim.items("/ip/route").some((r) => r["dst-address"] === "0.0.0.0/0"));
    const before = configOf(sim);
    const r = await callTool(session, "router_import_script", {
      confirm: true,
      source: "/ip route remove [find dst-address=0.0.0.0/0]\n",
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /health check failed \(login: true, default route: false/);
    assert.match(r.content[0].text, /The change was reverted\. .*matches the export taken before/);
    assert.equal(configOf(sim), before);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("an import whose outcome is unknown (no answer) is reverted all the same", async () => {
  const sim = await startSimulator({ version: "7.16.2", uptime: 3600 });
  const inventory = [{ title: "r1", host: sim.host, port: sim.port, command_timeout: 2 }];
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
  try {
    const before = configOf(sim);
    sim.faults.hang = /^\/import /;
    const r = await callTool(session, "router_import_script", {
      device: "r1",
      confirm: true,
      source: GOOD,
    });
    sim.faults.hang = false;
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /The import's outcome is unknown \(.*did not answer within 2 s/,
    );
    assert.match(r.content[0].text, /The change was reverted\. The router loaded/);
    assert.equal(configOf(sim), before);
    assert.deepEqual(jobs(sim), []);
  } finally {
    await session.close();
    await sim.close();
  }
});
