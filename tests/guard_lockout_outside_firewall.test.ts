/**
 * The lock-out guard beyond the firewall rule tables. First the hostile
 * re-test of issue 31 as it was reported: the lock-out guard evaluated firewall rules,
 * but changes elsewhere that cut this server's own SSH session pass
 * without `confirm`:
 *
 * - an address-list entry holding this server's address, in a list an
 *   existing drop rule names (the rule itself was added without confirm,
 *   rightly, while the list did not hold the address);
 * - a blackhole route (or any more specific route) to this server's address:
 *   the router's answers go nowhere;
 * - the interface carrying the session's address made a bridge port (its
 *   address stops working until it is moved to the bridge);
 * - an IPsec policy with action discard for the session's traffic.
 *
 * Each was a plain write with no lock-out rule, so the guard never looked.
 * Against the simulator, in process (the session runs from 127.0.0.1 to
 * the simulator on 127.0.0.1:port). Each step failed on the code it was
 * written against: the change was applied without confirm.
 *
 * Then, on every simulated release, with the simulator on 127.0.0.4 holding
 * that address on ether2 (the session arrives on ether2, and the router's
 * replies leave by the connected route 127.0.0.0/8): what needs confirm
 * (and says why), what harmless neighbour of it does not, and every command
 * the guard sends exists in the release's real command tree.
 */
import assert from "node:assert/strict";
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";
import { callTool, type McpSession } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";
import { PROFILES } from "./helpers/profiles.ts";
import { callOk, commandsInTree, lockoutRefused } from "./helpers/lockout.ts";

/** This server's address as the router sees it (the simulator listens on loopback). */
const SERVER = "127.0.0.1";

async function rig(setup: string[] = []): Promise<{ sim: SimRouter; session: McpSession }> {
  const sim = await startSimulator();
  for (const line of setup) {
    const r = sim.run(line);
    assert.equal(r.exitCode, 0, `${line}: ${r.output}`);
  }
  const session = await serveInProcess([
    ...simArgs(sim),
  ]);
  return { sim, session };
}

/** The call is refused as a lock-out, and nothing changed on the router. */
async function refusedAsLockout(
  session: McpSession,
  sim: SimRouter,
  menu: string,
  tool: string,
  args: Record<string, unknown>,
) {
  const before = sim.items(menu).length;
  const r = await callTool(session, tool, args);
  const text = r.content.map((c) => c.text).join("\n");
  assert.equal(
    sim.items(menu).length,
    before,
    `${tool} ${JSON.stringify(args)} cut this server's own session without confirm: ${
      text.slice(0, 200)
    }`,
  );
  assert.equal(r.isError, true, text);
  assert.match(text, /would cut this server.s own access/);
  console.log(text);
}

Deno.test("hostile: lock-outs outside the firewall rule tables need confirm", async (t) => {
  await t.step("control: a raw rule dropping this server's address needs confirm", async () => {
    const { sim, session } = await rig();
    try {
      await refusedAsLockout(session, sim, "/ip/firewall/raw", "router_add_firewall_raw_rule", {
        chain: "prerouting",
        src_address: SERVER,
        action: "drop",
      });
    } finally {
      await session.close();
      await sim.close();
    }
  });

  await t.step("this server's address added to a list a drop rule names", async () => {
    const { sim, session } = await rig();
    try {
      // The list is empty, so this rule cuts nothing yet (rightly no confirm).
      const rule = await callTool(session, "router_add_firewall_raw_rule", {
        chain: "prerouting",
        src_address_list: "blocked",
        action: "drop",
      });
      assert.equal(rule.isError, undefined, rule.content[0].text);
      await refusedAsLockout(
        session,
        sim,
        "/ip/firewall/address-list",
        "router_add_firewall_address_list_entry",
        { list: "blocked", address: SERVER },
      );
    } finally {
      await session.close();
      await sim.close();
    }
  });

  await t.step("a blackhole route to this server's address", async () => {
    const { sim, session } = await rig();
    try {
      await refusedAsLockout(session, sim, "/ip/route", "router_add_blackhole_route", {
        dst_address: `${SERVER}/32`,
      });
    } finally {
      await session.close();
      await sim.close();
    }
  });

  await t.step("the session's interface made a bridge port", async () => {
    // The router holds the address the session reaches, on ether2 (not a bridge port).
    const { sim, session } = await rig([
      "/interface bridge port remove [find interface=ether2]",
      `/ip address add address=${SERVER}/8 interface=ether2`,
    ]);
    try {
      await refusedAsLockout(session, sim, "/interface/bridge/port", "router_add_bridge_port", {
        bridge: "bridge",
        interface: "ether2",
      });
    } finally {
      await session.close();
      await sim.close();
    }
  });

  await t.step("an IPsec policy discarding the session's packets", async () => {
    const { sim, session } = await rig();
    try {
      await refusedAsLockout(session, sim, "/ip/ipsec/policy", "router_add_ipsec_policy", {
        src_address: `${SERVER}/32`,
        dst_address: `${SERVER}/32`,
        action: "discard",
      });
    } finally {
      await session.close();
      await sim.close();
    }
  });
});

