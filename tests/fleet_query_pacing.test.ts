/**
 * `router_fleet_query` on a cold fleet: new connections are paced by the
 * pool's dialer (`--max-dialing`) and nothing else, so a fleet larger than
 * the composite tools' 32 devices at a time dials as many routers at once
 * as the dialer allows, each read running as soon as its connection is up.
 * Observed from the routers' side: every simulated router slows its SSH
 * handshake, and halfway through it the routers that have a connection are
 * counted.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const ROUTERS = 40;
const HANDSHAKE_MS = 1500;

Deno.test("router_fleet_query: a cold fleet dials as many routers at once as --max-dialing", async () => {
  const sims = await Promise.all(
    Array.from(
      { length: ROUTERS },
      () => startSimulator({ faults: { slowHandshakeMs: HANDSHAKE_MS } }),
    ),
  );
  const inventory = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(
    inventory,
    JSON.stringify(sims.map((s, i) => ({ title: `r${i + 1}`, host: s.host, port: s.port }))),
  );
  const session = await serveInProcess([
    "--inventory-file",
    inventory,
    "--host-key-policy",
    "off",
    "--max-dialing",
    String(ROUTERS),
  ]);
  try {
    const answer = session.client.callTool(
      {
        name: "router_fleet_query",
        arguments: { tool: "router_list_ip_addresses" },
      },
      undefined,
      { timeout: 60_000 },
    );
    // Awaited below; a failed assertion before that must not leave it unhandled.
    answer.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, HANDSHAKE_MS / 2));
    const dialed = sims.filter((s) => s.counters.connections > 0).length;
    assert.equal(dialed, ROUTERS, `routers connected halfway through the handshake: ${dialed}`);
    const r = await answer;
    const structured = r.structuredContent as { succeeded: number; failed: number };
    assert.equal(structured.failed, 0);
    assert.equal(structured.succeeded, ROUTERS);
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
    await Deno.remove(inventory).catch(() => {});
  }
});
