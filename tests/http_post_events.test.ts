/**
 * The answer to a POST on `/mcp` waits for its first event
 * (`lib/server/http/event_response.ts`): a quick call comes back whole, as
 * a body of known length; a long call's progress notifications still
 * arrive as they happen, before its result; a client that goes away in
 * the middle of a call leaves its session free for others.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { INITIALIZE, MCP_POST, startInProcess } from "./http_helpers.ts";

const HEADERS = Object.fromEntries([
  ...MCP_POST,
  ["mcp-protocol-version", "2025-06-18"],
]);

/** A new session's id (initialize, then notifications/initialized). */
async function openSession(url: string): Promise<string> {
  const init = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
  await init.body?.cancel();
  assert.equal(init.status, 200);
  const id = init.headers.get("mcp-session-id")!;
  const done = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": id },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await done.body?.cancel();
  return id;
}

function call(id: number, name: string, args: Record<string, unknown>, progress?: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(progress ? { _meta: { progressToken: progress } } : {}) },
  });
}

Deno.test("http streamable: a quick call's answer is one body of known length", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim);
  const url = `${server.base}/mcp`;
  try {
    const session = await openSession(url);
    const res = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session },
      body: call(1, "router_list_ip_addresses", {}),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const text = await res.text();
    assert.equal(Number(res.headers.get("content-length")), new TextEncoder().encode(text).length);
    assert.match(text, /^event: message\ndata: \{.*"id":1/);
  } finally {
    await server.close();
    await sim.close();
  }
});

Deno.test("http streamable: a long call's progress notifications arrive as they happen, before its result", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim, {}, { toolsets: "all" });
  const url = `${server.base}/mcp`;
  try {
    const session = await openSession(url);
    const started = performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session },
      body: call(2, "router_monitor", { resources: true, seconds: 3 }, "p1"),
    });
    assert.equal(res.status, 200);
    const events: { at: number; text: string }[] = [];
    const dec = new TextDecoder();
    for await (const chunk of res.body!) {
      events.push({ at: performance.now() - started, text: dec.decode(chunk) });
    }
    const all = events.map((e) => e.text).join("");
    assert.equal(all.match(/notifications\/progress/g)?.length, 3, all);
    const firstProgress = events.find((e) => e.text.includes("notifications/progress"))!;
    const result = events.find((e) => e.text.includes('"id":2'))!;
    // Samples are a second apart: the first progress comes about two seconds before the result.
    assert.ok(
      result.at - firstProgress.at > 1500,
      `first progress at ${firstProgress.at} ms, result at ${result.at} ms`,
    );
  } finally {
    await server.close();
    await sim.close();
  }
});

Deno.test("http streamable: a client gone in the middle of a call leaves its session free", async () => {
  const sim = await startSimulator();
  // One place: a new session takes the idle one's place, and is refused while it is busy.
  const server = await startInProcess(sim, { maxSessions: 1 }, { toolsets: "all" });
  const url = `${server.base}/mcp`;
  try {
    const session = await openSession(url);
    const gone = new AbortController();
    const calling = fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session },
      // No progress token: nothing to send before the result, ten seconds on.
      body: call(3, "router_monitor", { resources: true, seconds: 10 }),
      signal: gone.signal,
    }).then((res) => res.body?.cancel()).catch(() => {});
    // Gone while the call runs, before the response head.
    await new Promise((res) => setTimeout(res, 100));
    gone.abort();
    await calling;
    // Its session is idle again long before the call would have ended.
    await new Promise((res) => setTimeout(res, 1500));
    const next = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
    await next.body?.cancel();
    assert.equal(next.status, 200, "the abandoned session was still busy");
  } finally {
    await server.close();
    await sim.close();
  }
});
