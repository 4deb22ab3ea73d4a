/**
 * The metrics of the server process (`main.ts` spawned): `--metrics-port`
 * over stdio serves `/metrics` alone, behind the API keys when a keys file
 * is set, and its counters move with the calls made over stdio; over
 * streamable-http, `--metrics` serves it on the MCP port and
 * `--metrics-port` on its own.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, spawnServer } from "./helpers/mcp.ts";
import { scrape } from "./helpers/prometheus.ts";
import { simArgs, spawnHttp } from "./http_helpers.ts";

const PROM_KEY = "prometheus-key-0123456789";

/** The port of the `metrics on http://host:port/metrics` log line, once it is written. */
async function metricsPort(stderr: () => string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const m = /metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(stderr());
    if (m) return Number(m[1]);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no metrics line in the log:\n${stderr()}`);
}

Deno.test("metrics process: --metrics-port over stdio, behind the API keys", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "metrics-stdio-" });
  const keysFile = `${dir}/keys.yaml`;
  await Deno.writeTextFile(
    keysFile,
    `keys:\n  - {name: prometheus, hash: "${hashKey(PROM_KEY)}", role: metrics}\n`,
  );
  const s = await spawnServer([
    ...simArgs(sim),
    "--metrics-port",
    "0",
    "--mcp.api-keys-file",
    keysFile,
  ]);
  try {
    const url = `http://127.0.0.1:${await metricsPort(s.stderr)}/metrics`;
    for (let i = 0; i < 3; i++) {
      const r = await callTool(s, "router_list_ip_addresses");
      assert.equal(r.isError, undefined, r.content[0]?.text);
    }
    // An address the session does not depend on: a refusal for confirm, not a lock-out.
    assert.equal(sim.run("/ip address add address=10.99.9.1/24 interface=ether5").exitCode, 0);
    const id = sim.items("/ip/address").find((a) => a.address === "10.99.9.1/24")![".id"];
    const refused = await callTool(s, "router_remove_ip_address", { id });
    assert.equal(refused.isError, true);
    const anonymous = await fetch(url);
    await anonymous.body?.cancel();
    assert.equal(anonymous.status, 401, "keys are configured: a scraper needs one");
    const m = await scrape(url, PROM_KEY);
    const calls = "mcp_router_tool_calls_total";
    assert.equal(m.value(calls, { tool: "router_list_ip_addresses", result: "ok" }), 3);
    assert.equal(m.value(calls, { tool: "router_remove_ip_address", result: "refused" }), 1);
    assert.equal(m.value("mcp_router_guard_refusals_total", { guard: "confirm" }), 1);
    assert.equal(
      m.histogram("mcp_router_tool_call_duration_seconds", {
        tool: "router_list_ip_addresses",
      }).count,
      3,
    );
    assert.equal(
      m.value("mcp_router_ssh_connects_total", { device: sim.host, result: "ok" }),
      1,
      "one connection, reused",
    );
    assert.equal(m.value("mcp_router_ssh_connections", { device: sim.host, state: "open" }), 1);
    assert.equal(m.type("mcp_router_http_requests_total"), undefined, "stdio has no HTTP series");
    assert.ok(m.value("process_resident_memory_bytes") > 0);
  } finally {
    await s.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("metrics process: a taken --metrics-port stops a stdio server with one line", async () => {
  const sim = await startSimulator();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  // The metrics come with the core, once initialize is answered (it is not held up by them).
  const s = await spawnServer([...simArgs(sim), "--metrics-port", String(port)]);
  try {
    for (let i = 0; i < 200 && !/could not start/.test(s.stderr()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.match(
      s.stderr(),
      new RegExp(
        `the server could not start: cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} ` +
          "is already in use by another program; choose a free port with --metrics-port " +
          "\\(ROUTER_METRICS_PORT\\)",
      ),
    );
    assert.doesNotMatch(s.stderr(), /\n\s+at /, "no stack trace");
  } finally {
    taken.close();
    await s.close().catch(() => {});
    await sim.close();
  }
});

Deno.test("metrics process: --metrics on the MCP port and --metrics-port beside it", async () => {
  const sim = await startSimulator();
  const p = await spawnHttp("streamable-http", [
    ...simArgs(sim),
    "--metrics",
    "--metrics-port",
    "0",
  ]);
  try {
    const own = `http://127.0.0.1:${await metricsPort(p.stderr)}/metrics`;
    // Without keys, this machine only: the test is on it.
    const onMcpPort = await scrape(`${p.base}/metrics`);
    assert.equal(onMcpPort.type("mcp_router_http_requests_total"), "counter");
    const onOwnPort = await scrape(own);
    assert.equal(
      onOwnPort.value("mcp_router_http_requests_total", {
        route: "/metrics",
        method: "GET",
        status: "200",
      }),
      1,
      "one registry: the MCP port's scrape is counted, the metrics port's own are not",
    );
  } finally {
    assert.equal(await p.stop(), 0);
    await sim.close();
  }
});
