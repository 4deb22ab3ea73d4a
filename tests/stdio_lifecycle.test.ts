/**
 * The stdio server's lifecycle: it ends when its client closes stdin, and
 * logs only to stderr.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { childEnv } from "./helpers/env.ts";
import { DENO, MAIN } from "./helpers/mcp.ts";

Deno.test("stdio: the server exits 0 when the client closes stdin; stdout holds only JSON-RPC", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir();
  const child = new Deno.Command(DENO, {
    args: ["run", "--allow-all", MAIN, "--host", sim.host, "--port", String(sim.port)],
    env: childEnv({}, home),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const requests = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "router_list_ip_addresses", arguments: {} },
    },
  ];
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(requests.map((r) => JSON.stringify(r) + "\n").join("")),
  );
  // Give the call time to answer before closing; then EOF must end the process.
  const out = child.stdout.getReader();
  let text = "";
  while (!text.includes('"id":2')) {
    const { value, done } = await out.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await writer.close();
  for (;;) {
    const { value, done } = await out.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    child.status,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error("the server did not exit after stdin closed"));
      }, 60_000);
    }),
  ]).finally(() => clearTimeout(timer));
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  assert.equal(status.code, 0);
  const lines = text.trim().split("\n");
  for (const line of lines) {
    assert.equal(JSON.parse(line).jsonrpc, "2.0", "stdout is JSON-RPC only");
  }
  assert.match(lines.at(-1)!, /192\.168\.88\.1\/24/);
  assert.match(stderr, /serving 1 device\(s\) over stdio/);
  await sim.close();
  await Deno.remove(home, { recursive: true });
});
