/**
 * The lock-out guard on menus that take interfaces over: making the
 * interface that carries the server's SSH session a bond slave, or moving
 * it into a VRF, needs `confirm: true`; other interfaces do not. Through
 * MCP against the simulator, which listens on 127.0.0.3 and holds that
 * address on ether2. A hotspot server takes its interface over too.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const HOST = "127.0.0.3";

Deno.test("lock-out guard: the session's interface into a bond or a VRF needs confirm", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.20.8" });
  assert.equal(sim.run(`/ip address add address=${HOST}/8 interface=ether2`).exitCode, 0);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    for (
      const [tool, args, what] of [
        ["router_add_bond", { name: "bond-cut", slaves: ["ether2", "ether3"] }, /bond bond-cut/],
        ["router_add_vrf", { name: "vrf-cut", interfaces: ["ether2"] }, /VRF vrf-cut/],
      ] as const
    ) {
      const before = configOf(sim);
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, true, `${tool} should be refused`);
      assert.match(r.content[0].text, /interface ether2 carries the address this server's SSH/);
      assert.match(r.content[0].text, what);
      assert.match(r.content[0].text, /needs confirm: true\. Nothing was done/);
      assert.equal(configOf(sim), before, `${tool} changed the router`);
    }
    // Other interfaces pass; adding the session's one later is refused too.
    const bond = await callTool(session, "router_add_bond", {
      name: "bond-ok",
      slaves: ["ether4"],
    });
    assert.notEqual(bond.isError, true, bond.content[0].text);
    const grow = await callTool(session, "router_update_bond", {
      name: "bond-ok",
      slaves: ["ether4", "ether2"],
    });
    assert.equal(grow.isError, true);
    assert.match(grow.content[0].text, /needs confirm: true/);
    const other = await callTool(session, "router_add_vrf", {
      name: "vrf-other",
      interfaces: ["ether5"],
    });
    assert.notEqual(other.isError, true, other.content[0].text);
  } finally {
    await session.close();
    await sim.close();
  }
});

for (const version of ["6.49.13", "7.16.2"]) {
  Deno.test(`lock-out guard ${version}: a hotspot on the interface that carries this server's session needs confirm`, async () => {
    // Hostile re-test 3 (issue 31): a hotspot server on an interface makes
    // every host behind it an unauthorized client until it logs in at the
    // captive portal: RouterOS adds its own rules (filter input jumps to
    // hs-input, which lets unauthorized clients reach only DNS and the login
    // page), so this server's SSH session, when it arrives on that interface,
    // is cut and its next login refused. router_add_hotspot_server was an
    // `operate` write with no lock-out rule ("It adds its own firewall and NAT
    // rules", its description says), and docs/guards.md listed "what a hotspot
    // on the session's interface does" as not evaluated: "set up a hotspot on
    // the LAN" by a careless agent locked the server out, with no confirm.
    //
    // Here the router is managed at a loopback address (127.0.0.4/32 on the
    // bridge `loopback`) and the session arrives on ether2 (127.0.0.5/8, the
    // route back): both carry it; so does a bridge holding ether2 as a port.
    const host = "127.0.0.4";
    const sim = await startSimulator({ host, version });
    for (
      const line of [
        "/interface bridge port remove [find interface=ether2]",
        "/interface bridge port remove [find interface=ether3]",
        "/interface bridge add name=loopback",
        `/ip address add address=${host}/32 interface=loopback`,
        "/ip address add address=127.0.0.5/8 interface=ether2",
      ]
    ) assert.equal(sim.run(line).exitCode, 0, line);
    const session = await serveInProcess(["--host", host, "--port", String(sim.port)]);
    const hotspots = () => sim.items("/ip/hotspot");
    const refused = async (tool: string, args: Record<string, unknown>, why: RegExp) => {
      const before = configOf(sim);
      const r = await callTool(session, tool, args);
      assert.ok(
        r.isError === true && configOf(sim) === before,
        `${tool} ${JSON.stringify(args)} put a hotspot server where this server's SSH session ` +
          `arrives, without confirm: ${r.content[0]?.text}`,
      );
      assert.match(r.content[0].text, why);
      assert.match(r.content[0].text, /unauthorized hotspot client/);
      assert.match(r.content[0].text, /needs confirm: true\. Nothing was done/);
    };
    try {
      await refused(
        "router_add_hotspot_server",
        { name: "guests", interface: "ether2" },
        /interface ether2 carries this server's SSH session \(its packets arrive/,
      );
      await refused(
        "router_add_hotspot_server",
        { name: "guests", interface: "loopback" },
        /interface loopback carries the address this server's SSH session uses/,
      );
      // Elsewhere, or disabled: fine. Enabling it there, or moving one there, is not.
      const ok = async (tool: string, args: Record<string, unknown>) => {
        const r = await callTool(session, tool, args);
        assert.equal(
          r.isError,
          undefined,
          `${tool} ${JSON.stringify(args)}: ${r.content[0]?.text}`,
        );
      };
      await ok("router_add_hotspot_server", { name: "lab", interface: "ether3" });
      await ok("router_add_hotspot_server", { name: "later", interface: "ether2", disabled: true });
      await refused("router_enable_hotspot_server", { name: "later" }, /interface ether2/);
      await ok("router_remove_hotspot_server", { name: "later", confirm: true });
      await refused(
        "router_update_hotspot_server",
        { name: "lab", interface: "ether2" },
        /interface ether2/,
      );
      await ok("router_update_hotspot_server", { name: "lab", idle_timeout: "10m" });
      // A bridge holding the session's interface as a port.
      for (
        const line of [
          "/interface bridge add name=hs",
          "/interface bridge port add bridge=hs interface=ether2",
        ]
      ) assert.equal(sim.run(line).exitCode, 0, line);
      await refused(
        "router_add_hotspot_server",
        { name: "guests", interface: "hs" },
        /bridge hs holds ether2 as a port, and interface ether2 carries/,
      );
      await ok("router_add_hotspot_server", { name: "guests", interface: "ether2", confirm: true });
      assert.ok(hotspots().some((h) => h.interface === "ether2"), "with confirm it is added");
    } finally {
      await session.close();
      await sim.close();
    }
  });
}
