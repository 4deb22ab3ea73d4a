/**
 * The SSH series through MCP calls against simulators over real SSH: each
 * device's connection state (open, idle-closed, failed), attempts by
 * result, and a connection reopened after its idle close not counted as a
 * reconnect; and, with the device label off, the same series as fleet
 * totals.
 */
import assert from "node:assert/strict";
import { ServerMetrics } from "../lib/server/metrics.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { parseScrape } from "./helpers/prometheus.ts";

const LIST = "router_list_ip_addresses";
const STATES = "mcp_router_ssh_connections";
const CONNECTS = "mcp_router_ssh_connects_total";

async function fleet() {
  const good = await startSimulator();
  const locked = await startSimulator({ faults: { refuseAuth: true } });
  const inventory = JSON.stringify([
    { title: "good", host: good.host, port: good.port },
    { title: "locked", host: locked.host, port: locked.port },
  ]);
  return {
    args: ["--inventory", inventory, "--host-key-policy", "off", "--idle-timeout", "1"],
    close: async () => {
      await good.close();
      await locked.close();
    },
  };
}

Deno.test("metrics ssh: open, failed, idle-closed, and an idle reopen is no reconnect", async () => {
  const f = await fleet();
  const metrics = new ServerMetrics({ version: "test", perDevice: true });
  const s = await serveInProcess(f.args, {}, {}, { metrics });
  try {
    assert.equal((await callTool(s, LIST, { device: "good" })).isError, undefined);
    assert.equal((await callTool(s, LIST, { device: "locked" })).isError, true);
    let m = await parseScrape(await metrics.text());
    const state = (device: string, state: string) => m.value(STATES, { device, state });
    assert.equal(state("good", "open"), 1);
    assert.equal(state("good", "failed"), 0);
    assert.equal(state("locked", "failed"), 1);
    assert.equal(m.value(CONNECTS, { device: "good", result: "ok" }), 1);
    assert.equal(m.value(CONNECTS, { device: "locked", result: "auth-failed" }), 1);
    assert.equal(
      m.value("mcp_router_tool_calls_total", { tool: LIST, result: "ssh-error" }),
      1,
    );
    // --idle-timeout 1: the connection closes after a second without commands.
    for (let i = 0; i < 60 && state("good", "idle-closed") !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      m = await parseScrape(await metrics.text());
    }
    assert.equal(state("good", "idle-closed"), 1);
    assert.equal(state("good", "open"), 0);
    assert.equal((await callTool(s, LIST, { device: "good" })).isError, undefined);
    m = await parseScrape(await metrics.text());
    assert.equal(state("good", "open"), 1);
    assert.equal(m.value(CONNECTS, { device: "good", result: "ok" }), 2);
    assert.equal(m.value("mcp_router_ssh_reconnects_total", { device: "good" }), 0);
  } finally {
    await s.close();
    await f.close();
  }
});

Deno.test("metrics ssh: without the device label, states are counts of devices", async () => {
  const f = await fleet();
  const metrics = new ServerMetrics({ version: "test", perDevice: false });
  const s = await serveInProcess(f.args, {}, {}, { metrics });
  try {
    await callTool(s, LIST, { device: "good" });
    await callTool(s, LIST, { device: "locked" });
    const m = await parseScrape(await metrics.text());
    assert.equal(m.value(STATES, { state: "open" }), 1);
    assert.equal(m.value(STATES, { state: "failed" }), 1);
    assert.equal(m.value(STATES, { state: "connecting" }), 0);
    assert.equal(m.value(CONNECTS, { result: "ok" }), 1);
    assert.equal(m.value(CONNECTS, { result: "auth-failed" }), 1);
    assert.ok(
      !m.labelSets(STATES).some((l) => "device" in l),
      "no device label on any SSH series",
    );
  } finally {
    await s.close();
    await f.close();
  }
});
