/**
 * Toolsets, dynamic toolsets (tools/list_changed) and fleet queries over
 * many simulated routers, some unreachable.
 */
import assert from "node:assert/strict";
import {
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools, runCli, startRouters } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Tool = { name: string };

Deno.test("--toolsets limits tools/list to the named groups", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess(["--host", sim.host, "--port", String(sim.port)], {
    ROUTER_TOOLSETS: "ip,dns",
  });
  try {
    const names = ((await listAllTools(session.client)) as Tool[]).map((t) => t.name);
    assert.ok(names.includes("router_list_ip_addresses"));
    assert.ok(names.some((n) => n.includes("dns")));
    assert.ok(!names.some((n) => n.includes("firewall")), "firewall tools are not listed");
    assert.ok(!names.includes("router_list_devices"), "fleet tools are not listed");
    // Every chosen toolset is listed whole: nothing to enable.
    assert.doesNotMatch(session.client.getInstructions() ?? "", /router_enable_toolsets/);
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("an unknown toolset is a clear configuration error", async () => {
  const r = await runCli(["--host", "r1", "--toolsets", "ip,routingg"]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /"routingg" for --toolsets.*expected default, all, or a comma list of: .*routing/,
  );
});

Deno.test("--dynamic-toolsets: discovery only; one list_changed per enable or disable, several at once", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--dynamic-toolsets",
  ]);
  try {
    let changed = 0;
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    // initialize said so (answered before the catalogue was loaded).
    assert.match(
      session.client.getInstructions() ?? "",
      /This session lists no router tools yet; router_enable_toolsets adds a whole toolset: interfaces \(/,
    );
    const names = async () =>
      ((await listAllTools(session.client)) as Tool[]).map((t) => t.name).sort();
    assert.deepEqual(await names(), [
      "router_disable_toolsets",
      "router_enable_toolsets",
      "router_list_toolsets",
    ]);
    const sets = await callTool(session, "router_list_toolsets");
    const ip = (sets.structuredContent?.items as { name: string; enabled: boolean }[])
      .find((s) => s.name === "ip");
    assert.deepEqual(ip && ip.enabled, false);
    const refused = await callTool(session, "router_list_ip_addresses");
    assert.equal(refused.isError, true);
    assert.match(
      refused.content[0].text,
      /in the ip toolset, which is not enabled in this session/,
    );
    const r = await callTool(session, "router_enable_toolsets", { toolsets: ["ip", "dns"] });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    const settle = () => new Promise((res) => setTimeout(res, 200));
    await settle();
    assert.equal(changed, 1, "exactly one notifications/tools/list_changed for the enable");
    const now = await names();
    assert.ok(
      now.includes("router_list_ip_addresses") && now.includes("router_list_dns_static_entries"),
    );
    assert.ok(!now.some((n) => n.includes("firewall")));
    const call = await callTool(session, "router_list_ip_addresses");
    assert.equal(call.isError, undefined, call.content[0]?.text);
    const off = await callTool(session, "router_disable_toolsets", { toolsets: ["ip"] });
    assert.equal(off.isError, undefined, off.content[0]?.text);
    await settle();
    assert.equal(changed, 2, "exactly one more for the disable");
    assert.ok(!(await names()).includes("router_list_ip_addresses"));
    assert.ok((await names()).includes("router_list_dns_static_entries"));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("fleet query over 20 routers with 2 unreachable: per-device results and errors, progress", async () => {
  const sims = await startRouters(18);
  const dead: number[] = [];
  for (let i = 0; i < 2; i++) {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    dead.push((l.addr as Deno.NetAddr).port);
    l.close();
  }
  sims.forEach((s, i) => s.run(`/system identity set name="router-${i}"`));
  const inventory = [
    ...sims.map((s, i) => ({
      title: `r${i}`,
      host: s.host,
      port: s.port,
      tags: i % 2 ? ["odd"] : ["even"],
      region: i < 9 ? "eu" : "us",
    })),
    ...dead.map((port, i) => ({ title: `dead${i}`, host: "127.0.0.1", port, tags: ["odd"] })),
  ];
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    // The SDK client hands notifications to handlers a tick after reading
    // them, so count them with our own handler, which also sees late ones.
    const progress: number[] = [];
    session.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { progress: number } }) => {
        progress.push(n.params.progress);
      },
    );
    const r = await session.client.callTool(
      { name: "router_fleet_query", arguments: { tool: "router_list_ip_addresses" } },
      undefined,
      { onprogress: () => {} },
    ) as { structuredContent: Record<string, unknown>; isError?: boolean };
    assert.equal(r.isError, undefined);
    const results = r.structuredContent.results as {
      device: string;
      ok: boolean;
      result?: { items: { address: string }[] };
      error?: string;
    }[];
    assert.equal(results.length, 20);
    assert.equal(r.structuredContent.succeeded, 18);
    assert.equal(r.structuredContent.failed, 2);
    for (const [i, s] of sims.entries()) {
      const res = results.find((x) => x.device === `r${i}`)!;
      assert.equal(res.ok, true);
      assert.deepEqual(
        res.result!.items.map((a) => a.address),
        s.items("/ip/address").map((a) => a.address),
      );
    }
    for (const d of ["dead0", "dead1"]) {
      const res = results.find((x) => x.device === d)!;
      assert.equal(res.ok, false);
      assert.match(res.error!, /connection refused/);
    }
    const until = Date.now() + 3000;
    while (progress.length < 20 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.equal(progress.length, 20, "one progress notification per device");
    assert.equal(Math.max(...progress), 20);

    const odd = await callTool(session, "router_fleet_query", {
      tool: "router_get_identity",
      tags: ["odd"],
      region: "eu",
    });
    assert.equal(odd.isError, undefined, odd.content[0]?.text);
    const oddResults = odd.structuredContent?.results as {
      device: string;
      result: { item: { name: string } };
    }[];
    assert.deepEqual(oddResults.map((x) => x.device), ["r1", "r3", "r5", "r7"]);
    assert.deepEqual(oddResults.map((x) => x.result.item.name), [
      "router-1",
      "router-3",
      "router-5",
      "router-7",
    ]);

    const unknown = await callTool(session, "router_fleet_query", {
      tool: "router_list_ip_addresses",
      devices: ["r1", "nope"],
    });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0].text, /unknown device\(s\) "nope"/);

    const write = await callTool(session, "router_fleet_query", {
      tool: "router_add_ip_address",
    });
    assert.equal(write.isError, true, "only read-only tools can fan out");
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
  }
});
