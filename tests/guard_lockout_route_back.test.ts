/**
 * The lock-out guard and the route back: the interface the router's replies
 * to this server leave by, and the routes addresses make. The simulator
 * listens on 127.0.0.4, the server is 127.0.0.1.
 *
 * Hostile re-test 3 (issue 31), the uplink of a loopback address: the
 * interface lock-out rule (every menu of interfaces,
 * lib/tools/guard/lockout_interfaces.ts) protected "the interface that
 * carries the address this server's SSH session uses": the interface
 * holding the router address the session reached (lockout.ts
 * sessionInterface). Routers are often managed at a loopback address (a
 * /32 on an empty bridge, as MikroTik's and most ISP designs have it, so
 * management survives any one link): the session then reaches an address
 * on `loopback`, while its packets arrive, and the replies leave, on the
 * uplink. Disabling the uplink cuts the session, and the rule did not see
 * it: only `loopback` was protected. (The firewall walk already knew the
 * session's real in-interface: the route back.) Here the simulator is held
 * on the bridge `loopback` (127.0.0.4/32); the server is on ether2's
 * connected subnet (127.0.0.5/8), so the session comes in on ether2 and
 * its replies leave there.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const HOST = "127.0.0.4";

/**
 * The loopback-managed router: the simulator held on the bridge `loopback`
 * (127.0.0.4/32), the server on ether2's connected subnet (127.0.0.5/8).
 */
const LOOPBACK_MANAGED = [
  "/interface bridge port remove [find interface=ether2]",
  "/interface bridge add name=loopback",
  `/ip address add address=${HOST}/32 interface=loopback`,
  "/ip address add address=127.0.0.5/8 interface=ether2",
];

/** A simulated router (7.16 unless told) on HOST set up by `lines`, and a server session to it. */
async function routerWith(lines: readonly string[], version = "7.16.2") {
  const sim = await startSimulator({ host: HOST, version });
  for (const line of lines) assert.equal(sim.run(line).exitCode, 0, line);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  return { sim, session };
}

