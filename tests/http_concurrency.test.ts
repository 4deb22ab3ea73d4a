/**
 * Many sessions at once: concurrent SDK clients over streamable-http each
 * get their own correct answer from the simulator (the HTTP server in this
 * process); after the sessions end, no per-session MCP server stays
 * reachable (a process of its own, whose heap is measured). Modest sizes
 * here; the benchmark (bench/http.ts) runs the large ones.
 */
import assert from "node:assert/strict";
import type { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { DENO } from "./helpers/mcp.ts";
import { connect, INITIALIZE, MCP_POST, rawRequest, startInProcess } from "./http_helpers.ts";

const SESSIONS = 50;

Deno.test(`http concurrency: ${SESSIONS} concurrent sessions each get their own answer`, async () => {
  const sim = await startSimulator();
  for (let i = 0; i < SESSIONS; i++) {
    sim.run(`/ip address add address=10.1.${i}.1/24 interface=ether2`);
  }
  const server = await startInProcess(sim);
  try {
    const answers = await Promise.all(Array.from({ length: SESSIONS }, async (_, i) => {
      const client = await connect("streamable-http", `${server.base}/mcp`);
      try {
        const result = await client.callTool({
          name: "router_list_ip_addresses",
          arguments: { where: { address: `10.1.${i}.1/24` } },
        });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        return (result.structuredContent as { items: { address: string }[] }).items
          .map((x) => x.address);
      } finally {
        await client.close();
      }
    }));
    answers.forEach((a, i) => assert.deepEqual(a, [`10.1.${i}.1/24`], `session ${i}`));
  } finally {
    await server.close();
    await sim.close();
  }
});

Deno.test("http concurrency: ended sessions leave no server behind (gc); an open one costs < 512 KB", async () => {
  const sim = await startSimulator();
  try {
    const out = await new Deno.Command(DENO, {
      args: [
        "run",
        "--allow-all",
        "--v8-flags=--expose-gc",
        new URL("./http_leak_fixture.ts", import.meta.url).pathname,
        sim.host,
        String(sim.port),
        String(SESSIONS),
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(r.ok, SESSIONS, "every session's call succeeded");
    assert.equal(r.created, SESSIONS, "one MCP server per session");
    assert.equal(r.sessions, 0, "no session left open");
    assert.equal(r.alive, 0, `no per-session server reachable after gc: ${JSON.stringify(r)}`);
    // Tool definitions and schemas are shared: an open session costs the server little heap.
    assert.equal(r.openSessions, SESSIONS);
    assert.ok(r.perOpenSession < 512 * 1024, `per open session: ${r.perOpenSession} bytes`);
  } finally {
    await sim.close();
  }
});

Deno.test("http: --mcp.max-sessions caps open sessions; busy ones stay, an ended one frees its place", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim, { maxSessions: 2 });
  const port = server.http.addr.port;
  const url = `${server.base}/mcp`;
  const version = { "mcp-protocol-version": "2025-06-18" };
  const streams: Response[] = [];
  /** A new session whose event stream (GET /mcp) stays open: busy, so never closed for another. */
  const busySession = async () => {
    const init = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: INITIALIZE,
    });
    await init.body?.cancel();
    const id = init.headers.get("mcp-session-id")!;
    const stream = await fetch(url, {
      headers: { accept: "text/event-stream", "mcp-session-id": id, ...version },
    });
    assert.equal(stream.status, 200);
    streams.push(stream);
    return id;
  };
  try {
    const a = await busySession();
    await busySession();
    const refused = await rawRequest(port, "POST", "/mcp", [
      ["Host", `127.0.0.1:${port}`],
      ...MCP_POST,
    ], INITIALIZE);
    assert.equal(refused.status, 503);
    assert.match(refused.body, /Too many sessions/);
    // End the first session (DELETE /mcp), which frees its place.
    const ended = await fetch(url, {
      method: "DELETE",
      headers: { "mcp-session-id": a, ...version },
    });
    await ended.body?.cancel();
    assert.equal(ended.status, 200);
    const c = await connect("streamable-http", url);
    const r = await c.callTool({ name: "router_list_ip_addresses", arguments: {} });
    assert.notEqual(r.isError, true);
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
  } finally {
    for (const s of streams) await s.body?.cancel().catch(() => {});
    await server.close();
    await sim.close();
  }
});
