/**
 * Input limits: free text is capped at 4 KiB, lists at 1,000 entries, and
 * ids, names and menu paths pass allow-lists; each limit has a clear error
 * and sends nothing.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("input limits: clear errors, nothing sent", async (t) => {
  const sim = await startSimulator();
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    const before = sim.counters.commands;
    await t.step("free text over 4 KiB", async () => {
      const r = await callTool(session, "router_add_ip_address", {
        address: "10.60.0.1/24",
        interface: "ether1",
        comment: "x".repeat(4097),
      });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /comment/);
      assert.match(r.content[0].text, /must be at most 4096 characters/);
    });
    await t.step("a list over 1,000 entries", async () => {
      const r = await callTool(session, "router_add_wireguard_peer", {
        interface: "wg1",
        public_key: "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        allowed_address: Array.from({ length: 1001 }, (_, i) => `10.0.${i >> 8}.${i & 255}/32`),
      });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /allowed_address/);
      assert.match(r.content[0].text, /at most 1000 entries/);
    });
    await t.step("an id that is not a RouterOS id", async () => {
      const r = await callTool(session, "router_get_ip_address", { id: "0" });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /id/);
      assert.match(r.content[0].text, /\*1A/);
    });
    await t.step("a menu path off the allow-list", async () => {
      const r = await callTool(session, "router_print", { path: "/ip/address;/system/reboot" });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /path/);
    });
    await t.step("an unknown argument (a typo) is refused", async () => {
      const r = await callTool(session, "router_list_ip_addresses", { interfce: "ether1" });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /interfce/);
    });
    assert.equal(sim.counters.commands, before, "no command reached the router");
  } finally {
    await session.close();
    await sim.close();
  }
});
