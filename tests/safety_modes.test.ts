/**
 * Change safety: read-only mode, per-device read-only, destructive
 * confirmation, dry runs and the audit log, through MCP against the
 * simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import {
  callTool,
  configOf,
  listAllTools,
  type McpSession,
  runCli,
  spawnServer,
  withoutNonces,
} from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Tool = { name: string; annotations?: { readOnlyHint?: boolean } };

Deno.test("read-only mode: tools/list shows no write tool, and a write says the server is read-only", async () => {
  const sim = await startSimulator();
  const rw = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  const ro = await serveInProcess(["--host", sim.host, "--port", String(sim.port), "--read-only"]);
  try {
    const all = (await listAllTools(rw.client)) as Tool[];
    const reads = (await listAllTools(ro.client)) as Tool[];
    assert.ok(all.some((t) => t.name === "router_add_ip_address"));
    assert.ok(all.some((t) => t.annotations?.readOnlyHint === false));
    assert.ok(reads.length > 0);
    assert.ok(reads.every((t) => t.annotations?.readOnlyHint === true), "only read-only tools");
    assert.deepEqual(
      reads.map((t) => t.name).sort(),
      all.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name).sort(),
    );
    const r = await callTool(ro, "router_add_ip_address", {
      address: "10.1.1.1/24",
      interface: "ether1",
    });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /router_add_ip_address changes the router, and this server is read-only \(--read-only or ROUTER_READ_ONLY\); restart it without read-only mode/,
    );
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.1.1.1/24"));
  } finally {
    await rw.close();
    await ro.close();
    await sim.close();
  }
});

Deno.test("per-device read_only: writes to that device are refused, other devices work", async () => {
  const sim = await startSimulator();
  const inventory = [
    { title: "prod", host: sim.host, port: sim.port, read_only: true },
    { title: "lab", host: sim.host, port: sim.port },
  ];
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    const refused = await callTool(session, "router_add_ip_address", {
      device: "prod",
      address: "10.2.2.1/24",
      interface: "ether1",
    });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /device "prod" is read-only/);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.2.2.1/24"));
    const read = await callTool(session, "router_list_ip_addresses", { device: "prod" });
    assert.equal(read.isError, undefined);
    const ok = await callTool(session, "router_add_ip_address", {
      device: "lab",
      address: "10.2.2.1/24",
      interface: "ether1",
    });
    assert.equal(ok.isError, undefined, ok.content[0]?.text);
    assert.ok(sim.items("/ip/address").some((a) => a.address === "10.2.2.1/24"));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("destructive tools need confirm: true, and say what they would destroy", async () => {
  const sim = await startSimulator();
  sim.run("/ip address add address=10.3.3.1/24 interface=ether2 comment=keep-me");
  const id = sim.items("/ip/address").find((a) => a.address === "10.3.3.1/24")![".id"];
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    const tools = await listAllTools(session.client);
    const remove = tools.find((t: { name: string }) => t.name === "router_remove_ip_address")!;
    assert.equal(remove.annotations?.destructiveHint, true);
    assert.ok("confirm" in (remove.inputSchema.properties ?? {}));
    const before = configOf(sim);
    const r = await callTool(session, "router_remove_ip_address", { id });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /needs confirm: true. Nothing was done/);
    assert.match(r.content[0].text, /10\.3\.3\.1\/24/);
    assert.equal(configOf(sim), before, "nothing changed");
    const done = await callTool(session, "router_remove_ip_address", { id, confirm: true });
    assert.equal(done.isError, undefined, done.content[0]?.text);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.3.3.1/24"));
  } finally {
    await session.close();
    await sim.close();
  }
});

/** A simulator and a server writing its audit log to a fresh directory. */
async function auditedServer() {
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
  return { sim, dir, audit, session };
}

