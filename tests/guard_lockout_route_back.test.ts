/**
 * Hostile re-test 3 (issue 31): the interface lock-out rule (every menu of
 * interfaces, lib/tools/guard/lockout_interfaces.ts) protects "the
 * interface that carries the address this server's SSH session uses": the
 * interface holding the router address the session reached
 * (lockout.ts sessionInterface). Routers are often managed at a loopback
 * address (a /32 on an empty bridge, as MikroTik's and most ISP designs
 * have it, so management survives any one link): the session then reaches
 * an address on `loopback`, while its packets arrive, and the replies
 * leave, on the uplink. Disabling the uplink cuts the session, and the rule
 * does not see it: only `loopback` is protected. (The firewall walk
 * already knows the session's real in-interface: the route back.)
 *
 * The simulator on 127.0.0.4, held on the bridge `loopback` (127.0.0.4/32);
 * the server (127.0.0.1) is on ether2's connected subnet (127.0.0.5/8), so
 * the session comes in on ether2 and its replies leave there.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const HOST = "127.0.0.4";

Deno.test("lock-out route back: disabling the uplink of a router managed at a loopback address needs confirm", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.16.2" });
  for (
    const line of [
      "/interface bridge port remove [find interface=ether2]",
      "/interface bridge add name=loopback",
      `/ip address add address=${HOST}/32 interface=loopback`,
      "/ip address add address=127.0.0.5/8 interface=ether2",
    ]
  ) assert.equal(sim.run(line).exitCode, 0, line);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    const lo = await callTool(session, "router_disable_bridge", { name: "loopback" });
    assert.equal(lo.isError, true, "the loopback bridge is protected");
    assert.match(lo.content[0].text, /would cut this server's own access/);

    const r = await callTool(session, "router_disable_interface", { name: "ether2" });
    const disabled = sim.items("/interface").find((i) => i.name === "ether2")?.disabled;
    assert.ok(
      r.isError === true && disabled !== "true",
      "ether2, on which this server's session arrives and its replies leave, was disabled " +
        `without confirm: ${r.content[0]?.text}`,
    );
    assert.match(r.content[0].text, /interface ether2 carries this server's SSH session/);
    // Into a bridge: the same interface, another menu.
    const port = await callTool(session, "router_add_bridge_port", {
      bridge: "bridge",
      interface: "ether2",
    });
    assert.equal(port.isError, true, `ether2 made a bridge port: ${port.content[0]?.text}`);
    assert.match(port.content[0].text, /bridge bridge would take it over/);
    // Another port is free to change.
    const other = await callTool(session, "router_disable_interface", { name: "ether4" });
    assert.equal(other.isError, undefined, other.content[0]?.text);
  } finally {
    await session.close();
    await sim.close();
  }
});
