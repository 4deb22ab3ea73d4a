/**
 * `dry_run` and `confirm` are arguments like any other: a JSON boolean or
 * absent. Anything else (`"true"`, `1`, `"yes"`, `[true]`, `"false"`, `0`,
 * `null`) is an argument error naming the field, before anything is read or
 * sent: a `dry_run: "true"` that ran the write for real, or a `confirm: 1`
 * that passed the confirm guard, cannot happen. Read tools take neither.
 * Through MCP (in process, and streamable HTTP) against the simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { connect, startInProcess } from "./http_helpers.ts";

const NOT_BOOLEANS: unknown[] = ["true", 1, "yes", [true], "false", 0, null, {}, "1"];

Deno.test("dry_run and confirm take a JSON boolean only; nothing is read or sent otherwise", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    // The version is known: a refusal shows as no command at all.
    assert.equal((await callTool(session, "router_list_ip_addresses")).isError, undefined);
    assert.equal(sim.run("/ip address add address=10.99.9.1/24 interface=ether5").exitCode, 0);
    const before = configOf(sim);
    const commands = sim.counters.commands;
    // An address the session does not depend on (removing the bridge's one is a lock-out too).
    const id = sim.items("/ip/address").find((a) => a.address === "10.99.9.1/24")![".id"];
    for (const value of NOT_BOOLEANS) {
      for (
        const [tool, args, field] of [
          ["router_update_identity", { name: "renamed", dry_run: value }, "dry_run"],
          ["router_remove_ip_address", { id, confirm: value }, "confirm"],
          ["router_remove_ip_address", { id, confirm: true, dry_run: value }, "dry_run"],
          ["router_update_identity", { name: "renamed", confirm: value }, "confirm"],
        ] as const
      ) {
        const r = await callTool(session, tool, args);
        const text = r.content[0].text;
        assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)} ran: ${text}`);
        assert.match(text, new RegExp(`invalid arguments: ${field}: must be true or false`), text);
        assert.match(text, /Nothing was sent\.$/);
      }
    }
    assert.equal(sim.counters.commands, commands, "no command reached the router");
    assert.equal(configOf(sim), before, "nothing changed");

    // Read tools take neither, whatever the value.
    for (const args of [{ dry_run: true }, { confirm: false }, { dry_run: "true" }]) {
      const r = await callTool(session, "router_list_ip_addresses", args);
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /only reads: it takes no dry_run or confirm/);
    }

    // Booleans keep working: false is "no", true is "yes".
    const dry = await callTool(session, "router_update_identity", { name: "x", dry_run: true });
    assert.equal(dry.isError, undefined, dry.content[0].text);
    assert.match(dry.content[0].text, /^dry run: nothing was changed/);
    const refused = await callTool(session, "router_remove_ip_address", { id, confirm: false });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /is destructive\. It needs confirm: true/);
    const real = await callTool(session, "router_update_identity", {
      name: "renamed",
      dry_run: false,
    });
    assert.equal(real.isError, undefined, real.content[0].text);
    assert.equal(sim.items("/system/identity")[0].name, "renamed");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a string dry_run over streamable HTTP is refused too", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim);
  const client = await connect("streamable-http", `${server.base}/mcp`);
  try {
    await client.callTool({ name: "router_enable_toolsets", arguments: { toolsets: ["system"] } });
    const before = configOf(sim);
    const r = await client.callTool({
      name: "router_update_identity",
      arguments: { name: "over-http", dry_run: "true" },
    }) as { isError?: boolean; content: { text: string }[] };
    assert.equal(r.isError, true, r.content[0].text);
    assert.match(r.content[0].text, /dry_run: must be true or false/);
    assert.equal(configOf(sim), before);
  } finally {
    await client.close();
    await server.close();
    await sim.close();
  }
});
