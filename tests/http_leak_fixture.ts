/**
 * Run with `--v8-flags=--expose-gc` by tests/http_concurrency.test.ts: serve
 * streamable-http in this process against the simulator at argv host:port,
 * open N concurrent sessions that each call a tool, end them, collect
 * garbage, and print JSON: how many per-session MCP servers are still
 * reachable, the open sessions left, and the heap before and after. Then
 * it holds N sessions open (each initialized and one tool call made, with
 * plain fetch so the client side weighs next to nothing) and reports the
 * heap each open session costs the server (`perOpenSession`, bytes).
 *
 * @module
 */
import { Client } from "../lib/mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import type { Server } from "../lib/mcp_sdk/server.ts";
import { loadConfigAsync } from "../lib/config/load.ts";
import { startHttp } from "../lib/server/http/serve.ts";
import { buildServer } from "../lib/server/mcp.ts";
import { prepareServer } from "../lib/server/core.ts";
import { chooseToolsets } from "../lib/server/toolset_choice.ts";
import { OPENING_MESSAGES } from "./helpers/mcp.ts";

const [host, port, count] = [Deno.args[0], Deno.args[1], Number(Deno.args[2] ?? 20)];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

const config = await loadConfigAsync(
  { host, port, "host-key-policy": "off", "log-level": "error" },
  {},
);
const { devices, core } = prepareServer(config, undefined);
const refs: WeakRef<Server>[] = [];
const http = await startHttp({
  transport: "streamable-http",
  hostname: "127.0.0.1",
  port: 0,
  allowedHosts: [],
  allowedOrigins: [],
  stateless: false,
  sessionTimeout: 1800,
  newServer: () => {
    const server = buildServer(
      { name: "leak", version: "0" },
      chooseToolsets(config.settings),
      core,
    );
    refs.push(new WeakRef(server));
    return server;
  },
});
const url = new URL(`http://127.0.0.1:${http.addr.port}/mcp`);

async function round(n: number): Promise<number> {
  let ok = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: "leak", version: "0" });
    await client.connect(transport);
    const r = await client.callTool({ name: "router_list_ip_addresses", arguments: {} });
    if (!r.isError) ok++;
    await transport.terminateSession();
    await client.close();
  }));
  return ok;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 20));
    gc();
  }
};
await round(2); // warm up: modules, SSH connection
refs.length = 0;
await settle();
const heapBefore = Deno.memoryUsage().heapUsed;
const ok = await round(count);
await settle();
const heapAfter = Deno.memoryUsage().heapUsed;
const created = refs.length;
const alive = refs.filter((r) => r.deref() !== undefined).length;
const ended = http.sessions.size;

/** One session opened with bare HTTP: initialize, initialized, one tool call. */
async function openSession(): Promise<string> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  const post = async (body: unknown, session?: string) => {
    const r = await fetch(url, {
      method: "POST",
      headers: session ? { ...headers, "mcp-session-id": session } : headers,
      body: JSON.stringify(body),
    });
    await r.text();
    return r.headers.get("mcp-session-id") ?? session ?? "";
  };
  const id = await post(OPENING_MESSAGES[0]);
  await post(OPENING_MESSAGES[1], id);
  await post({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "router_list_ip_addresses", arguments: {} },
  }, id);
  return id;
}
await settle();
const heapIdle = Deno.memoryUsage().heapUsed;
const open: string[] = [];
for (let i = 0; i < count; i += 10) {
  open.push(...await Promise.all(Array.from({ length: Math.min(10, count - i) }, openSession)));
}
await settle();
const heapOpen = Deno.memoryUsage().heapUsed;
const result = {
  created,
  ok,
  alive,
  sessions: ended,
  heapBefore,
  heapAfter,
  openSessions: http.sessions.size,
  perOpenSession: Math.round((heapOpen - heapIdle) / open.length),
};
await http.shutdown(1000);
await devices.close();
console.log(JSON.stringify(result));