async function auditLines(path: string): Promise<Record<string, unknown>[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("dry run changes nothing, and its commands are exactly what the real call sends", async () => {
  const { sim, dir, audit, session } = await auditedServer();
  try {
    const args = { address: "10.4.4.1/24", interface: "ether3", comment: 'a "quoted" $comment' };
    const before = configOf(sim);
    const counted = sim.counters.commands;
    const dry = await callTool(session, "router_add_ip_address", { ...args, dry_run: true });
    assert.equal(dry.isError, undefined, dry.content[0]?.text);
    assert.equal(configOf(sim), before, "simulator state identical after a dry run");
    const plan = dry.structuredContent?.dry_run as {
      commands: string[];
      preview: Record<string, unknown>;
      problems: string[];
    };
    assert.deepEqual(plan.problems, []);
    assert.equal(plan.preview.address, "10.4.4.1/24");
    assert.ok(sim.counters.commands > counted, "the dry run did resolve references");

    const missing = await callTool(session, "router_add_ip_address", {
      address: "10.4.5.1/24",
      interface: "ether99",
      dry_run: true,
    });
    const problems = (missing.structuredContent?.dry_run as { problems: string[] }).problems;
    assert.match(problems.join(), /ether99/);

    const real = await callTool(session, "router_add_ip_address", args);
    assert.equal(real.isError, undefined, real.content[0]?.text);
    const stored = sim.items("/ip/address").find((a) => a.address === "10.4.4.1/24");
    assert.equal(stored?.comment, 'a "quoted" $comment');
    const lines = await auditLines(audit);
    const realLine = lines.at(-1)!;
    assert.equal(realLine.kind, "outcome");
    assert.equal(realLine.outcome, "ok");
    const intents = lines.filter((l) => l.kind === "intent");
    assert.equal(realLine.intent, lines.indexOf(intents[0]) + 1, "the outcome names its intent");
    assert.deepEqual(
      withoutNonces(intents.map((l) => l.command as string)),
      withoutNonces(plan.commands),
      "dry-run commands = commands sent",
    );
    assert.equal(lines.filter((l) => l.dry_run === true).length, 2, "dry runs are audited");
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit log: a line per write, dry run and failure; secrets masked; verify detects tampering", async () => {
  const { sim, dir, audit, session } = await auditedServer();
  try {
    await callTool(session, "router_list_ip_addresses");
    const ok = await callTool(session, "router_add_ip_address", {
      address: "10.5.5.1/24",
      interface: "ether4",
    });
    assert.equal(ok.isError, undefined);
    await callTool(session, "router_add_ip_address", {
      address: "10.5.6.1/24",
      interface: "ether4",
      dry_run: true,
    });
    const bad = await callTool(session, "router_add_ip_address", {
      address: "10.5.5.1/24",
      interface: "ether4",
    });
    assert.equal(bad.isError, true, "a duplicate address is refused by RouterOS");
    const lines = await auditLines(audit);
    const outcomes = lines.filter((l) => l.kind === "outcome");
    assert.equal(outcomes.length, 3, "reads are not audited; each write attempt is");
    assert.deepEqual(outcomes.map((l) => [l.tool, l.dry_run ?? false, l.outcome, l.intent]), [
      ["router_add_ip_address", false, "ok", 1],
      ["router_add_ip_address", true, "ok", undefined],
      ["router_add_ip_address", false, "routeros-error", 4],
    ]);
    // A write that sends: its intent (with the command about to be sent) comes first.
    for (const o of outcomes.filter((l) => l.intent !== undefined)) {
      const intent = lines[(o.intent as number) - 1];
      assert.equal(intent.kind, "intent");
      assert.match(String(intent.command), /^\/ip\/address\/add|^\/ip address add|address=/);
      assert.equal((intent.client as { name: string }).name, "mcp-server-router-tests");
      assert.equal(o.sent, 1);
    }
    assert.deepEqual(outcomes[1].arguments, {
      address: "10.5.6.1/24",
      interface: "ether4",
    }, "a dry run's one line holds its arguments");
    for (const l of lines) {
      assert.equal(l.device, sim.host);
      assert.match(String(l.time), /^\d{4}-\d{2}-\d{2}T/);
    }
    for (const l of outcomes) assert.equal(typeof l.duration_ms, "number");
    assert.match(String(outcomes[2].error), /already have such address/);

    const verify = (file: string) => runCli(["audit", "verify", file]);
    const good = await verify(audit);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.equal(
      good.stdout.trim().split("\n")[0],
      `${audit}: OK, 5 entries, chain intact (unkeyed) and anchored, last verified entry #5`,
    );
    assert.match(good.stdout, /: unkeyed: an entry edited and re-sealed/);

    const raw = (await Deno.readTextFile(audit)).trim().split("\n");
    const anchor = await Deno.readTextFile(`${audit}.anchor`);
    const variants: [string, string[], RegExp][] = [
      [
        "edited",
        raw.map((l, i) => i === 2 ? l.replace("10.5.6.1", "10.5.7.1") : l),
        /BROKEN at entry #3:/,
      ],
      ["deleted", [raw[0], raw[1], ...raw.slice(3)], /BROKEN at entry #3:/],
      ["reordered", [raw[1], raw[0], ...raw.slice(2)], /BROKEN at entry #1:/],
      ["last line edited", [...raw.slice(0, 4), raw[4].replace("routeros-error", "ok")], /#5:/],
      [
        "last line deleted",
        raw.slice(0, 4),
        /: CUT: the anchor records 5 entries but the log ends at entry #4; entry #5 was removed \(last verified entry #4\)$/,
      ],
      ["last two lines deleted", raw.slice(0, 3), /CUT: .* entries #4 to #5 were removed/],
      ["every line deleted", [], /CUT: .* ends at entry #0/],
    ];
    for (const [name, lines, message] of variants) {
      const file = `${dir}/${name.replaceAll(" ", "-")}.jsonl`;
      await Deno.writeTextFile(file, lines.map((l) => l + "\n").join(""));
      await Deno.writeTextFile(`${file}.anchor`, anchor);
      const r = await verify(file);
      assert.equal(r.code, 1, name);
      assert.match(r.stdout.trim(), message, name);
    }
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit log: a cut log makes the server refuse writes, and verify says where it was cut", async () => {
  const { sim, dir, audit, session } = await auditedServer();
  const add = (s: McpSession, address: string) =>
    callTool(s, "router_add_ip_address", { address, interface: "ether5" });
  let again: McpSession | undefined;
  try {
    for (const address of ["10.7.0.1/24", "10.7.1.1/24", "10.7.2.1/24"]) {
      assert.equal((await add(session, address)).isError, undefined);
    }
    await session.close();
    // Someone removes the last two entries, hiding the third change.
    const lines = (await Deno.readTextFile(audit)).trim().split("\n");
    await Deno.writeTextFile(audit, lines.slice(0, 4).join("\n") + "\n");
    const cut = await runCli(["audit", "verify", audit]);
    assert.equal(cut.code, 1);
    assert.match(cut.stdout, /CUT: the anchor records 6 entries but the log ends at entry #4/);

    again = await spawnServer([
      "--host",
      sim.host,
      "--port",
      String(sim.port),
      "--audit-log",
      audit,
    ]);
    const refused = await add(again, "10.7.3.1/24");
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /is not intact, so writes are refused: CUT/);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.7.3.1/24"));
    assert.equal((await callTool(again, "router_list_ip_addresses")).isError, undefined);
    assert.match(again.stderr(), /CUT: the anchor records 6 entries/, "said at startup");
  } finally {
    await again?.close();
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit log: a log without its anchor fails closed until accepted with audit anchor", async () => {
  const { sim, dir, audit, session } = await auditedServer();
  const add = (s: McpSession, address: string) =>
    callTool(s, "router_add_ip_address", { address, interface: "ether2" });
  const restart = () =>
    serveInProcess(["--host", sim.host, "--port", String(sim.port), "--audit-log", audit]);
  let again: McpSession | undefined;
  try {
    assert.equal((await add(session, "10.8.0.1/24")).isError, undefined);
    await session.close();
    await Deno.remove(`${audit}.anchor`);
    const missing = await runCli(["audit", "verify", audit]);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /NO ANCHOR: .*audit\.jsonl\.anchor is missing/);
    assert.match(missing.stdout, /mcp-server-router audit anchor .*audit\.jsonl$/m);

    again = await restart();
    const refused = await add(again, "10.8.1.1/24");
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /writes are refused: NO ANCHOR/);
    await again.close();

    const accepted = await runCli(["audit", "anchor", audit]);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /anchored 2 entries in .*audit\.jsonl\.anchor/);
    again = await restart();
    assert.equal((await add(again, "10.8.1.1/24")).isError, undefined, "accepted: writes again");
    const verified = await runCli(["audit", "verify", audit]);
    assert.equal(verified.code, 0, verified.stdout);
    assert.match(verified.stdout, /OK, 4 entries, .*last verified entry #4/);
  } finally {
    await again?.close();
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit: help on stdout with exit 0, usage errors exit 2 with one line", async () => {
  for (const args of [["--help"], ["-h"], ["verify", "--help"], ["help"], ["anchor", "-h"]]) {
    const r = await runCli(["audit", ...args]);
    assert.equal(r.code, 0, `${args}: ${r.stderr}`);
    assert.match(
      r.stdout,
      /^Usage: mcp-server-router audit <command> \[--key-file KEY\] FILE/,
      args.join(" "),
    );
    assert.equal(r.stderr, "");
  }
  for (
    const [args, message] of [
      [[], /expected a command: verify or anchor/],
      [["check", "f"], /unknown command "check"; expected verify or anchor/],
      [["verify"], /verify needs a FILE/],
      [["verify", "a", "b"], /unexpected argument "b"/],
      [["verify", "/nonexistent/audit.jsonl"], /cannot read audit log \/nonexistent/],
    ] as [string[], RegExp][]
  ) {
    const r = await runCli(["audit", ...args]);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.equal(r.stdout, "");
  }
});

Deno.test("audit log: secrets are masked in arguments and commands", async () => {
  const { sim, dir, audit, session } = await auditedServer();
  try {
    const tools = await listAllTools(session.client);
    const addUser = tools.find((t: { name: string }) => t.name === "router_add_user");
    if (!addUser) throw new Error("router_add_user is missing from the catalogue");
    const r = await callTool(session, "router_add_user", {
      name: "auditor",
      group: "read",
      password: "Top-Secret-99",
    });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    const text = await Deno.readTextFile(audit);
    assert.ok(!text.includes("Top-Secret-99"), "the password is not in the audit log");
    assert.match(text, /\*{8}/);
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit log: an unwritable log refuses writes (fail closed) but reads work", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir();
  const session = await spawnServer([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--audit-log",
    dir, // a directory cannot be appended to
  ]);
  try {
    assert.match(session.stderr(), /cannot be written/);
    const w = await callTool(session, "router_add_ip_address", {
      address: "10.6.6.1/24",
      interface: "ether1",
    });
    assert.equal(w.isError, true);
    assert.match(w.content[0].text, /audit log .* cannot be written/);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.6.6.1/24"));
    const r = await callTool(session, "router_list_ip_addresses");
    assert.equal(r.isError, undefined);
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});