Deno.test("lock-out route back: disabling the uplink of a router managed at a loopback address needs confirm", async () => {
  const { sim, session } = await routerWith(LOOPBACK_MANAGED);
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

Deno.test("lock-out route back: removing or disabling the address whose connected route carries the replies needs confirm", async () => {
  // Hostile re-test 3 (issue 31), the same router: the replies to 127.0.0.1
  // leave by ether2's connected route 127.0.0.0/8, which exists because of
  // 127.0.0.5/8. Disabling or removing that address leaves the replies
  // another way (the default route), or none (the /ip/route rule would
  // refuse removing such a route; the /ip/address rule looked only at
  // 127.0.0.4).
  const { sim, session } = await routerWith(LOOPBACK_MANAGED);
  try {
    const id = sim.items("/ip/address").find((a) => a.address === "127.0.0.5/8")![".id"];
    for (const tool of ["router_disable_ip_address", "router_remove_ip_address"]) {
      const r = await callTool(session, tool, { id });
      const item = sim.items("/ip/address").find((a) => a.address === "127.0.0.5/8");
      assert.ok(
        r.isError === true && item?.disabled !== "true",
        `${tool}: 127.0.0.5/8, whose connected route carries the replies to this server, ` +
          `was changed without confirm: ${r.content[0]?.text}`,
      );
      assert.match(r.content[0].text, /127\.0\.0\.5\/8 on ether2 .*connected route/);
      assert.match(r.content[0].text, /192\.168\.88\.254/, "the way the replies would take");
    }
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out route back: an address whose subnet holds this server's address, on another port, needs confirm", async () => {
  // Hostile re-test 3 (issue 31): the lock-out guard decides the route of
  // the router's replies to this server before and after a write of
  // `/ip/route` (lib/tools/guard/lockout_routes.ts): "a more specific route
  // elsewhere" needs confirm. An address is a route too: adding one creates
  // its connected route. The `/ip/address` rule looked only at the address
  // the session reaches the router at (removed, disabled, re-addressed,
  // moved), so adding an address on another port whose subnet holds this
  // server's address went through without confirm, and the router's
  // replies to the server then leave by that port's connected route, where
  // the server is not: "add 10.0.0.1/16 on ether5 for the new lab" while
  // the management host is 10.0.5.3, reached through a gateway.
  //
  // The setting of tests/guard_lockout_outside_firewall.test.ts: the
  // simulator on 127.0.0.4 (127.0.0.4/8 on ether2), the server on
  // 127.0.0.1. A route 127.0.0.0/24 via another gateway is refused there;
  // the address 127.0.0.2/24 on ether3 makes the same route.
  const { sim, session } = await routerWith([
    "/interface bridge port remove [find interface=ether2]",
    "/interface bridge port remove [find interface=ether3]",
    `/ip address add address=${HOST}/8 interface=ether2`,
    "/ip address add address=10.77.0.1/24 interface=ether3",
  ]);
  try {
    const route = await callTool(session, "router_add_route", {
      dst_address: "127.0.0.0/24",
      gateway: "192.168.88.254",
    });
    assert.equal(route.isError, true, "the route is refused (the guard sees the route back)");
    assert.match(route.content[0].text, /would cut this server's own access/);

    const there = () => sim.items("/ip/address").find((a) => a.address === "127.0.0.2/24");
    const added = await callTool(session, "router_add_ip_address", {
      address: "127.0.0.2/24",
      interface: "ether3",
    });
    assert.ok(
      added.isError === true && !there(),
      "127.0.0.2/24 on ether3 was added without confirm: the router's replies to 127.0.0.1 " +
        `now leave by ether3's connected route 127.0.0.0/24: ${added.content[0]?.text}`,
    );
    assert.match(added.content[0].text, /connected route.*go via ether3 by route/);

    // Moving an address of ether3 onto that subnet is the same route.
    const lab = sim.items("/ip/address").find((a) => a.address === "10.77.0.1/24")![".id"];
    const moved = await callTool(session, "router_update_ip_address", {
      id: lab,
      address: "127.0.0.2/24",
    });
    assert.equal(moved.isError, true, `re-addressed without confirm: ${moved.content[0]?.text}`);

    // Harmless neighbours: a subnet that does not hold the server, a comment.
    const other = await callTool(session, "router_add_ip_address", {
      address: "10.78.0.1/24",
      interface: "ether3",
    });
    assert.equal(other.isError, undefined, other.content[0]?.text);
    const comment = await callTool(session, "router_update_ip_address", {
      id: lab,
      comment: "lab",
    });
    assert.equal(comment.isError, undefined, comment.content[0]?.text);

    const confirmed = await callTool(session, "router_add_ip_address", {
      address: "127.0.0.2/24",
      interface: "ether3",
      confirm: true,
    });
    assert.equal(confirmed.isError, undefined, confirmed.content[0]?.text);
    assert.ok(there(), "with confirm the address is added");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out route back: ssh moved into a VRF needs confirm unless it holds the uplink the session arrives on, not only the loopback", async () => {
  // Lock-out gap 1 (after hostile re-test 3): the `/ip service ssh vrf=`
  // rule (lockout.ts sshService) took the session's VRF from the interface
  // holding the reached address (the loopback bridge), while the session's
  // packets arrive on the uplink (the route back, which the interface rule
  // already protects). With the loopback in VRF mgmt and the uplink ether2
  // in main, `vrf=mgmt` went through without confirm (the service leaves
  // the VRF the session arrives in). Both interfaces count now: in a
  // management VRF holding the loopback and the uplink, the session is
  // routed by that VRF's table, which the route back (main) does not read.
  const { sim, session } = await routerWith([
    ...LOOPBACK_MANAGED,
    "/ip vrf add name=mgmt interfaces=loopback",
  ]);
  const vrf = () => sim.items("/ip/service").find((s) => s.name === "ssh")?.vrf ?? "main";
  try {
    const r = await callTool(session, "router_update_ip_service", { name: "ssh", vrf: "mgmt" });
    assert.ok(
      r.isError === true && vrf() === "main",
      "ssh moved into VRF mgmt (the loopback's) without confirm, while the session arrives " +
        `on ether2 in main: ${r.content[0]?.text}`,
    );
    assert.match(
      r.content[0].text,
      /it moves ssh into VRF mgmt, and this server's session arrives in VRF main \(on ether2\)/,
    );
    // The uplink moved into a VRF is refused too (the interface carries the session).
    const up = await callTool(session, "router_add_vrf", { name: "v1", interfaces: ["ether2"] });
    assert.equal(up.isError, true, `the uplink moved into a VRF: ${up.content[0]?.text}`);
    assert.match(up.content[0].text, /interface ether2 carries this server's SSH session/);
    // A management VRF holding the uplink and the loopback: ssh may follow the session there,
    // and not leave it.
    for (
      const line of [
        "/ip vrf remove [find name=mgmt]",
        "/ip vrf add name=v1 interfaces=ether2,loopback",
      ]
    ) assert.equal(sim.run(line).exitCode, 0, line);
    const follow = await callTool(session, "router_update_ip_service", { name: "ssh", vrf: "v1" });
    assert.equal(
      follow.isError,
      undefined,
      `ssh into the session's VRF: ${follow.content[0]?.text}`,
    );
    assert.equal(vrf(), "v1");
    const back = await callTool(session, "router_update_ip_service", { name: "ssh", vrf: "main" });
    assert.equal(back.isError, true, `ssh out of the session's VRF: ${back.content[0]?.text}`);
    assert.match(back.content[0].text, /arrives in VRF v1 \(on ether2, loopback\)/);
  } finally {
    await session.close();
    await sim.close();
  }
});

for (const version of ["6.49.13", "7.16.2"]) {
  Deno.test(`lock-out route back ${version}: a scope or target-scope that leaves the route back's gateway unresolved needs confirm`, async () => {
    // Hostile re-test 4 (issue 31): the route lock-out rule evaluated a route's
    // dst-address, gateway, distance, table, blackhole, type and disabled, but
    // not its `target_scope`. A gateway resolves only through routes whose
    // `scope` is at most the route's `target-scope` (connected routes have
    // scope 10, a static route's target-scope is 10 by default): setting the
    // target-scope of the route back to this server to 5 leaves its gateway
    // unresolved, RouterOS makes the route inactive, and the router's replies
    // to this server take another route (or none). `router_update_route
    // {target_scope: 5}` on that route was sent without confirm, while
    // disabling the same route was refused: the route back is as good as
    // removed by an argument that looks like tuning. Here the router is
    // managed at 127.0.0.4/32 on the bridge `loopback`, and this server
    // (127.0.0.1) is reached through the gateway 10.0.0.1 on ether2's
    // 10.0.0.0/30 (route 127.0.0.0/8 via 10.0.0.1); 1.2.3.0/24 via 10.0.0.1
    // is there for a recursive route (its gateway 1.2.3.4 resolves through
    // it, a static route of scope 30, with target-scope 30).
    const { sim, session } = await routerWith([
      "/interface bridge port remove [find interface=ether2]",
      "/interface bridge add name=loopback",
      `/ip address add address=${HOST}/32 interface=loopback`,
      "/ip address add address=10.0.0.2/30 interface=ether2",
      "/ip route add dst-address=127.0.0.0/8 gateway=10.0.0.1",
      "/ip route add dst-address=1.2.3.0/24 gateway=10.0.0.1",
    ], version);
    try {
      const idOf = (dst: string) =>
        sim.items("/ip/route").find((r) => r["dst-address"] === dst)![".id"];
      const back = idOf("127.0.0.0/8");
      // Control: the route is the route back, and disabling it is seen.
      const off = await callTool(session, "router_disable_route", { id: back });
      assert.equal(off.isError, true, off.content[0]?.text);
      assert.match(off.content[0].text, /needs confirm: true/);
      const refused = async (args: Record<string, unknown>, why: RegExp) => {
        const before = configOf(sim);
        const r = await callTool(session, "router_update_route", args);
        assert.ok(
          r.isError === true && configOf(sim) === before,
          `${JSON.stringify(args)} was applied without confirm: ${r.content[0]?.text}`,
        );
        assert.match(r.content[0].text, /needs confirm: true/);
        assert.match(r.content[0].text, why);
      };
      await refused(
        { id: back, target_scope: 5 },
        /would go via 192\.168\.88\.254 .*\(now they go via 10\.0\.0\.1 on ether2 .*route \*\w+ 127\.0\.0\.0\/8 via 10\.0\.0\.1 .*would be inactive: its gateway resolves through no route in use whose scope is at most its target-scope \(5\)/,
      );
      // A target-scope that still reaches the connected subnet (scope 10) is harmless.
      const wider = await callTool(session, "router_update_route", { id: back, target_scope: 20 });
      assert.equal(wider.isError, undefined, wider.content[0]?.text);
      // Recursive: the route back through 1.2.3.4, which 1.2.3.0/24 (scope 30) resolves.
      const recursive = await callTool(session, "router_update_route", {
        id: back,
        gateway: "1.2.3.4",
        target_scope: 30,
        confirm: true,
      });
      assert.equal(recursive.isError, undefined, recursive.content[0]?.text);
      const via = idOf("1.2.3.0/24");
      // Its scope raised above the route back's target-scope: 1.2.3.4 resolves
      // through the default route instead, out of another port.
      await refused(
        { id: via, scope: 40 },
        /would go via 1\.2\.3\.4 .*resolving through \*\w+ 0\.0\.0\.0\/0 via 192\.168\.88\.254.*\(now they go via 1\.2\.3\.4 .*resolving through \*\w+ 1\.2\.3\.0\/24 via 10\.0\.0\.1/,
      );
      // The route back's target-scope lowered below 30: 1.2.3.4 resolves nowhere.
      await refused({ id: back, target_scope: 10 }, /would be inactive/);
      // Tuning that changes no resolution is free: a scope the route back still takes.
      const same = await callTool(session, "router_update_route", { id: via, scope: 20 });
      assert.equal(same.isError, undefined, same.content[0]?.text);
    } finally {
      await session.close();
      await sim.close();
    }
  });
}
