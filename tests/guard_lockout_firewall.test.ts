/**
 * The lock-out guard evaluates firewall rules against this server's own SSH
 * session, through MCP against the simulator on every simulated release
 * (6.49 and 7.12 read the table as terse records, 7.13 to 7.16 as guarded
 * JSON, 7.17 on as JSON): a rule that would drop, reject or redirect the
 * session needs `confirm: true` and the refusal names the rule and the
 * matchers; a harmless rule passes; an accept before the drop protects the
 * session; removing or moving that accept is a lock-out of its own. Every
 * command the guard sends exists in the release's real command tree.
 *
 * The simulator listens on 127.0.0.2 and holds that address on ether2, so
 * the session runs from 127.0.0.1 to 127.0.0.2 over ether2; the ssh
 * service's port is 22 (whatever port the simulator listens on, as behind a
 * port forward).
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { PROFILES } from "./helpers/profiles.ts";
import { callOk, commandsInTree, lockoutRefused } from "./helpers/lockout.ts";

const HOST = "127.0.0.2";
const SESSION = /\(src 127\.0\.0\.1 → 127\.0\.0\.2:22 tcp on ether2, new connection\)/;

async function rig(version: string) {
  const commands: string[] = [];
  const sim = await startSimulator({ host: HOST, version, onCommand: (c) => commands.push(c) });
  const added = sim.run(`/ip address add address=${HOST}/8 interface=ether2`);
  assert.equal(added.exitCode, 0, added.output);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  return { sim, session, commands };
}

/** The four rules of issue 31 (hole 5), and the sentence each refusal says. */
const HOLES: [Record<string, unknown>, RegExp][] = [
  [
    { chain: "input", action: "drop", protocol: "tcp", dst_port: "22" },
    /the rule would drop this server's SSH session: chain=input action=drop protocol=tcp dst-port=22 matches/,
  ],
  [
    { chain: "input", action: "drop", src_address: "127.0.0.1" },
    /would drop this server's SSH session: chain=input action=drop src-address=127\.0\.0\.1 matches/,
  ],
  [
    { chain: "input", action: "drop", src_address: "0.0.0.0/0" },
    /would drop this server's SSH session: chain=input action=drop src-address=0\.0\.0\.0\/0 matches/,
  ],
  [
    { chain: "input", action: "reject", protocol: "tcp" },
    /would reject this server's SSH session: chain=input action=reject protocol=tcp matches/,
  ],
];

for (const version of PROFILES) {
  Deno.test(`lock-out firewall ${version}: rules that cut the session need confirm, a harmless one does not`, async () => {
    const { sim, session, commands } = await rig(version);
    try {
      for (const [args, why] of HOLES) {
        await lockoutRefused(session, sim, "router_add_firewall_filter_rule", args, why);
        await lockoutRefused(session, sim, "router_add_firewall_filter_rule", args, SESSION);
      }
      await callOk(session, "router_add_firewall_filter_rule", {
        chain: "input",
        action: "drop",
        src_address: "192.0.2.99",
      });
      // The operator's word goes through.
      const added = await callOk(session, "router_add_firewall_filter_rule", {
        ...HOLES[0][0],
        comment: "confirmed",
        confirm: true,
      });
      assert.ok(sim.items("/ip/firewall/filter").some((r) => r[".id"] === added.item.id));
      commandsInTree(version, commands);
    } finally {
      await session.close();
      await sim.close();
    }
  });
}

