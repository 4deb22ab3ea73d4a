/**
 * Fleet mode: an inventory of simulated routers, the `device` argument, and
 * `router_list_devices`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools, startRouters } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const SECRET = "fleet-Pa55word";

Deno.test("fleet: the same tool gives each router's own data through device", async () => {
  const sims = await startRouters(3, {
    users: [{ name: "admin", password: SECRET, group: "full" }],
  });
  sims.forEach((sim, i) => sim.run(`/ip address add address=10.${i}.0.1/24 interface=ether1`));
  const inventory = sims.map((sim, i) => ({
    title: `R${i + 1}`,
    host: sim.host,
    port: sim.port,
    password: SECRET,
    region: i < 2 ? "eu" : "us",
    tags: i === 0 ? ["core", "lab"] : ["edge"],
  }));
  const session = await serveInProcess([], { ROUTER_INVENTORY: JSON.stringify(inventory) });
  try {
    const tools = await listAllTools(session.client);
    const tool = tools.find((t: { name: string }) => t.name === "router_list_ip_addresses")!;
    const device = (tool.inputSchema.properties as Record<string, { enum?: string[] }>).device;
    assert.deepEqual(device.enum, ["R1", "R2", "R3"], "device is an enum of the titles");
    assert.ok(tool.inputSchema.required?.includes("device"), "device is required with 3 devices");

    const before = await callTool(session, "router_list_devices");
    const list = before.structuredContent?.items as Record<string, unknown>[];
    assert.deepEqual(
      list.map((d) => [d.title, d.host, d.port, d.username, d.region, d.connected]),
      [
        ["R1", sims[0].host, sims[0].port, "admin", "eu", false],
        ["R2", sims[1].host, sims[1].port, "admin", "eu", false],
        ["R3", sims[2].host, sims[2].port, "admin", "us", false],
      ],
    );
    assert.deepEqual(list[0].tags, ["core", "lab"]);
    assert.ok(!JSON.stringify(before).includes(SECRET), "no secret in router_list_devices");

    for (const [i, sim] of sims.entries()) {
      const r = await callTool(session, "router_list_ip_addresses", { device: `R${i + 1}` });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const addrs = (r.structuredContent?.items as { address: string }[]).map((x) => x.address);
      assert.deepEqual(addrs, sim.items("/ip/address").map((x) => x.address));
      assert.ok(addrs.includes(`10.${i}.0.1/24`));
      for (const [j, other] of sims.entries()) {
        if (j !== i) assert.ok(!addrs.includes(`10.${j}.0.1/24`), "no data from another router");
        assert.equal(other.counters.connections, j <= i ? 1 : 0, "connections open only on use");
      }
    }
    const titleCase = await callTool(session, "router_list_ip_addresses", { device: "r2" });
    assert.equal(titleCase.isError, true, "the enum is exact; r2 is not R2");

    const after = await callTool(session, "router_list_devices");
    assert.deepEqual(
      (after.structuredContent?.items as { connected: boolean }[]).map((d) => d.connected),
      [true, true, true],
    );
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
  }
});

Deno.test("fleet: an unknown or missing device is a tool error listing the valid titles", async () => {
  const sim = await startSimulator();
  const inventory = [
    { title: "alpha", host: sim.host, port: sim.port },
    { title: "beta", host: sim.host, port: sim.port },
  ];
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    const missing = await callTool(session, "router_list_ip_addresses", {});
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /device/);
    const unknown = await callTool(session, "router_list_ip_addresses", { device: "gamma" });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0].text, /alpha/);
    assert.match(unknown.content[0].text, /beta/);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("fleet: with one device, device may be left out", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify([{ title: "solo", host: sim.host, port: sim.port }]),
  ]);
  try {
    const r = await callTool(session, "router_list_ip_addresses");
    assert.equal(r.isError, undefined, r.content[0]?.text);
    assert.equal((r.structuredContent?.items as unknown[]).length, sim.items("/ip/address").length);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("fleet: 200 devices open nothing until a device is used", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      accepted++;
      conn.close();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  const inventory = Array.from({ length: 200 }, (_, i) => ({
    title: `r${i}`,
    host: "127.0.0.1",
    port,
  }));
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    const r = await callTool(session, "router_list_devices");
    assert.equal((r.structuredContent?.items as unknown[]).length, 200);
    await listAllTools(session.client);
    assert.equal(accepted, 0, "no TCP connection was made");
  } finally {
    await session.close();
    listener.close();
    await accepting.catch(() => {});
  }
});
