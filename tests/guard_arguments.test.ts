/**
 * Local validation: addresses, prefixes, MAC addresses, ports, durations
 * and value lists are checked before anything is sent. Each bad value is an
 * argument error naming the argument and showing the accepted form, and the
 * router receives no command at all. Through MCP against the simulator.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const CASES: [string, Record<string, unknown>, RegExp][] = [
  [
    "router_add_ip_address",
    { address: "300.1.1.1/24", interface: "ether2" },
    /address: "300\.1\.1\.1\/24" is not an IPv4 address with optional prefix length, such as 192\.168\.88\.1\/24/,
  ],
  [
    "router_add_ipv6_address",
    { address: "2001:db8::zz/64", interface: "ether2" },
    /address: "2001:db8::zz\/64" is not an IPv6 address/,
  ],
  [
    "router_add_route",
    { dst_address: "10.0.0.0/33", gateway: "192.168.88.254" },
    /dst_address: "10\.0\.0\.0\/33" is not an IPv4 address/,
  ],
  [
    "router_add_dhcp_lease",
    { address: "192.168.88.50", mac_address: "00:11:22:33:44" },
    /mac_address: "00:11:22:33:44" is not a MAC address such as AA:BB:CC:00:11:22/,
  ],
  [
    "router_add_firewall_filter_rule",
    { chain: "forward", action: "drop", dst_port: "99999" },
    /dst_port: "99999" is not ports 0-65535: one \(22\), a list \(80,443\) or a range \(1024-65535\)/,
  ],
  [
    "router_add_netwatch",
    { host: "10.0.0.1", interval: "soon" },
    /interval: "soon" is not a duration such as 30s, 5m, 1d2h or 00:05:00/,
  ],
  [
    "router_add_firewall_filter_rule",
    { chain: "forward", action: "explode" },
    /action: Invalid option: expected one of "accept"\|"drop"/,
  ],
  [
    "router_disable_ip_service",
    { id: "ssh" },
    /id: must be a RouterOS item id such as \*1A \(from a list tool\); to name the item, use name/,
  ],
  [
    "router_remove_firewall_filter_rule",
    { id: "3", confirm: true },
    /id: must be a RouterOS item id such as \*1A \(from a list tool\)\. Nothing was sent/,
  ],
];

Deno.test("bad values are argument errors naming the argument, and nothing is sent", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
  try {
    await callTool(session, "router_list_ip_addresses", {});
    const sent = sim.counters.commands;
    for (const [tool, args, message] of CASES) {
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)} passed`);
      assert.match(r.content[0].text, message);
      assert.match(r.content[0].text, /invalid arguments: .*Nothing was sent\.$/);
    }
    assert.equal(sim.counters.commands, sent, "no command reached the router");
  } finally {
    await session.close();
    await sim.close();
  }
});