const HOST = "127.0.0.4";

for (const version of PROFILES) {
  Deno.test(`lock-out beyond the firewall ${version}: lists, routes, bridge ports, IPsec`, async () => {
    const commands: string[] = [];
    const sim = await startSimulator({ host: HOST, version, onCommand: (c) => commands.push(c) });
    for (
      const line of [
        "/interface bridge port remove [find interface=ether2]",
        `/ip address add address=${HOST}/8 interface=ether2`,
      ]
    ) assert.equal(sim.run(line).exitCode, 0, line);
    const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
    try {
      // Address lists: a drop rule on an empty list is harmless; the server's address in it is not.
      await callOk(session, "router_add_firewall_raw_rule", {
        chain: "prerouting",
        src_address_list: "blocked",
        action: "drop",
      });
      await callOk(session, "router_add_firewall_address_list_entry", {
        list: "blocked",
        address: "192.0.2.1",
      });
      await callOk(session, "router_add_firewall_address_list_entry", {
        list: "elsewhere",
        address: "127.0.0.1",
      });
      await lockoutRefused(
        session,
        sim,
        "router_add_firewall_address_list_entry",
        { list: "blocked", address: "127.0.0.0/24" },
        /127\.0\.0\.0\/24 would join address list blocked: after the change, rule \*\w+ would drop this server's SSH session: chain=prerouting action=drop src-address-list=blocked matches \(src 127\.0\.0\.1 → 127\.0\.0\.4:22 tcp on ether2, new connection\)/,
      );
      // An allow-list: the server leaving it is the cut.
      const mgmt = await callOk(session, "router_add_firewall_address_list_entry", {
        list: "mgmt",
        address: "127.0.0.1",
      });
      await callOk(session, "router_add_firewall_filter_rule", {
        chain: "input",
        src_address_list: "!mgmt",
        action: "drop",
      });
      for (
        const [tool, args] of [
          ["router_disable_firewall_address_list_entry", { id: mgmt.item.id }],
          ["router_remove_firewall_address_list_entry", { id: mgmt.item.id }],
          ["router_update_firewall_address_list_entry", { id: mgmt.item.id, address: "10.0.0.1" }],
        ] as const
      ) {
        await lockoutRefused(
          session,
          sim,
          tool,
          args,
          /127\.0\.0\.1 would leave address list mgmt/,
        );
      }
      // Hostile re-test 4 (issue 31): the rule evaluated an entry's list, address
      // and disabled, not its `timeout`. Removing the entry that lets this server
      // in needed confirm; `router_update_firewall_address_list_entry {timeout:
      // "30s"}` on it was sent without, and RouterOS drops the entry when the
      // timeout runs out: the session is cut 30 seconds later, after the call
      // returned a success (a careless "expire the temporary entries in mgmt"
      // locks the server out, with a delay that hides the cause). A timeout set
      // is now taken as the removal it ends in.
      await lockoutRefused(
        session,
        sim,
        "router_update_firewall_address_list_entry",
        { id: mgmt.item.id, timeout: "30s" },
        /127\.0\.0\.1 would leave address list mgmt when its timeout \(30s\) runs out/,
      );
      // A new entry with a timeout: the list is as now once it runs out; while it
      // lives, it is an entry like any other (blocked: a cut at once).
      await callOk(session, "router_add_firewall_address_list_entry", {
        list: "mgmt",
        address: "10.0.0.9",
        timeout: "1h",
      });
      await lockoutRefused(
        session,
        sim,
        "router_add_firewall_address_list_entry",
        { list: "blocked", address: "127.0.0.1", timeout: "1h" },
        /127\.0\.0\.1 would join address list blocked: after the change/,
      );
      await callOk(session, "router_update_firewall_address_list_entry", {
        id: mgmt.item.id,
        comment: "a comment reads nothing",
      });

      // Interface lists: the server's interface leaving a list an allow rule names.
      await callOk(session, "router_add_interface_list", { name: "MGMT" });
      const member = await callOk(session, "router_add_interface_list_member", {
        list: "MGMT",
        interface: "ether2",
      });
      await callOk(session, "router_add_firewall_filter_rule", {
        chain: "input",
        in_interface_list: "!MGMT",
        action: "drop",
      });
      await callOk(session, "router_add_interface_list_member", {
        list: "MGMT",
        interface: "ether3",
      });
      for (
        const [tool, args] of [
          ["router_remove_interface_list_member", { id: member.item.id }],
          ["router_disable_interface_list_member", { id: member.item.id }],
          ["router_update_interface_list_member", { id: member.item.id, interface: "ether4" }],
        ] as const
      ) {
        await lockoutRefused(
          session,
          sim,
          tool,
          args,
          /ether2 would leave interface list MGMT(?: and ether4 would join interface list MGMT)?: after the change, rule \*\w+ would drop this server's SSH session: chain=input action=drop in-interface-list=!MGMT matches/,
        );
      }
      await callOk(session, "router_add_interface_list_member", {
        list: "WAN",
        interface: "ether2",
      });
      await lockoutRefused(
        session,
        sim,
        "router_update_interface_list",
        { name: "MGMT", exclude: ["WAN"] },
        /interface list MGMT would include none and exclude WAN: after the change, rule/,
      );

      // The built-in lists are RouterOS's own: it refuses to change or remove them.
      for (
        const [tool, args] of [
          ["router_update_interface_list", { name: "all", comment: "x" }],
          ["router_remove_interface_list", { name: "dynamic", confirm: true }],
        ] as const
      ) {
        const r = await callTool(session, tool, args);
        assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.content[0].text}`);
        assert.match(r.content[0].text, /builtin list/);
      }

      // Routes: the router's replies to 127.0.0.1 leave by the connected route on ether2.
      const replies =
        /the router's replies to this server's SSH session \(127\.0\.0\.4 → 127\.0\.0\.1\)/;
      await lockoutRefused(
        session,
        sim,
        "router_add_blackhole_route",
        { dst_address: "127.0.0.1/32" },
        new RegExp(
          `${replies.source} would meet blackhole route .*127\\.0\\.0\\.1/32.* \\(now they go via ether2 by route`,
        ),
      );
      await lockoutRefused(
        session,
        sim,
        "router_add_route",
        { dst_address: "127.0.0.0/30", gateway: "192.168.88.254" },
        new RegExp(`${replies.source} would go via 192\\.168\\.88\\.254 on bridge`),
      );
      await callOk(session, "router_add_route", {
        dst_address: "10.99.4.0/24",
        gateway: "192.168.88.254",
      });
      await callOk(session, "router_add_blackhole_route", { dst_address: "203.0.113.0/24" });
      // Addresses are routes too: their connected route (tests/guard_lockout_route_back.test.ts).
      await lockoutRefused(
        session,
        sim,
        "router_add_ip_address",
        { address: "127.0.0.2/24", interface: "ether5" },
        new RegExp(
          `the address 127\\.0\\.0\\.2/24 on ether5 makes a connected route: ${replies.source} ` +
            "would go via ether5 by route",
        ),
      );
      await callOk(session, "router_add_ip_address", {
        address: "10.99.5.1/24",
        interface: "ether5",
      });

      // Bridge ports: the server's interface into a bridge; another one is fine.
      await callOk(session, "router_add_bridge_port", {
        bridge: "bridge",
        interface: "ether2",
        disabled: true,
      });
      await lockoutRefused(
        session,
        sim,
        "router_enable_bridge_port",
        { id: sim.items("/interface/bridge/port").find((p) => p.interface === "ether2")![".id"] },
        /interface ether2 carries the address this server's SSH session uses; bridge bridge would take it over/,
      );

      // IPsec policies: one that discards or encrypts the session; one for other traffic is fine.
      await callOk(session, "router_add_ipsec_policy", {
        src_address: "10.99.9.0/24",
        dst_address: "10.99.10.0/24",
        action: "discard",
      });
      await lockoutRefused(
        session,
        sim,
        "router_add_ipsec_policy",
        { src_address: "127.0.0.0/8", dst_address: "127.0.0.1/32", action: "discard" },
        /the policy would discard the packets of this server's SSH session: action=discard src-address=127\.0\.0\.0\/8 dst-address=127\.0\.0\.1\/32 matches \(the router's replies 127\.0\.0\.4:22 → 127\.0\.0\.1/,
      );
      await lockoutRefused(
        session,
        sim,
        "router_add_ipsec_policy",
        { src_address: "0.0.0.0/0", dst_address: "127.0.0.0/8", level: "use" },
        /would send into an IPsec tunnel .*level=use/,
      );
      commandsInTree(version, commands);
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

Deno.test("lock-out beyond the firewall: the session's VLAN retagged or reparented, VLAN filtering on its bridge", async () => {
  const sim = await startSimulator({ host: HOST, version: "7.20.8" });
  for (
    const line of [
      "/interface vlan add name=vlan99 vlan-id=99 interface=ether3",
      `/ip address add address=${HOST}/8 interface=vlan99`,
      "/interface vlan add name=vlan98 vlan-id=98 interface=bridge",
    ]
  ) assert.equal(sim.run(line).exitCode, 0, line);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  try {
    await lockoutRefused(
      session,
      sim,
      "router_update_vlan",
      { name: "vlan99", vlan_id: 100 },
      /interface vlan99 carries the address this server's SSH session uses \(VLAN id 100 puts it on another VLAN/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_vlan",
      { name: "vlan99", interface: "ether4" },
      /\(on ether4 its frames come from another port\)/,
    );
    await callOk(session, "router_update_vlan", { name: "vlan98", vlan_id: 97 });
    await lockoutRefused(
      session,
      sim,
      "router_add_bridge_port",
      { bridge: "bridge", interface: "ether3" },
      /interface ether3 is the parent of vlan99, which carries this server's SSH session; bridge bridge would take it over/,
    );
    // The session's bridge: VLAN filtering on it needs confirm (the guard does not evaluate the VLAN table).
    assert.equal(
      sim.run(`/ip address set [find address="${HOST}/8"] interface=bridge`).exitCode,
      0,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_bridge",
      { name: "bridge", vlan_filtering: true },
      /interface bridge carries the address this server's SSH session uses \(with VLAN filtering on/,
    );
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out beyond the firewall: a first call to a router named by host name is checked too", async () => {
  // Before the first connection the socket's ends are unknown: the guard connects first.
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    "localhost",
    "--port",
    String(sim.port),
    "--host-key-policy",
    "off",
  ]);
  try {
    await refusedAsLockout(session, sim, "/ip/route", "router_add_blackhole_route", {
      dst_address: `${SERVER}/32`,
    });
  } finally {
    await session.close();
    await sim.close();
  }
});
