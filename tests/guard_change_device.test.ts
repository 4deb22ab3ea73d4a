/**
 * A confirm-or-revert change acts on one device: the one its revert job is
 * armed on and its lock-out checks look at. An operation that names another
 * device in its arguments is refused before anything is armed or changed,
 * on either device, with the fix (one `router_apply_changes` per device); a
 * lock-out change on the other device with `confirm: true` cannot slip
 * through that way. A fleet query's nested arguments cannot redirect it to
 * another device either. Through MCP (fleet mode) against two simulators.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, configOf } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

Deno.test("router_apply_changes: every operation acts on the change's own device", async () => {
  const r1 = await startSimulator();
  const r2 = await startSimulator();
  const inventory = [
    { title: "MikroTik-1", host: r1.host, port: r1.port },
    { title: "MikroTik-2", host: r2.host, port: r2.port },
  ];
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(inventory),
    "--host-key-policy",
    "off",
  ]);
  try {
    const before1 = configOf(r1);
    const before2 = configOf(r2);
    const elsewhere = await callTool(session, "router_apply_changes", {
      device: "MikroTik-1",
      confirm: true,
      operations: [
        {
          tool: "router_add_ip_address",
          arguments: { address: "10.31.0.1/24", interface: "ether3" },
        },
        {
          tool: "router_add_ip_address",
          arguments: { device: "MikroTik-2", address: "10.32.0.1/24", interface: "ether3" },
        },
      ],
    });
    const text = elsewhere.content[0].text;
    assert.equal(elsewhere.isError, true, text);
    assert.match(text, /operation 2 \(router_add_ip_address\): device "MikroTik-2"/);
    assert.match(text, /this change's device \("MikroTik-1"\)/);
    assert.match(text, /send one router_apply_changes per device/);
    assert.equal(configOf(r1), before1, "nothing was armed or applied on MikroTik-1");
    assert.equal(configOf(r2), before2, "nothing was applied on MikroTik-2");

    // A lock-out on the other device with confirm: true is refused alike.
    const ssh = r2.items("/ip/service").find((s) => s.name === "ssh")![".id"];
    const lockout = await callTool(session, "router_apply_changes", {
      device: "MikroTik-1",
      confirm: true,
      operations: [{
        tool: "router_update_ip_service",
        arguments: { device: "MikroTik-2", id: ssh, port: 2222, confirm: true },
      }],
    });
    assert.equal(lockout.isError, true, lockout.content[0].text);
    assert.match(lockout.content[0].text, /send one router_apply_changes per device/);
    assert.equal(configOf(r2), before2, "the ssh port of MikroTik-2 is unchanged");

    // The dry run says the same.
    const dry = await callTool(session, "router_apply_changes", {
      device: "MikroTik-1",
      dry_run: true,
      operations: [{
        tool: "router_add_ip_address",
        arguments: { device: "MikroTik-2", address: "10.32.0.1/24", interface: "ether3" },
      }],
    });
    assert.equal(dry.isError, true, dry.content[0].text);
    assert.match(dry.content[0].text, /send one router_apply_changes per device/);

    // Naming the change's own device is allowed (and changes nothing about it).
    const same = await callTool(session, "router_apply_changes", {
      device: "MikroTik-2",
      confirm: true,
      operations: [{
        tool: "router_add_ip_address",
        arguments: { device: "MikroTik-2", address: "10.32.0.1/24", interface: "ether3" },
      }],
    });
    assert.equal(same.isError, undefined, same.content[0].text);
    assert.ok(r2.items("/ip/address").some((a) => a.address === "10.32.0.1/24"));
    assert.ok(r2.items("/system/scheduler").some((j) => j.name.startsWith("mcp-revert-")));
    assert.equal(configOf(r1), before1);

    // A fleet query runs its tool on the devices it chose, never one named in the arguments.
    const q = await callTool(session, "router_fleet_query", {
      tool: "router_list_ip_addresses",
      devices: ["MikroTik-1"],
      arguments: { device: "MikroTik-2" },
    });
    assert.equal(q.isError, true, q.content[0].text);
    assert.match(q.content[0].text, /device "MikroTik-2" in its arguments/);
  } finally {
    await session.close();
    await r1.close();
    await r2.close();
  }
});
