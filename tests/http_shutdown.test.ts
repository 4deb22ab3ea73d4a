/**
 * Graceful shutdown as a real process: on SIGTERM (or SIGINT) the server
 * stops accepting connections, lets the call in flight finish with its
 * answer, closes open sessions and event streams, and exits 0.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { connect, simArgs, spawnHttp } from "./http_helpers.ts";

async function refused(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return false;
  } catch (err) {
    return err instanceof Deno.errors.ConnectionRefused;
  }
}

Deno.test("http shutdown: SIGTERM lets the call in flight finish, then exits 0", async () => {
  const sim = await startSimulator();
  const server = await spawnHttp("streamable-http", simArgs(sim));
  const client = await connect("streamable-http", `${server.base}/mcp`);
  const idle = await connect("streamable-http", `${server.base}/mcp`); // an open session with a GET stream
  try {
    await client.callTool({ name: "router_list_ip_addresses", arguments: {} }); // warm SSH
    sim.faults.latencyMs = 1500;
    const commands = sim.counters.commands;
    const call = client.callTool({ name: "router_list_ip_addresses", arguments: {} });
    for (let i = 0; i < 200 && sim.counters.commands === commands; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(sim.counters.commands > commands, "the call reached the router");
    Deno.kill(server.pid, "SIGTERM");
    for (let i = 0; i < 100 && !(await refused(server.port)); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(await refused(server.port), "no new connections while draining");
    const result = await call;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const items = (result.structuredContent as { items: { address: string }[] }).items;
    assert.deepEqual(items.map((i) => i.address), ["192.168.88.1/24"]);
    const status = await server.status;
    assert.equal(status.code, 0, server.stderr());
    assert.match(server.stderr(), /SIGTERM: shutting down/);
    assert.match(server.stderr(), /info: stopped/);
  } finally {
    await client.close().catch(() => {});
    await idle.close().catch(() => {});
    await server.stop();
    await sim.close();
  }
});

Deno.test("http shutdown: SIGINT with an open SSE stream exits 0", async () => {
  const sim = await startSimulator();
  const server = await spawnHttp("sse", simArgs(sim));
  const client = await connect("sse", `${server.base}/sse`);
  try {
    await client.callTool({ name: "router_list_ip_addresses", arguments: {} });
    assert.equal(await server.stop("SIGINT"), 0, server.stderr());
    assert.match(server.stderr(), /SIGINT: shutting down/);
  } finally {
    await client.close().catch(() => {});
    await sim.close();
  }
});
