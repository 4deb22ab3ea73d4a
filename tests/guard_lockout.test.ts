/**
 * The lock-out guard, through MCP against the simulator: firewall rules that
 * match every packet (guard_lockout_firewall.test.ts has the rules with
 * matchers), and changes that would cut the server's own session
 * (its address, its interface, the ssh service, its user) need
 * `confirm: true`, directly and inside `router_apply_changes`; the refusal
 * names what would be cut, and nothing reaches the router.
 *
 * The simulator listens on 127.0.0.2 and holds that address on ether2, so
 * the server's session really runs over ether2's address.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { callOk, lockoutRefused } from "./helpers/lockout.ts";

const HOST = "127.0.0.2";

async function rig() {
  const sim = await startSimulator({ host: HOST });
  const added = sim.run(`/ip address add address=${HOST}/8 interface=ether2`);
  assert.equal(added.exitCode, 0, added.output);
  const session = await serveInProcess(["--host", HOST, "--port", String(sim.port)]);
  return { sim, session };
}

Deno.test("lock-out guard: firewall rules that match every packet need confirm; a harmless matcher does not", async () => {
  const { sim, session } = await rig();
  try {
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_filter_rule",
      { chain: "input", action: "drop" },
      /the rule would drop this server's SSH session: chain=input action=drop \(no matcher: every packet\) matches/,
    );
    // Beside the session's chains, a rule without matcher still needs confirm.
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_filter_rule",
      { chain: "forward", action: "drop" },
      /no matcher, so it would drop every packet in chain forward \(action drop\) that no earlier rule takes, every connection through this router included/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_nat_rule",
      { chain: "dstnat", action: "dst-nat", to_addresses: "10.0.0.9" },
      /would redirect this server's SSH session: chain=dstnat action=dst-nat to-addresses=10\.0\.0\.9 \(no matcher/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_add_firewall_raw_rule",
      { chain: "prerouting", action: "drop", comment: "a comment is no matcher" },
      /would drop this server's SSH session: chain=prerouting action=drop \(no matcher: every packet\)/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_add_ipv6_firewall_filter_rule",
      { chain: "input", action: "reject" },
      /chain input \(action reject\)/,
    );
    // The session is IPv4: in the IPv6 tables a rule without matcher needs confirm as before.
    await lockoutRefused(
      session,
      sim,
      "router_add_ipv6_firewall_raw_rule",
      { chain: "prerouting", action: "drop" },
      /drop every packet in chain prerouting/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_add_ipv6_firewall_nat_rule",
      { chain: "srcnat", action: "masquerade" },
      /rewrite every packet in chain srcnat/,
    );
    // A matcher that leaves the session out, or a disabled rule: no lock-out.
    await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      src_address: "203.0.113.0/24",
    });
    const parked = await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      disabled: true,
      comment: "parked",
    }) as { item: { id: string } };
    // Enabling the parked catch-all is the change that would cut.
    await lockoutRefused(
      session,
      sim,
      "router_enable_firewall_filter_rule",
      { id: parked.item.id },
      /the rule would drop this server's SSH session: chain=input action=drop \(no matcher/,
    );
    await callOk(session, "router_enable_firewall_filter_rule", {
      id: parked.item.id,
      confirm: true,
    });
    // Once it is in place, changing its comment cuts nothing new.
    await callOk(session, "router_update_firewall_filter_rule", {
      id: parked.item.id,
      comment: "default deny",
    });
    // A non-final action cuts nothing, and a rule behind an accept of everything is never met.
    await callOk(session, "router_add_firewall_filter_rule", { chain: "input", action: "log" });
    await callOk(session, "router_add_firewall_filter_rule", { chain: "input", action: "accept" });
    await callOk(session, "router_add_firewall_filter_rule", {
      chain: "input",
      action: "drop",
      comment: "behind the accept",
    });
    const rules = sim.items("/ip/firewall/filter");
    assert.ok(rules.some((r) => r.comment === "default deny" && r.disabled === "false"));
    assert.ok(
      !rules.some((r) =>
        r.chain === "input" && r.action === "drop" && !r["src-address"] &&
        r.comment === undefined
      ),
    );
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out guard: the session's address, interface, ssh service and user need confirm", async () => {
  const { sim, session } = await rig();
  try {
    const own = sim.items("/ip/address").find((a) => a.address === `${HOST}/8`)!;
    await lockoutRefused(
      session,
      sim,
      "router_remove_ip_address",
      { id: own[".id"] },
      /127\.0\.0\.2\/8 on ether2 is the address this server's SSH session reaches the router at/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_disable_ip_address",
      { id: own[".id"] },
      /127\.0\.0\.2\/8 on ether2/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_ip_address",
      { id: own[".id"], address: "127.0.0.3/8" },
      /the address this server's SSH session/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_disable_interface",
      { name: "ether2" },
      /interface ether2 carries the address this server's SSH session uses/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_ethernet_port",
      { name: "ether2", arp: "disabled" },
      /interface ether2 carries .* \(without ARP it is unreachable\)/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_disable_ip_service",
      { name: "ssh" },
      /disables the ssh service this server logs in through/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_ip_service",
      { name: "ssh", port: 2222 },
      /moves ssh to port 2222; this server connects to port \d+/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_ip_service",
      { name: "ssh", address: ["10.0.0.0/8"] },
      /would only accept 10\.0\.0\.0\/8, and this server connects from 127\./,
    );
    await lockoutRefused(
      session,
      sim,
      "router_disable_user",
      { name: "admin" },
      /user "admin" is the one this server logs in as; disabling it/,
    );
    await lockoutRefused(
      session,
      sim,
      "router_update_user",
      { name: "admin", password: "Sekret-Lockout-77" },
      /its next login fails until its configuration has the new one/,
    );
    // The same changes elsewhere pass without confirm.
    await callOk(session, "router_disable_interface", { name: "ether3" });
    await callOk(session, "router_update_ip_service", { name: "ssh", address: ["127.0.0.0/8"] });
    await callOk(session, "router_disable_ip_service", { name: "telnet" });
    await callOk(session, "router_add_user", {
      name: "ops",
      group: "read",
      password: "Ops-Pa55-x",
    });
    await callOk(session, "router_disable_user", { name: "ops" });
    // With confirm the operator's word goes through.
    await callOk(session, "router_update_ip_service", { name: "ssh", port: 22, confirm: true });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("lock-out guard: inside router_apply_changes a lock-out needs confirm in its arguments", async () => {
  const { sim, session } = await rig();
  try {
    const before = configOf(sim);
    const r = await callTool(session, "router_apply_changes", {
      confirm: true,
      operations: [
        {
          tool: "router_add_ip_address",
          arguments: { address: "10.7.7.1/24", interface: "ether3" },
        },
        { tool: "router_disable_interface", arguments: { name: "ether2" } },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /router_disable_interface \(inside router_apply_changes\) would cut this server's own access/,
    );
    assert.match(r.content[0].text, /interface ether2 carries/);
    assert.equal(configOf(sim), before, "nothing of the batch was applied");
  } finally {
    await session.close();
    await sim.close();
  }
});
