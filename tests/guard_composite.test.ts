/**
 * One guard chain for every call, nested ones included: composite tools
 * (`router_apply_changes`, `router_fleet_query`) reach only the selected
 * tools, pass read-only, confirm and secret rules like a direct call, and no
 * secret shows up in any channel (results, dry runs, errors, stderr logs,
 * the audit log) after direct and nested calls. Through MCP against the
 * simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf, spawnServer } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

/** Base64 of "SEKRET-key-for-tests-only-123456": a valid WireGuard key, easy to grep. */
const WG_KEY = "U0VLUkVULWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY=";
const PASSWORD = "Zq9-distinctive-Pa55";

Deno.test("composite tools reach only the selected tools, and nested calls meet confirm", async () => {
  const sim = await startSimulator();
  // An address the session does not depend on (removing the bridge's one is a lock-out too).
  assert.equal(sim.run("/ip address add address=10.99.9.1/24 interface=ether5").exitCode, 0);
  const changes = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "changes",
  ]);
  const all = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    const before = configOf(sim);
    const r = await callTool(changes, "router_apply_changes", {
      confirm: true,
      operations: [{
        tool: "router_add_user",
        arguments: { name: "intruder", group: "full", password: PASSWORD },
      }],
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /router_add_user/);
    assert.match(r.content[0].text, /users toolset/);
    assert.ok(!r.content[0].text.includes(PASSWORD));
    assert.equal(configOf(sim), before, "nothing was added");

    const id = sim.items("/ip/address").find((a) => a.address === "10.99.9.1/24")![".id"];
    const removal = await callTool(all, "router_apply_changes", {
      confirm: true,
      operations: [{ tool: "router_remove_ip_address", arguments: { id } }],
    });
    assert.equal(removal.isError, true);
    assert.match(
      removal.content[0].text,
      /router_remove_ip_address \(inside router_apply_changes\) is destructive\. It needs confirm: true/,
    );
    assert.equal(configOf(sim), before, "nothing was removed");
  } finally {
    await changes.close();
    await all.close();
    await sim.close();
  }
});

Deno.test("fleet query: read-only refuses nested writes, and secrets need --reveal-secrets", async () => {
  const sim = await startSimulator();
  sim.run(`/interface wireguard add name=wg-secret private-key="${WG_KEY}"`);
  const inventory = JSON.stringify([
    { title: "a", host: sim.host, port: sim.port },
    { title: "b", host: sim.host, port: sim.port },
  ]);
  const ro = await serveInProcess([
    "--inventory",
    inventory,
    "--toolsets",
    "fleet,files,system",
    "--read-only",
  ]);
  try {
    const exported = await callTool(ro, "router_fleet_query", {
      tool: "router_export_config",
      arguments: { show_sensitive: true },
    });
    assert.equal(exported.isError, true);
    assert.match(exported.content[0].text, /--reveal-secrets/);
    assert.ok(!JSON.stringify(exported).includes(WG_KEY), "no private key in the answer");

    const write = await callTool(ro, "router_fleet_query", {
      tool: "router_update_identity",
      arguments: { name: "pwned" },
    });
    assert.equal(write.isError, true);
    assert.match(
      write.content[0].text,
      /tool: "router_update_identity" is not one of the \d+ accepted values \("router_list_/,
    );
    assert.ok(write.content[0].text.length < 400, "one short sentence, not the whole list");
    assert.notEqual(sim.items("/system/identity")[0]?.name, "pwned");
  } finally {
    await ro.close();
    await sim.close();
  }
});

Deno.test("no secret in any channel after direct, dry-run, failed and nested calls", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "secrets-" });
  const audit = `${dir}/audit.jsonl`;
  const session = await spawnServer([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--audit-log",
    audit,
    "--log-level",
    "debug",
  ]);
  const answers: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await callTool(session, name, args);
    answers.push(r);
    return r;
  };
  try {
    await call("router_add_wireguard_interface", {
      name: "wg-test",
      private_key: WG_KEY,
      dry_run: true,
    });
    const added = await call("router_add_wireguard_interface", {
      name: "wg-test",
      private_key: WG_KEY,
    });
    assert.notEqual(added.isError, true, added.content[0].text);
    const dup = await call("router_add_wireguard_interface", {
      name: "wg-test",
      private_key: WG_KEY,
    });
    assert.equal(dup.isError, true, "a second interface of that name fails on the router");
    await call("router_list_wireguard_interfaces", {});
    await call("router_get_wireguard_interface", { name: "wg-test" });
    await call("router_update_wireguard_interface", { name: "wg-test", private_key: WG_KEY });
    await call("router_export_config", {});
    const nested = await call("router_apply_changes", {
      confirm: true,
      operations: [{
        tool: "router_add_user",
        arguments: { name: "nested", group: "read", password: PASSWORD },
      }],
    });
    assert.notEqual(nested.isError, true, nested.content[0].text);
    await call("router_commit_changes", {
      change_id: (nested.structuredContent as { change_id: string }).change_id,
    });
    const failing = await call("router_apply_changes", {
      confirm: true,
      operations: [{
        tool: "router_add_user",
        arguments: { name: "nested", group: "no-such-group", password: PASSWORD },
      }],
    });
    assert.equal(failing.isError, true);
    await call("router_add_user", {
      name: "dry",
      group: "read",
      password: PASSWORD,
      dry_run: true,
    });

    // The secrets did reach the router...
    assert.ok(sim.items("/interface/wireguard").some((w) => w["private-key"] === WG_KEY));
    assert.ok(sim.items("/user").some((u) => u.name === "nested"));
    // ...and nowhere else.
    const channels = {
      answers: JSON.stringify(answers),
      stderr: session.stderr(),
      audit: await Deno.readTextFile(audit),
    };
    assert.ok(channels.audit.includes("router_add_user"), "the nested call is audited");
    assert.ok(channels.audit.includes('"parent":"router_apply_changes"'));
    for (const [channel, text] of Object.entries(channels)) {
      for (const secret of [WG_KEY, PASSWORD, "SEKRET-key"]) {
        assert.ok(!text.includes(secret), `${channel} shows ${secret}`);
      }
    }
  } finally {
    await session.close();
    await sim.close();
    if (!Deno.env.get("KEEP")) await Deno.remove(dir, { recursive: true });
    else console.error(dir);
  }
});