Deno.test("lock-out firewall: interfaces, interface lists and address lists are read, not guessed", async () => {
  const { sim, session } = await rig("7.20.8");
  try {
    sim.run("/ip firewall address-list add list=blocked address=192.0.2.0/24");
    sim.run("/ip firewall address-list add list=ops address=127.0.0.0/30");
    const add = (args: Record<string, unknown>) =>
      callOk(session, "router_add_firewall_filter_rule", {
        chain: "input",
        action: "drop",
        ...args,
      });
    // ether1 and the WAN list (ether1) do not carry the session; "blocked" does not hold it.
    await add({ in_interface: "ether1" });
    await add({ in_interface_list: "WAN" });
    await add({ src_address_list: "blocked" });
    await add({ protocol: "udp" });
    await add({ protocol: "tcp", dst_port: "23,80,8000-9000" });
    await add({ dst_address: "!127.0.0.2" });
    const cut = (args: Record<string, unknown>, why: RegExp) =>
      lockoutRefused(session, sim, "router_add_firewall_filter_rule", {
        chain: "input",
        action: "drop",
        ...args,
      }, why);
    await cut({ in_interface: "ether2" }, /in-interface=ether2 matches/);
    await cut({ in_interface_list: "!LAN" }, /in-interface-list=!LAN matches/);
    await cut({ src_address_list: "ops" }, /src-address-list=ops matches/);
    await cut({ protocol: "tcp", dst_port: "20-25" }, /dst-port=20-25 matches/);
    // A matcher the guard cannot decide counts as matching.
    await cut(
      { protocol: "tcp", limit: "10,5:packet" },
      /limit=10,5:packet may match .*limit=10,5:packet cannot be evaluated \(it depends on the packet rate\)/,
    );
    // The router's answers leave through output.
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_filter_rule",
      {
        chain: "output",
        action: "drop",
        protocol: "tcp",
        src_port: "22",
      },
      /chain=output action=drop protocol=tcp src-port=22 matches \(the router's reply 127\.0\.0\.2:22 → 127\.0\.0\.1 tcp out ether2\)/,
    );
    // dstnat: moving ssh elsewhere cuts, a port forward of another port does not.
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_nat_rule",
      {
        chain: "dstnat",
        action: "redirect",
        protocol: "tcp",
        dst_port: "22",
        to_ports: "2222",
      },
      /would redirect this server's SSH session: chain=dstnat action=redirect protocol=tcp dst-port=22 to-ports=2222 matches/,
    );
    await callOk(session, "router_add_firewall_nat_rule", {
      chain: "dstnat",
      action: "dst-nat",
      protocol: "tcp",
      dst_port: "8080",
      to_addresses: "10.0.0.9",
    });
    // Raw prerouting sees the session before connection tracking.
    await lockoutRefused(session, sim, "router_add_firewall_raw_rule", {
      chain: "prerouting",
      action: "drop",
      src_address: "127.0.0.0/8",
    }, /chain=prerouting action=drop src-address=127\.0\.0\.0\/8 matches/);
    // Inside a batch the operation needs confirm in its own arguments.
    const before = configOf(sim);
    const batch = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: [{
        tool: "router_add_firewall_filter_rule",
        arguments: { chain: "input", action: "drop", protocol: "tcp", dst_port: "22" },
      }],
    });
    assert.equal(batch.isError, true);
    assert.match(
      batch.content[0].text,
      /router_add_firewall_filter_rule \(inside router_apply_changes\) would cut .*chain=input action=drop protocol=tcp dst-port=22 matches/,
    );
    assert.equal(configOf(sim), before);
    // The session is IPv4: an IPv6 rule with a matcher cannot touch it.
    await callOk(session, "router_add_ipv6_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      protocol: "tcp",
      dst_port: "22",
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out firewall: an accept before the drop protects the session; removing, disabling or moving it does not", async () => {
  const { sim, session } = await rig("7.16.2");
  try {
    const accept = await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "accept",
      src_address: "127.0.0.1",
      protocol: "tcp",
    });
    // The accept comes first, so the drop behind it cuts nothing.
    const drop = await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      protocol: "tcp",
      dst_port: "22",
    });
    const exposed = new RegExp(
      `after the change, rule \\${drop.item.id} would drop this server's SSH session: ` +
        "chain=input action=drop protocol=tcp dst-port=22 matches",
    );
    await lockoutRefused(
      session,
      sim,
      "router_remove_firewall_filter_rule",
      { id: accept.item.id },
      exposed,
    );
    await lockoutRefused(
      session,
      sim,
      "router_disable_firewall_filter_rule",
      { id: accept.item.id },
      exposed,
    );
    await lockoutRefused(session, sim, "router_update_firewall_filter_rule", {
      id: accept.item.id,
      src_address: "192.0.2.1",
    }, exposed);
    await lockoutRefused(
      session,
      sim,
      "router_move_firewall_filter_rule",
      { id: drop.item.id, destination: accept.item.id },
      /the rule would drop this server's SSH session: chain=input action=drop protocol=tcp dst-port=22 matches/,
    );
    // Changes that leave the accept in front pass; so does a comment.
    await callOk(session, "router_update_firewall_filter_rule", {
      id: accept.item.id,
      comment: "mgmt",
    });
    await callOk(session, "router_update_firewall_filter_rule", {
      id: drop.item.id,
      dst_port: "22,23",
    });
    // A disabled drop cuts nothing until it is enabled ahead of the accept.
    const parked = await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      src_address: "127.0.0.1",
      disabled: true,
    });
    await callOk(session, "router_move_firewall_filter_rule", {
      id: parked.item.id,
      destination: accept.item.id,
    });
    await lockoutRefused(
      session,
      sim,
      "router_enable_firewall_filter_rule",
      { id: parked.item.id },
      /the rule would drop this server's SSH session: chain=input action=drop src-address=127\.0\.0\.1 matches/,
    );
    // With confirm the accept goes, and the drop stays.
    await callOk(session, "router_remove_firewall_filter_rule", {
      id: accept.item.id,
      confirm: true,
    });
    const rules = sim.items("/ip/firewall/filter");
    assert.ok(rules.some((r) => r[".id"] === drop.item.id), "the drop is still there");
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out firewall: a jump to a custom chain is followed", async () => {
  const { sim, session } = await rig("6.49.13");
  try {
    await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "jump",
      jump_target: "mgmt",
      in_interface: "ether2",
    });
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_filter_rule",
      {
        chain: "mgmt",
        action: "drop",
        protocol: "tcp",
      },
      /chain=mgmt action=drop protocol=tcp matches \(src 127\.0\.0\.1 → 127\.0\.0\.2:22 tcp on ether2, new connection, reached by jump from input\)/,
    );
    // A rule in a chain nothing jumps to is never met.
    await callOk(session, "router_add_firewall_filter_rule", {
      chain: "unused",
      action: "drop",
      protocol: "tcp",
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out firewall: over IPv6 the IPv6 filter is evaluated, the IPv4 one keeps its catch-all", async () => {
  let sim;
  try {
    sim = await startSimulator({ host: "::1", version: "7.16.2" });
  } catch (err) {
    console.log(`SKIP: no IPv6 loopback here (${(err as Error).message})`);
    return;
  }
  const added = sim.run("/ipv6 address add address=::1/128 interface=ether2");
  assert.equal(added.exitCode, 0, added.output);
  const session = await serveInProcess(["--host", "::1", "--port", String(sim.port)]);
  try {
    await lockoutRefused(
      session,
      sim,
      "router_add_ipv6_firewall_filter_rule",
      {
        chain: "input",
        action: "drop",
        protocol: "tcp",
        dst_port: "22",
      },
      /chain=input action=drop protocol=tcp dst-port=22 matches \(src ::1 → ::1:22 tcp on ether2, new connection\)/,
    );
    await callOk(session, "router_add_ipv6_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      src_address: "2001:db8::/32",
    });
    await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      protocol: "tcp",
    });
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_filter_rule",
      { chain: "input", action: "drop" },
      /no matcher, so it would drop every packet in chain input \(action drop\) that no earlier rule takes, this server's SSH session included/,
    );
  } finally {
    await session.close();
    await sim.close();
  }
});
