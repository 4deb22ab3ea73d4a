/**
 * Secrets given to `router_run_command`: masked in the audit log (its
 * arguments and the commands sent), in dry runs and in refusals, through
 * MCP against the simulator; a password in a script, a bearer token in an
 * HTTP header and a password held in a variable first included; and a
 * RouterOS 6 name 7 renamed: OSPF's `authentication-key` (7: `auth-key`),
 * which the third hostile re-test of issue 31 found in clear in the audit
 * log (the intent line is written before the command is sent, whatever the
 * router's release).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("raw commands: a password is masked in the audit log, the dry run and the refusal", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--allow-raw-commands",
    "--audit-log",
    audit,
  ]);
  try {
    const secrets = [
      "Raw-Secret-77 x",
      "Raw-Dry-88",
      "Raw-Refused-66",
      'In\\"Script-55',
      "Header-Tok-44",
      "Var-Held-33",
      "Audit6-Key",
    ];
    const sent = await callTool(session, "router_run_command", {
      command: '/user add name=rawu group=read password="Raw-Secret-77 x"',
      confirm: true,
    });
    assert.equal(sent.isError, undefined, sent.content[0]?.text);
    assert.ok(sim.items("/user").some((u) => u.name === "rawu"), "the command ran");

    const dry = await callTool(session, "router_run_command", {
      command: "/user set rawu password=Raw-Dry-88",
      dry_run: true,
    });
    assert.equal(dry.isError, undefined, dry.content[0]?.text);
    assert.match(dry.content[0].text, /password=\*{8}/);

    const refused = await callTool(session, "router_run_command", {
      command: "/user set rawu password=Raw-Refused-66",
    });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /needs confirm: true/);

    const scripted = await callTool(session, "router_run_command", {
      command:
        '/system script add name=s1 source="/user set rawu password=\\"In\\\\\\"Script-55\\""',
      confirm: true,
    });
    assert.equal(scripted.isError, undefined, scripted.content[0]?.text);

    // A bearer token in a header, and a password held in a variable first (dry runs).
    const header = await callTool(session, "router_run_command", {
      command: '/tool fetch url="https://api.example.com/x" ' +
        'http-header-field="Authorization: Bearer Header-Tok-44" output=user',
      dry_run: true,
    });
    assert.equal(header.isError, undefined, header.content[0]?.text);
    assert.match(header.content[0].text, /Authorization: Bearer \*{8}/);
    const held = await callTool(session, "router_run_command", {
      command: ':local pw "Var-Held-33"; /user set rawu password=$pw',
      dry_run: true,
    });
    assert.equal(held.isError, undefined, held.content[0]?.text);

    const ospf6 = await callTool(session, "router_run_command", {
      command: "/routing ospf interface set 0 authentication=md5 authentication-key=Audit6-Key",
      confirm: true,
    });
    assert.ok(ospf6.content[0]?.text, "the call answered (RouterOS 7 has no such menu)");

    const log = await Deno.readTextFile(audit);
    const lines = log.trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(lines.some((l) => String(l.arguments?.command).includes('password="********"')));
    assert.match(log, /authentication-key=\*{8}/, "the OSPF command was audited, masked");
    const outputs = [
      log,
      dry.content[0].text,
      refused.content[0].text,
      header.content[0].text,
      held.content[0].text,
    ];
    for (const secret of secrets) {
      for (const [i, text] of outputs.entries()) {
        assert.ok(!text.includes(secret), `${secret} is not in output #${i}: ${text}`);
        assert.ok(!text.includes(JSON.stringify(secret).slice(1, -1)), `${secret} (as JSON)`);
      }
    }
    assert.ok(!log.includes("Script-55"), "the password inside the script is masked too");
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});
