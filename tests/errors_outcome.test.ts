/**
 * What a failed call says about its outcome, for every fault class, reads
 * and writes apart: a read says it changed nothing and can be retried,
 * never that "the outcome of this write is unknown"; a write whose command
 * may have run (timeout or drop after it was sent, an answer that could not
 * be understood) says its outcome is unknown and names the tool that reads
 * it back, never "nothing is assumed"; a write that certainly did not run
 * (not sent, refused by RouterOS) says nothing was changed. Through MCP
 * against the simulator's fault injection.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, type McpSession } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const LIST = "router_list_ip_addresses";
const ADD = "router_add_ip_address";
const READ_OK = /This read changed nothing on the router; it can be retried\.$/;
const UNKNOWN =
  /The outcome of this write is unknown: it may have been applied\. Read it back with router_list_ip_addresses before retrying\.$/;

async function text(session: McpSession, name: string, args: Record<string, unknown>) {
  if (Deno.env.get("SHOW")) console.error("");
  const r = await callTool(session, name, args);
  assert.equal(r.isError, true, `${name} succeeded: ${r.content[0].text}`);
  if (Deno.env.get("SHOW")) console.error(r.content[0].text);
  return r.content[0].text;
}

/** Not said of a read. */
function notAWrite(t: string) {
  assert.doesNotMatch(t, /outcome|write|read .* back/i, t);
}

