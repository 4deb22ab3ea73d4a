/**
 * Client authentication and roles over the MCP HTTP transports, end to
 * end: the loopback-only default judged by the connection's address (hole
 * 1: a request through this machine's network address with `Host:
 * localhost` used to get every tool), API keys with roles and scopes on
 * streamable-http and SSE, nested calls of composites, sessions bound to
 * their principal, the principal in audit lines, and key file reloads.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { PRINCIPAL_META_KEY } from "../lib/auth/principal.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { INITIALIZE, MCP_POST } from "./http_helpers.ts";
import { listAllTools } from "./helpers/mcp.ts";
import {
  authClient,
  KEYS,
  keysYaml,
  machineAddress,
  rawTo,
  startAuthServer,
  textOf,
} from "./http_auth_helpers.ts";

const WRITE = { name: "router_update_identity", arguments: { name: "changed", device: "r1" } };

Deno.test("http auth: without credentials configured, only loopback peers are served (hole 1)", async () => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim, { hostname: "0.0.0.0", noKeys: true });
  const port = srv.http.addr.port;
  try {
    const local = await rawTo("127.0.0.1", port, "POST", "/mcp", [
      ["Host", `localhost:${port}`],
      ...MCP_POST,
    ], INITIALIZE);
    assert.equal(local.status, 200, local.text);
    const forwarded = await rawTo("127.0.0.1", port, "POST", "/mcp", [
      ["Host", `localhost:${port}`],
      ["X-Forwarded-For", "203.0.113.9"],
      ...MCP_POST,
    ], INITIALIZE);
    assert.equal(forwarded.status, 403, "a request a local reverse proxy forwarded is not local");
    const address = machineAddress();
    if (!address) {
      console.log("skipped the non-loopback part: this machine has no non-loopback address");
      return;
    }
    const remote = await rawTo(address, port, "POST", "/mcp", [
      ["Host", "localhost"],
      ...MCP_POST,
    ], INITIALIZE);
    assert.equal(remote.status, 403, `through ${address}: ${remote.text}`);
    assert.match(remote.text, /serves only requests from this machine/);
    assert.doesNotMatch(remote.text, /router_/, "no tool reaches a stranger");
    const health = await rawTo(address, port, "GET", "/health", [["Host", "localhost"]]);
    assert.equal(health.status, 200, "/health stays open");
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http auth: API keys and roles on streamable-http and SSE", async (t) => {
  const sim = await startSimulator();
  for (const transport of ["streamable-http", "sse"] as const) {
    const srv = await startAuthServer(sim, { transport });
    const url = `${srv.base}${transport === "sse" ? "/sse" : "/mcp"}`;
    try {
      await t.step(`${transport}: no key and a wrong key get the same 401`, async () => {
        const path = transport === "sse" ? "/sse" : "/mcp";
        const method = transport === "sse" ? "GET" : "POST";
        const body = transport === "sse" ? "" : INITIALIZE;
        const none = await rawTo("127.0.0.1", srv.http.addr.port, method, path, [
          ["Host", "localhost"],
          ...MCP_POST,
        ], body);
        const wrong = await rawTo("127.0.0.1", srv.http.addr.port, method, path, [
          ["Host", "localhost"],
          ["Authorization", `Bearer ${KEYS.reader}x`],
          ...MCP_POST,
        ], body);
        for (const r of [none, wrong]) {
          assert.equal(r.status, 401, r.text);
          assert.match(r.text, /www-authenticate: Bearer realm="mcp-server-router"/i);
        }
        assert.equal(none.text.split("\r\n\r\n")[1], wrong.text.split("\r\n\r\n")[1]);
      });
      await t.step(`${transport}: a read key lists and calls reads only`, async () => {
        const reader = await authClient(transport, url, KEYS.reader);
        try {
          const tools = await listAllTools(reader);
          assert.ok(tools.length > 50);
          assert.ok(tools.every((x) => x.annotations?.readOnlyHint === true), "reads only");
          const read = await reader.callTool({
            name: "router_get_identity",
            arguments: { device: "r1" },
          });
          assert.notEqual(read.isError, true, textOf(read));
          const before = sim.counters.commands;
          const write = await reader.callTool(WRITE);
          assert.equal(write.isError, true);
          assert.match(textOf(write), /needs the operate role; "key:reader" has read/);
          assert.equal(sim.counters.commands, before, "nothing reached the router");
        } finally {
          await reader.close();
        }
      });
      await t.step(`${transport}: an operate key writes, not admin tools`, async () => {
        const op = await authClient(transport, url, KEYS.operator);
        try {
          const names = (await listAllTools(op)).map((x) => x.name);
          assert.ok(names.includes("router_update_identity"));
          assert.ok(!names.includes("router_reboot") && !names.includes("router_add_script"));
          const write = await op.callTool(WRITE);
          assert.notEqual(write.isError, true, textOf(write));
          // Hostile re-test 3 (issue 31): a principal the client names in _meta is
          // a label, not who the call is: the audit line names the key first.
          const labelled = await op.callTool({
            ...WRITE,
            arguments: { ...WRITE.arguments, name: "labelled" },
            _meta: { [PRINCIPAL_META_KEY]: { name: "key:admin", role: "operate" } },
          });
          assert.notEqual(labelled.isError, true, textOf(labelled));
          const reboot = await op.callTool({
            name: "router_reboot",
            arguments: { device: "r1", confirm: true },
          });
          assert.match(textOf(reboot), /needs the admin role; "key:operator" has operate/);
        } finally {
          await op.close();
        }
        const lines = await srv.audit();
        const mine = lines.filter((l) => l.tool === "router_update_identity");
        assert.ok(mine.length >= 1);
        // The call's first line (its intent) says who; its outcome links back to it.
        const intent = mine.find((l) => l.kind === "intent");
        assert.equal(intent?.principal, "key:operator", "the principal is in the audit line");
        const label = mine.find((l) => l.kind === "intent" && l.on_behalf_of !== undefined);
        assert.deepEqual([label?.principal, label?.on_behalf_of], ["key:operator", "key:admin"]);
      });
    } finally {
      await srv.close();
    }
  }
  await sim.close();
});

Deno.test("http auth: nested calls and device scopes pass the same role guard", async () => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  try {
    const op = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
    const nested = await op.callTool({
      name: "router_apply_changes",
      arguments: {
        device: "r1",
        confirm: true,
        operations: [{
          tool: "router_add_script",
          arguments: { name: "x", source: ":log info x" },
        }],
      },
    });
    assert.equal(nested.isError, true, textOf(nested));
    assert.match(
      textOf(nested),
      /router_add_script \(inside router_apply_changes\) needs the admin/,
    );
    await op.close();
    const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
    const scripts = await admin.callTool({
      name: "router_list_scripts",
      arguments: { device: "r1" },
    });
    assert.notEqual(scripts.isError, true, textOf(scripts));
    assert.deepEqual((scripts.structuredContent as { items: unknown[] }).items, [], "no script");
    await admin.close();

    const lab = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.lab);
    const outside = await lab.callTool({ ...WRITE, arguments: { name: "x", device: "r2" } });
    assert.match(textOf(outside), /device "r2" is outside the devices "key:lab" may use/);
    const inside = await lab.callTool({ ...WRITE, arguments: { name: "lab-ok", device: "r1" } });
    assert.notEqual(inside.isError, true, textOf(inside));
    const fleet = await lab.callTool({
      name: "router_fleet_query",
      arguments: { tool: "router_get_identity" },
    });
    const results = (fleet.structuredContent as { results: { device: string }[] }).results;
    assert.deepEqual(results.map((r) => r.device), ["r1"], "a fleet query sees the scope only");
    const listed = await lab.callTool({ name: "router_list_devices", arguments: {} });
    assert.doesNotMatch(textOf(listed), /\br2\b/);
    await lab.close();
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http auth: a session belongs to the principal that opened it", async () => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  try {
    const open = await fetch(`${srv.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${KEYS.reader}`,
      },
      body: INITIALIZE,
    });
    await open.body?.cancel();
    const id = open.headers.get("mcp-session-id")!;
    assert.ok(id);
    const other = await fetch(`${srv.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${KEYS.admin}`,
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    await other.body?.cancel();
    assert.equal(other.status, 404, "another principal's session is unknown to it");
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http auth: the keys file reloads on change; a bad file keeps the old keys", async () => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  srv.store.watch();
  const status = async (key: string) => {
    const res = await fetch(`${srv.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${key}`,
      },
      body: INITIALIZE,
    });
    await res.body?.cancel();
    return res.status;
  };
  const until = async (what: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
    return what();
  };
  try {
    assert.equal(await status("rotated-key-0123456789"), 401);
    await Deno.writeTextFile(
      srv.keysFile,
      `${keysYaml()}  - {name: rotated, hash: "${
        hashKey("rotated-key-0123456789")
      }", role: read}\n`,
    );
    assert.ok(await until(async () => (await status("rotated-key-0123456789")) === 200));
    await Deno.writeTextFile(srv.keysFile, "keys:\n  - {name: broken, role: read}\n");
    assert.equal(await srv.store.reload(), false, "the broken file is refused");
    assert.equal(await status("rotated-key-0123456789"), 200, "the old keys stay in use");
  } finally {
    await srv.close();
    await sim.close();
  }
});
