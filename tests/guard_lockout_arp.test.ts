/**
 * The lock-out guard on the ARP table: a static entry for the address this
 * server's SSH session comes from, or for the gateway of the route back to
 * it, needs `confirm: true` to be added, changed, disabled or removed
 * (a wrong MAC there, or no entry where the interface answers ARP only from
 * static entries, cuts the session); other entries do not. Through MCP
 * against a simulated RouterOS 7.20.8, whose route back to this host (on
 * 127.0.0.x, which the router does not hold) is its default route via
 * 192.168.88.254.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const HOST = "127.0.0.3";
const CUT = /needs confirm: true\. Nothing was done/;

Deno.test("lock-out guard: an ARP entry for the session's address or its gateway needs confirm", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.20.8" });
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    // The session's own address, as the router sees it.
    assert.equal((await callTool(session, "router_list_arp_entries")).isError, undefined);
    const me = sim.items("/user/active").map((a) => a.address).find(Boolean);
    assert.ok(me, "the router lists this server's session");

    for (
      const [address, why] of [[me, /the address this server's SSH session comes from/], [
        "192.168.88.254",
        /the gateway of the route back to this server/,
      ]] as const
    ) {
      const before = configOf(sim);
      const add = { address, mac_address: "AA:BB:CC:00:11:22", interface: "bridge" };
      const refused = await callTool(session, "router_add_arp_entry", add);
      assert.equal(refused.isError, true, `an entry for ${address} is refused`);
      assert.match(refused.content[0].text, why);
      assert.match(refused.content[0].text, CUT);
      assert.equal(configOf(sim), before, "nothing changed");

      const added = await callTool(session, "router_add_arp_entry", { ...add, confirm: true });
      assert.notEqual(added.isError, true, added.content[0].text);
      const id = (added.structuredContent as { item: { id: string } }).item.id;
      for (
        const [tool, args] of [
          ["router_update_arp_entry", { id, mac_address: "AA:BB:CC:00:11:33" }],
          ["router_disable_arp_entry", { id }],
          ["router_remove_arp_entry", { id }],
        ] as const
      ) {
        const r = await callTool(session, tool, args);
        assert.equal(r.isError, true, `${tool} on ${address} is refused`);
        assert.match(r.content[0].text, CUT);
      }
      const comment = await callTool(session, "router_update_arp_entry", { id, comment: "ok" });
      assert.notEqual(comment.isError, true, "a comment cannot cut");
      const removed = await callTool(session, "router_remove_arp_entry", { id, confirm: true });
      assert.notEqual(removed.isError, true, removed.content[0].text);
    }

    // Any other neighbour passes without confirm.
    const other = await callTool(session, "router_add_arp_entry", {
      address: "192.168.88.77",
      mac_address: "AA:BB:CC:00:11:44",
      interface: "bridge",
    });
    assert.notEqual(other.isError, true, other.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});