Deno.test("errors say what a failed call changed, for each fault, reads and writes apart", async (t) => {
  const sim = await startSimulator();
  const slow = await startSimulator({ faults: { slowHandshakeMs: 5000 } });
  const inventory = [
    { title: "r1", host: sim.host, port: sim.port, command_timeout: 1 },
    { title: "slow", host: slow.host, port: slow.port, connect_timeout: 0.3 },
  ];
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
  const add = (address: string) => ({ device: "r1", address, interface: "ether1" });
  const added = (address: string) => sim.items("/ip/address").some((a) => a.address === address);
  try {
    assert.equal((await callTool(session, LIST, { device: "r1" })).isError, undefined);

    await t.step("read: timeout after it was sent", async () => {
      sim.faults.hang = /\/ip.address.print/;
      const m = await text(session, LIST, { device: "r1" });
      sim.faults.hang = false;
      assert.match(m, /did not answer within 1 s/);
      assert.match(m, READ_OK);
      notAWrite(m.replace(READ_OK, ""));
    });

    await t.step("read: connection lost (after its retry)", async () => {
      assert.equal((await callTool(session, LIST, { device: "r1" })).isError, undefined);
      // Every connection drops at its first command: the read, and its retry.
      sim.faults.dropAfterCommands = 1;
      const m = await text(session, LIST, { device: "r1" });
      sim.faults.dropAfterCommands = 0;
      assert.match(m, /connection was lost/);
      assert.match(m, READ_OK);
      notAWrite(m.replace(READ_OK, ""));
    });

    await t.step("read: an answer that cannot be understood", async () => {
      assert.equal((await callTool(session, LIST, { device: "r1" })).isError, undefined);
      sim.faults.garble = (cmd, out) => cmd.includes("/ip address") ? "\u0007garbage\r\n" : out;
      const m = await text(session, LIST, { device: "r1" });
      sim.faults.garble = undefined;
      assert.match(m, /garbage/);
      assert.match(m, READ_OK);
      assert.doesNotMatch(m, /nothing is assumed/);
      notAWrite(m.replace(READ_OK, ""));
    });

    await t.step("read: a RouterOS error", async () => {
      sim.faults.garble = (cmd, out) =>
        cmd.includes("/ip address") ? "failure: out of memory\r\n" : out;
      const m = await text(session, LIST, { device: "r1" });
      sim.faults.garble = undefined;
      assert.match(m, /failure: out of memory/);
      assert.match(m, /This read changed nothing on the router\./);
      notAWrite(m);
    });

    await t.step("read: connect timeout (nothing sent)", async () => {
      const m = await text(session, LIST, { device: "slow" });
      assert.match(m, /no SSH banner came within 0\.3 s/);
      assert.match(m, READ_OK);
      notAWrite(m.replace(READ_OK, ""));
    });

    await t.step("write: timeout after it was sent", async () => {
      sim.faults.hang = /\/ip address add /; // the write, not the lock-out guard's reads
      const m = await text(session, ADD, add("10.81.0.1/24"));
      sim.faults.hang = false;
      assert.match(m, /did not answer within 1 s/);
      assert.match(m, UNKNOWN);
      assert.equal(m.match(/outcome/g)?.length, 1, `said once: ${m}`);
    });

    await t.step("write: connection lost after it was sent", async () => {
      assert.equal((await callTool(session, LIST, { device: "r1" })).isError, undefined);
      sim.faults.dropAfterCommands = 2;
      const m = await text(session, ADD, add("10.82.0.1/24"));
      sim.faults.dropAfterCommands = 0;
      assert.match(m, /connection was lost while running/);
      assert.match(m, UNKNOWN);
      assert.equal(m.match(/outcome/g)?.length, 1, `said once: ${m}`);
    });

    await t.step("write: an answer that cannot be understood, after it ran", async () => {
      assert.equal((await callTool(session, LIST, { device: "r1" })).isError, undefined);
      sim.faults.garble = (cmd, out) => cmd.includes(" add ") ? "\u0007garbage\r\n" : out;
      const m = await text(session, ADD, add("10.83.0.1/24"));
      sim.faults.garble = undefined;
      assert.ok(added("10.83.0.1/24"), "the write ran");
      assert.match(m, /garbage/);
      assert.doesNotMatch(m, /nothing is assumed/);
      assert.match(m, UNKNOWN);
    });

    await t.step("write: refused by RouterOS", async () => {
      sim.faults.garble = (cmd, out) =>
        cmd.includes(" add ") ? "failure: already have such address\r\n" : out;
      const m = await text(session, ADD, add("10.84.0.1/24"));
      sim.faults.garble = undefined;
      assert.match(m, /failure: already have such address/);
      assert.match(m, /RouterOS refused it, so nothing was changed\./);
      assert.doesNotMatch(m, /outcome/);
    });

    await t.step(
      "a change whose operation's outcome is unknown undoes it with the rest",
      async () => {
        sim.faults.hang = /\/ip address add address="?10\.86\.0\.2/;
        const m = await text(session, "router_apply_changes", {
          device: "r1",
          confirm: true,
          operations: [
            { tool: ADD, arguments: { address: "10.86.0.1/24", interface: "ether1" } },
            { tool: ADD, arguments: { address: "10.86.0.2/24", interface: "ether1" } },
          ],
        });
        sim.faults.hang = false;
        assert.match(
          m,
          /operation 2 \(router_add_ip_address\) failed: .*did not answer within 1 s/,
        );
        assert.match(
          m,
          /Its outcome is unknown: it and the 1 operation\(s\) applied before it were rolled back\.$/,
        );
        assert.equal(m.match(/outcome/g)?.length, 1, `said once: ${m}`);
        assert.ok(!added("10.86.0.1/24") && !added("10.86.0.2/24"), "both undone");
        assert.ok(!sim.items("/system/scheduler").some((j) => j.name.startsWith("mcp-revert-")));
      },
    );

    await t.step("write: not sent (connect timeout)", async () => {
      const m = await text(session, ADD, { ...add("10.85.0.1/24"), device: "slow" });
      assert.match(m, /no SSH banner came within 0\.3 s/);
      assert.match(m, /It was not sent: nothing was changed; it can be retried\./);
      assert.doesNotMatch(m, /outcome/);
    });
  } finally {
    await session.close();
    await sim.close();
    await slow.close();
  }
});
