/**
 * Run with `--v8-flags=--expose-gc` by tests/http_concurrency.test.ts: serve
 * streamable-http in this process against the simulator at argv host:port,
 * open N concurrent sessions that each call a tool, end them, collect
 * garbage, and print JSON: how many per-session MCP servers are still
 * reachable, the open sessions left, and the heap before and after.
 *
 * @module
 */
import { Client } from "../lib/mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../lib/mcp_sdk/client.ts";
import type { Server } from "../lib/mcp_sdk/server.ts";
import { loadConfig } from "../lib/config/load.ts";
import { startHttp } from "../lib/server/http/serve.ts";
import { buildServer } from "../lib/server/mcp.ts";
import { prepareServer } from "../lib/server/run.ts";

const [host, port, count] = [Deno.args[0], Deno.args[1], Number(Deno.args[2] ?? 20)];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

const config = loadConfig({ host, port, "host-key-policy": "off", "log-level": "error" }, {});
const { devices, core } = await prepareServer(config, { name: "leak", version: "0" });
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
    const server = buildServer(core);
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
const result = {
  created: refs.length,
  ok,
  alive: refs.filter((r) => r.deref() !== undefined).length,
  sessions: http.sessions.size,
  heapBefore,
  heapAfter,
};
await http.shutdown(1000);
await devices.close();
console.log(JSON.stringify(result));
