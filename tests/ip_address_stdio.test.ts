/**
 * The walking skeleton end to end: an SDK client spawns main.ts over stdio,
 * which reaches the simulator over real SSH.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools, spawnServer } from "./helpers/mcp.ts";

type Item = Record<string, unknown>;

/** What the tool should return for a simulator item (stored as strings). */
function expected(raw: Record<string, string>): Item {
  const bool = (v: string | undefined) => v === "true" || v === "yes";
  const item: Item = {
    id: raw[".id"],
    address: raw.address,
    network: raw.network,
    interface: raw.interface,
    actual_interface: raw["actual-interface"],
    disabled: bool(raw.disabled),
    dynamic: bool(raw.dynamic),
    invalid: bool(raw.invalid),
  };
  if (raw.comment !== undefined) item.comment = raw.comment;
  return item;
}

function pick(item: Item, keys: string[]): Item {
  return Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
}

const KEYS = [
  "id",
  "address",
  "network",
  "interface",
  "actual_interface",
  "disabled",
  "dynamic",
  "invalid",
  "comment",
];

Deno.test("stdio: tools/list and router_list_ip_addresses against the simulator", async (t) => {
  const sim = await startSimulator();
  sim.run('/ip address add address=10.0.0.1/24 interface=ether1 comment="uplink"');
  sim.run("/ip address add address=10.9.9.1/30 interface=ether2 disabled=yes");
  const session = await spawnServer(["--host", sim.host, "--port", String(sim.port)]);
  try {
    await t.step("tools/list shows the tool with schemas and annotations", async () => {
      const tools = await listAllTools(session.client);
      const tool = tools.find((x: { name: string }) => x.name === "router_list_ip_addresses");
      assert.ok(tool, "router_list_ip_addresses is listed");
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.outputSchema?.type, "object");
      const where = (tool.inputSchema.properties?.where ?? {}) as { properties?: object };
      const props = Object.keys(where.properties ?? {});
      for (const f of ["interface", "address", "disabled", "dynamic"]) assert.ok(props.includes(f));
      assert.ok(!props.includes("device"), "single-device mode has no device argument");
    });

    await t.step("unfiltered: every record matches the simulator, field by field", async () => {
      const r = await callTool(session, "router_list_ip_addresses");
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const items = (r.structuredContent?.items as Item[]).map((i) => pick(i, KEYS));
      const want = sim.items("/ip/address").map(expected);
      assert.deepEqual(items, want);
      assert.equal(items.length, 3);
      assert.match(r.content[0].text, /ADDRESS\s+NETWORK\s+INTERFACE/);
      assert.match(r.content[0].text, /10\.0\.0\.1\/24\s+10\.0\.0\.0\s+ether1/);
    });

    const filters: [string, Item, (i: Record<string, string>) => boolean][] = [
      ["interface", { interface: "ether1" }, (i) => i.interface === "ether1"],
      ["address", { address: "192.168.88.1/24" }, (i) => i.address === "192.168.88.1/24"],
      ["disabled", { disabled: true }, (i) => i.disabled === "true" || i.disabled === "yes"],
      ["dynamic", { dynamic: false }, (i) => !(i.dynamic === "true" || i.dynamic === "yes")],
    ];
    for (const [name, args, match] of filters) {
      await t.step(`filter by ${name}`, async () => {
        const r = await callTool(session, "router_list_ip_addresses", { where: args });
        const items = (r.structuredContent?.items as Item[]).map((i) => pick(i, KEYS));
        const want = sim.items("/ip/address").filter(match).map(expected);
        assert.ok(want.length > 0);
        assert.deepEqual(items, want);
      });
    }

    await t.step("a change on the router shows up on the same pooled connection", async () => {
      const before = sim.counters.connections;
      sim.run("/ip address add address=172.16.5.1/24 interface=ether3");
      const r = await callTool(session, "router_list_ip_addresses", {
        where: { interface: "ether3" },
      });
      const items = r.structuredContent?.items as Item[];
      assert.deepEqual(items.map((i) => i.address), ["172.16.5.1/24"]);
      assert.equal(sim.counters.connections, before, "no new SSH connection");
      assert.equal(sim.counters.connections, 1);
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("stdio: a wrong password is a tool error naming the device, without the password", async () => {
  const sim = await startSimulator({
    users: [{ name: "admin", password: "right-Pa55", group: "full" }],
  });
  const session = await spawnServer([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--password",
    "wrong-Pa55",
  ]);
  try {
    const r = await callTool(session, "router_list_ip_addresses");
    assert.equal(r.isError, true);
    const text = r.content[0].text;
    assert.match(text, new RegExp(`device "${sim.host}" \\(${sim.host}:${sim.port}\\)`));
    assert.match(text, /authentication failed/);
    assert.ok(!text.includes("Pa55"), text);
    assert.ok(!session.stderr().includes("Pa55"));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("stdio: a closed router port is a clear connection error within the timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const session = await spawnServer([
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--connect-timeout",
    "3",
  ]);
  try {
    const r = await callTool(session, "router_list_ip_addresses");
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, new RegExp(`127\\.0\\.0\\.1:${port}\\): connection refused`));
  } finally {
    await session.close();
  }
});
