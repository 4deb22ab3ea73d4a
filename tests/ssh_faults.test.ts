/**
 * The SSH layer under the simulator's fault injection, through MCP calls:
 * connection reuse, drops mid-command (a read retried once, a write never),
 * hung commands, and the typed connect errors (refused, DNS, timeout).
 */
import assert from "node:assert/strict";
import net from "node:net";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, spawnServer } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const LIST = "router_list_ip_addresses";
const ADD = "router_add_ip_address";

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

Deno.test("ssh faults: reuse, drops, hangs and connect errors through MCP", async (t) => {
  const sim = await startSimulator();
  const slow = await startSimulator({ faults: { slowHandshakeMs: 5000 } });
  const inventory = [
    { title: "r1", host: sim.host, port: sim.port, command_timeout: 1 },
    { title: "r2", host: sim.host, port: sim.port, command_timeout: 1 },
    { title: "closed", host: "127.0.0.1", port: await closedPort() },
    { title: "nowhere", host: "no-such-router.invalid", port: 22 },
    { title: "slow", host: slow.host, port: slow.port, connect_timeout: 0.3 },
  ];
  const s = await spawnServer(["--inventory", JSON.stringify(inventory)]);
  const list = (device = "r1") => callTool(s, LIST, { device });
  try {
    await t.step("100 calls open one connection, each on a pre-opened channel", async () => {
      for (let i = 0; i < 100; i++) {
        const r = await list();
        assert.equal(r.isError, undefined, r.content[0]?.text);
      }
      assert.equal(sim.counters.connections, 1);
      assert.equal(sim.counters.execChannels, 101, "version detection + 100 reads");
      // One spare channel is always open ahead of need, and no channel is wasted.
      assert.equal(sim.counters.sessionChannels, sim.counters.execChannels + 1);
    });

    await t.step("a read dropped mid-command is retried once on a new connection", async () => {
      sim.faults.dropAfterCommands = sim.counters.commands + 1;
      const r = await list();
      sim.faults.dropAfterCommands = 0;
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal(sim.counters.connections, 2);
      assert.match(s.stderr(), /connection lost during \/ip\/address; running it again/);
    });

    await t.step("a write dropped mid-command is not retried: outcome unknown", async () => {
      // How many commands an add takes (reads, then the write last), on r1
      // once its version is known.
      assert.equal((await list("r1")).isError, undefined);
      let commands = sim.counters.commands;
      await callTool(s, ADD, { device: "r1", address: "10.6.6.1/24", interface: "ether1" });
      const perAdd = sim.counters.commands - commands;
      // r2 is a new connection: version detection and a read, then the add's
      // commands, the last of which (the write) is dropped.
      const connections = sim.counters.connections;
      assert.equal((await list("r2")).isError, undefined);
      sim.faults.dropAfterCommands = 2 + perAdd;
      commands = sim.counters.commands;
      const r = await callTool(s, ADD, {
        device: "r2",
        address: "10.7.7.1/24",
        interface: "ether1",
      });
      sim.faults.dropAfterCommands = 0;
      assert.equal(r.isError, true);
      const text = r.content[0].text;
      assert.match(text, /device "r2" \(127\.0\.0\.1:\d+\)/);
      assert.match(text, /connection was lost while running \/ip\/address/);
      assert.match(text, /outcome of this write is unknown/);
      assert.match(text, /Read it back with router_list_ip_addresses before retrying/);
      assert.equal(text.match(/outcome/g)?.length, 1, "said once");
      assert.equal(sim.counters.commands, commands + perAdd, "the write was sent once");
      assert.equal(sim.counters.connections, connections + 1, "no reconnection to retry it");
      const next = await list("r2");
      assert.equal(next.isError, undefined, next.content[0]?.text);
      assert.equal(sim.counters.connections, connections + 2, "the next call reconnects");
    });

    await t.step("a hung read times out with device, menu and timeout named", async () => {
      const ok = await list(); // the version is known on this connection
      assert.equal(ok.isError, undefined, ok.content[0]?.text);
      const connections = sim.counters.connections;
      sim.faults.hang = /\/ip.address.print/;
      const r = await list();
      sim.faults.hang = false;
      assert.equal(r.isError, true);
      const text = r.content[0].text;
      assert.match(text, /device "r1" \(127\.0\.0\.1:\d+\)/);
      assert.match(text, /\/ip\/address did not answer within 1 s/);
      assert.doesNotMatch(text, /outcome/, "a read's outcome does not matter");
      assert.match(text, /This read changed nothing on the router; it can be retried\.$/);
      const next = await list();
      assert.equal(next.isError, undefined, next.content[0]?.text);
      assert.equal(sim.counters.connections, connections + 1, "the next call reconnects");
    });

    await t.step("a hung write times out and says the outcome is unknown", async () => {
      sim.faults.hang = /\/ip address add /; // the write, not the lock-out guard's reads
      const r = await callTool(s, ADD, {
        device: "r1",
        address: "10.7.7.2/24",
        interface: "ether1",
      });
      sim.faults.hang = false;
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /did not answer within 1 s/);
      assert.match(r.content[0].text, /outcome of this write is unknown/);
      assert.equal(r.content[0].text.match(/outcome/g)?.length, 1, "said once");
      const next = await list();
      assert.equal(next.isError, undefined, next.content[0]?.text);
    });

    await t.step("connection refused", async () => {
      const r = await list("closed");
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /device "closed" \(127\.0\.0\.1:\d+\): connection refused/);
    });

    await t.step("DNS failure", async () => {
      const r = await list("nowhere");
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        /device "nowhere" \(no-such-router\.invalid:22\): the host name could not be resolved/,
      );
    });

    await t.step("per-device connect timeout on a slow handshake", async () => {
      const r = await list("slow");
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        /device "slow" \(127\.0\.0\.1:\d+\): connected, but no SSH banner came within 0\.3 s/,
      );
    });
  } finally {
    await s.close();
    await sim.close();
    await slow.close();
  }
});

Deno.test("ssh faults: a version probe that times out says nothing was changed", async () => {
  const sim = await startSimulator({ faults: { hang: /system resource get version/ } });
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--command-timeout",
    "1",
  ]);
  try {
    for (
      const [name, args] of [[LIST, {}], [ADD, { address: "10.9.9.1/24", interface: "ether2" }]]
    ) {
      const r = await callTool(session, name as string, args as Record<string, unknown>);
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /version probe/);
      assert.match(
        r.content[0].text,
        name === LIST
          ? /This read changed nothing on the router/
          : /It was not sent: nothing was changed/,
      );
      assert.doesNotMatch(r.content[0].text, /outcome unknown|may have been applied/i);
    }
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.9.9.1/24"));
  } finally {
    await session.close();
    await sim.close();
  }
});
