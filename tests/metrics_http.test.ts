/**
 * `/metrics` on the HTTP transport, in this process against the simulator
 * over real SSH: scraped and read by an independent Prometheus-format
 * parser, its counters move by exactly what the calls did (ok calls, a
 * refusal by each of two guards, a nested refusal told once, an unknown
 * tool name, a timeout against a hung router and the reconnect after it,
 * audit lines, HTTP requests); and who may scrape (401 without a key, 403
 * for a scoped key, a metrics key refused on /mcp).
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { KeyStore } from "../lib/auth/key_store.ts";
import { loadConfigAsync } from "../lib/config/load.ts";
import type { AuthOptions } from "../lib/http/authenticate.ts";
import { setLogLevel } from "../lib/log.ts";
import { prepareServer } from "../lib/server/core.ts";
import { type HttpServer, LOCAL_ONLY, startHttp } from "../lib/server/http/serve.ts";
import { buildServer } from "../lib/server/mcp.ts";
import { startMetricsServer } from "../lib/server/metrics_endpoint.ts";
import { ServerMetrics } from "../lib/server/metrics.ts";
import { createMetrics } from "../lib/server/metrics_setup.ts";
import { openAuditLog } from "../lib/server/safety/audit_log.ts";
import { chooseToolsets } from "../lib/server/toolset_choice.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";
import { authClient, rawTo, textOf } from "./http_auth_helpers.ts";
import { parseScrape, type Scrape, scrape } from "./helpers/prometheus.ts";

const KEYS = {
  admin: "admin-key-0123456789",
  reader: "reader-key-0123456789",
  prom: "prometheus-key-0123456789",
  lab: "lab-reader-key-0123456789",
};

const LIST = "router_list_ip_addresses";
const ADD = "router_add_ip_address";

/** A fleet server (r1 with a 1 s command timeout, r2) with `/metrics` and an audit log. */
async function startServer(sim: { host: string; port: number }) {
  setLogLevel("error");
  const dir = await Deno.makeTempDir({ prefix: "metrics-http-" });
  const keysFile = `${dir}/keys.yaml`;
  await Deno.writeTextFile(
    keysFile,
    [
      "keys:",
      `  - {name: admin, hash: "${hashKey(KEYS.admin)}", role: admin}`,
      `  - {name: reader, hash: "${hashKey(KEYS.reader)}", role: read}`,
      `  - {name: prometheus, hash: "${hashKey(KEYS.prom)}", role: metrics}`,
      `  - {name: lab, hash: "${hashKey(KEYS.lab)}", role: read, tags: [lab]}`,
    ].join("\n") + "\n",
  );
  const inventory = JSON.stringify([
    { title: "r1", host: sim.host, port: sim.port, command_timeout: 1, tags: ["lab"] },
    { title: "r2", host: sim.host, port: sim.port },
  ]);
  const config = await loadConfigAsync(
    {
      inventory,
      "host-key-policy": "off",
      "known-hosts": `${dir}/known_hosts`,
      "state-dir": `${dir}/state`,
      "audit-log": `${dir}/audit.log`,
      toolsets: "all",
      metrics: true,
    },
    {},
    { toolsets: TOOLSETS },
  );
  const audit = await openAuditLog(config.settings["audit-log"]);
  const metrics = createMetrics(config.settings, "test", audit);
  const { devices, core } = prepareServer(config, audit, { metrics });
  const store = await KeyStore.open(keysFile);
  const auth: AuthOptions = { ...LOCAL_ONLY, keys: [store] };
  let http: HttpServer;
  try {
    http = await startHttp({
      transport: "streamable-http",
      hostname: "127.0.0.1",
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      stateless: false,
      sessionTimeout: 1800,
      newServer: () =>
        buildServer({ name: "metrics-test", version: "0" }, chooseToolsets(config.settings), core),
      auth,
      metrics,
      metricsRoute: true,
      limits: { headerTimeoutMs: 1000, idleTimeoutMs: 60_000, maxPerPeer: 32 },
    });
  } catch (err) {
    store.close();
    await devices.close();
    throw err;
  }
  const base = `http://127.0.0.1:${http.addr.port}`;
  return {
    http,
    base,
    metricsUrl: `${base}/metrics`,
    /** Lines of the audit log, by kind. */
    auditLines: async (kind: string) =>
      (await Deno.readTextFile(`${dir}/audit.log`).catch(() => "")).split("\n").filter(Boolean)
        .filter((l) => JSON.parse(l).kind === kind).length,
    close: async () => {
      store.close();
      await http.shutdown(1000);
      await devices.close();
      await audit?.settle();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The change of every named sample between two scrapes. */
function delta(before: Scrape, after: Scrape) {
  return {
    value: (name: string, labels: Record<string, string> = {}) =>
      after.value(name, labels) - before.value(name, labels),
    count: (name: string, labels: Record<string, string> = {}) =>
      after.histogram(name, labels).count - before.histogram(name, labels).count,
  };
}

const CALLS = "mcp_router_tool_calls_total";
const LATENCY = "mcp_router_tool_call_duration_seconds";
const REFUSALS = "mcp_router_guard_refusals_total";

Deno.test("metrics over HTTP: counters move with calls, read by an independent parser", async (t) => {
  const sim = await startSimulator();
  sim.run("/ip address add address=10.3.3.1/24 interface=ether2");
  const id = sim.items("/ip/address").find((a) => a.address === "10.3.3.1/24")![".id"];
  const server = await startServer(sim);
  const mcp = `${server.base}/mcp`;
  const reader = await authClient("streamable-http", mcp, KEYS.reader);
  const admin = await authClient("streamable-http", mcp, KEYS.admin);
  const call = (client: typeof reader, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean }>;
  try {
    await t.step("the series and their types", async () => {
      const s = await scrape(server.metricsUrl, KEYS.prom);
      assert.equal(s.type(CALLS), "counter");
      assert.equal(s.type(LATENCY), "histogram");
      assert.equal(s.type(REFUSALS), "counter");
      assert.equal(s.type("mcp_router_ssh_connections"), "gauge");
      assert.equal(s.type("mcp_router_ssh_connects_total"), "counter");
      assert.equal(s.type("mcp_router_audit_write_seconds"), "histogram");
      assert.equal(s.type("mcp_router_http_requests_total"), "counter");
      assert.equal(s.type("mcp_router_http_sessions"), "gauge");
      assert.equal(s.type("process_resident_memory_bytes"), "gauge");
      assert.equal(s.type("nodejs_eventloop_lag_p99_seconds"), "gauge");
      assert.equal(s.type("nodejs_active_handles"), undefined, "Deno leaves it empty");
      assert.ok(s.value("process_resident_memory_bytes") > 10_000_000);
      assert.doesNotMatch(s.text, /^process_(?!cpu)\w+ 0$/m, "no process series reads as zero");
      assert.equal(s.labelSets("mcp_router_build_info")[0].version, "test");
      assert.equal(s.value("mcp_router_http_sessions"), 2, "the reader's and the admin's");
    });

    await t.step("calls, refusals and an unknown tool, each counted exactly", async () => {
      const before = await scrape(server.metricsUrl, KEYS.prom);
      for (let i = 0; i < 5; i++) {
        assert.equal((await call(reader, LIST, { device: "r1" })).isError, undefined);
      }
      // The role guard: a read key calling a write.
      const role = await call(reader, ADD, {
        device: "r1",
        address: "10.9.9.1/24",
        interface: "ether1",
      });
      assert.equal(role.isError, true);
      // The confirm guard: a destructive call without confirm.
      const confirm = await call(admin, "router_remove_ip_address", { device: "r1", id });
      assert.equal(confirm.isError, true);
      assert.match(textOf(confirm), /needs confirm: true/);
      // A nested refusal is one refusal, though its composite is refused too.
      const nested = await call(admin, "router_apply_changes", {
        device: "r1",
        confirm: true,
        operations: [{ tool: "router_remove_ip_address", arguments: { id } }],
      });
      assert.equal(nested.isError, true);
      // A name no tool has: counted under one bounded label.
      const unknown = await call(reader, "router_no_such_tool_x", {});
      assert.equal(unknown.isError, true);
      const after = await scrape(server.metricsUrl, KEYS.prom);
      const d = delta(before, after);
      assert.equal(d.value(CALLS, { tool: LIST, result: "ok" }), 5);
      assert.equal(d.count(LATENCY, { tool: LIST }), 5);
      assert.equal(d.value(CALLS, { tool: ADD, result: "refused" }), 1);
      // The nested removal is refused as its composite checks it, before it would run.
      assert.equal(d.value(CALLS, { tool: "router_remove_ip_address", result: "refused" }), 1);
      assert.equal(d.value(CALLS, { tool: "router_apply_changes", result: "refused" }), 1);
      assert.equal(d.value(CALLS, { tool: "(unknown)", result: "refused" }), 1);
      assert.equal(d.value(REFUSALS, { guard: "role" }), 1);
      assert.equal(d.value(REFUSALS, { guard: "confirm" }), 2, "the direct one and the nested one");
      assert.equal(d.value(REFUSALS, { guard: "selection" }), 1);
      assert.ok(
        !after.labelSets(CALLS).some((l) => l.tool === "router_no_such_tool_x"),
        "a client's name never becomes a label",
      );
      const h = after.histogram(LATENCY, { tool: LIST });
      assert.ok(h.sum > 0 && h.sum < 30, `latency sum ${h.sum} s`);
      assert.ok(h.buckets["60"] === h.count && h.buckets["0.0005"] <= h.count);
    });

    await t.step("a hung router: a timeout, then a reconnect", async () => {
      const before = await scrape(server.metricsUrl, KEYS.prom);
      assert.equal(before.value("mcp_router_ssh_connections", { device: "r1", state: "open" }), 1);
      sim.faults.hang = /\/ip.address.print/;
      const hung = await call(reader, LIST, { device: "r1" });
      sim.faults.hang = false;
      assert.equal(hung.isError, true);
      assert.equal((await call(reader, LIST, { device: "r1" })).isError, undefined);
      const after = await scrape(server.metricsUrl, KEYS.prom);
      const d = delta(before, after);
      assert.equal(d.value(CALLS, { tool: LIST, result: "timeout" }), 1);
      assert.equal(d.value(CALLS, { tool: LIST, result: "ok" }), 1);
      assert.equal(d.value("mcp_router_ssh_command_timeouts_total", { device: "r1" }), 1);
      assert.equal(d.value("mcp_router_ssh_reconnects_total", { device: "r1" }), 1);
      assert.equal(d.value("mcp_router_ssh_connects_total", { device: "r1", result: "ok" }), 1);
      assert.equal(after.value("mcp_router_ssh_connections", { device: "r1", state: "open" }), 1);
      assert.equal(after.value("mcp_router_ssh_connections", { device: "r1", state: "lost" }), 0);
      assert.equal(after.value("mcp_router_ssh_dial_queue_length"), 0);
    });

    await t.step("audit writes: one sample per line on disk", async () => {
      const before = await scrape(server.metricsUrl, KEYS.prom);
      const intents = await server.auditLines("intent");
      const outcomes = await server.auditLines("outcome");
      const dry = await call(admin, ADD, {
        device: "r2",
        address: "10.8.8.1/24",
        interface: "ether1",
        dry_run: true,
      });
      assert.equal(dry.isError, undefined);
      const real = await call(admin, ADD, {
        device: "r2",
        address: "10.8.8.1/24",
        interface: "ether1",
      });
      assert.equal(real.isError, undefined);
      const after = await scrape(server.metricsUrl, KEYS.prom);
      const d = delta(before, after);
      const newIntents = (await server.auditLines("intent")) - intents;
      const newOutcomes = (await server.auditLines("outcome")) - outcomes;
      assert.ok(newIntents >= 1);
      assert.equal(newOutcomes, 2, "the dry run's and the write's");
      assert.equal(d.count("mcp_router_audit_write_seconds", { kind: "intent" }), newIntents);
      assert.equal(d.count("mcp_router_audit_write_seconds", { kind: "outcome" }), newOutcomes);
      // One call at a time: each line is a flush of its own.
      assert.equal(d.count("mcp_router_audit_flush_seconds"), newIntents + newOutcomes);
      assert.equal(d.value(CALLS, { tool: ADD, result: "ok" }), 2);
    });

    await t.step("who may scrape, and HTTP requests counted by route and status", async () => {
      const before = await scrape(server.metricsUrl, KEYS.prom);
      const anonymous = await fetch(server.metricsUrl);
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer realm=/);
      const scoped = await fetch(server.metricsUrl, {
        headers: { authorization: `Bearer ${KEYS.lab}` },
      });
      assert.equal(scoped.status, 403);
      assert.match(await scoped.text(), /may use only some devices/);
      // An unscoped tool key may scrape too.
      await scrape(server.metricsUrl, KEYS.reader);
      // The metrics key calls no tool: /mcp refuses it before any session.
      const onMcp = await rawTo("127.0.0.1", server.http.addr.port, "POST", "/mcp", [
        ["Host", `127.0.0.1:${server.http.addr.port}`],
        ["Authorization", `Bearer ${KEYS.prom}`],
        ["Content-Type", "application/json"],
        ["Accept", "application/json, text/event-stream"],
      ], JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      assert.equal(onMcp.status, 403);
      assert.match(onMcp.text, /has the metrics role, which only reads \/metrics/);
      const after = await scrape(server.metricsUrl, KEYS.prom);
      const d = delta(before, after);
      const requests = "mcp_router_http_requests_total";
      const metrics = (status: string) => ({ route: "/metrics", method: "GET", status });
      assert.equal(d.value(requests, metrics("401")), 1);
      assert.equal(d.value(requests, metrics("403")), 1);
      assert.equal(d.value(requests, metrics("200")), 2, "the first scrape and the reader's");
      assert.equal(d.value(requests, { route: "/mcp", method: "POST", status: "403" }), 1);
    });
  } finally {
    await reader.close();
    await admin.close();
    await server.close();
    await sim.close();
  }
});

Deno.test("metrics over HTTP: connections refused and closed by the front door's limits", async () => {
  setLogLevel("error");
  const config = await loadConfigAsync({ host: "127.0.0.1", "host-key-policy": "off" }, {});
  const metrics = new ServerMetrics({ version: "test", perDevice: true });
  const { devices, core } = prepareServer(config, undefined, { metrics });
  const http = await startHttp({
    transport: "streamable-http",
    hostname: "127.0.0.1",
    port: 0,
    allowedHosts: [],
    allowedOrigins: [],
    stateless: false,
    sessionTimeout: 1800,
    newServer: () =>
      buildServer({ name: "t", version: "0" }, chooseToolsets(config.settings), core),
    metrics,
    metricsRoute: true,
    limits: { headerTimeoutMs: 500, idleTimeoutMs: 60_000, maxPerPeer: 4 },
  });
  // Scrapes on connections of their own, closed after: only the test's connections count.
  const scrapeOnce = async () => {
    const r = await rawTo("127.0.0.1", http.addr.port, "GET", "/metrics", [["Host", "127.0.0.1"]]);
    assert.equal(r.status, 200, r.text);
    return await parseScrape(r.text.slice(r.text.indexOf("\r\n\r\n") + 4));
  };
  const conns: Deno.Conn[] = [];
  try {
    const before = await scrapeOnce();
    // Four silent connections fill the peer's limit; the fifth is refused at once.
    for (let i = 0; i < 4; i++) {
      conns.push(await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port }));
    }
    const fifth = await Deno.connect({ hostname: "127.0.0.1", port: http.addr.port });
    const answer = new Uint8Array(512);
    const n = await fifth.read(answer);
    fifth.close();
    assert.match(new TextDecoder().decode(answer.subarray(0, n ?? 0)), /^HTTP\/1\.1 503/);
    // The four send no request: each is closed by the header timeout.
    for (const c of conns) assert.equal(await c.read(new Uint8Array(16)), null);
    const after = await scrapeOnce();
    const refused = "mcp_router_http_connections_refused_total";
    const closed = "mcp_router_http_connections_closed_total";
    assert.equal(
      after.value(refused, { reason: "per-peer-limit" }) -
        before.value(refused, { reason: "per-peer-limit" }),
      1,
    );
    assert.equal(
      after.value(closed, { reason: "header-timeout" }) -
        before.value(closed, { reason: "header-timeout" }),
      4,
    );
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch {
        // closed by the server
      }
    }
    await http.shutdown(1000);
    await devices.close();
  }
});

Deno.test("metrics port: without credentials, this machine only", async () => {
  const metrics = new ServerMetrics({ version: "test", perDevice: true });
  const server = startMetricsServer({ hostname: "127.0.0.1", port: 0, auth: LOCAL_ONLY, metrics });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/metrics`;
    const s = await scrape(url);
    assert.equal(s.type("mcp_router_build_info"), "gauge");
    assert.equal(s.type("mcp_router_http_requests_total"), undefined, "no HTTP transport here");
    const rebound = await rawTo("127.0.0.1", server.addr.port, "GET", "/metrics", [
      ["Host", "metrics.example.com"],
    ]);
    assert.equal(rebound.status, 403, rebound.text);
    const other = await rawTo("127.0.0.1", server.addr.port, "GET", "/mcp", [
      ["Host", "127.0.0.1"],
    ]);
    assert.equal(other.status, 404, "the metrics port serves /metrics only");
    const head = await fetch(url, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
  } finally {
    await server.shutdown();
  }
});
