/**
 * Resources, prompts and completions end to end: an SDK client talks to the
 * real server (main.ts over stdio) in front of simulated routers over SSH.
 * Every resource read is a tool call through the guard chain, so what a
 * server does not offer (toolsets) is neither listed nor readable, and the
 * export keeps secrets on the router.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, type McpSession, startRouters } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Text = { uri: string; mimeType?: string; text?: string };

async function read(session: McpSession, uri: string): Promise<Text> {
  const r = await session.client.readResource({ uri });
  assert.equal(r.contents.length, 1);
  return r.contents[0] as Text;
}

async function rejects(p: Promise<unknown>, code: number, text: RegExp): Promise<void> {
  await assert.rejects(p, (err: { code?: number; message?: string }) => {
    assert.equal(err.code, code, err.message);
    assert.match(err.message ?? "", text);
    return true;
  });
}

Deno.test("resources, prompts and completions on one router (default toolsets)", async (t) => {
  const sim = await startSimulator();
  const key = "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Qga2V5IT0=";
  sim.run(`/interface wireguard add name=wg-test private-key="${key}"`);
  sim.run('/ip address add address=10.7.7.1/24 interface=ether2 comment="lab"');
  const title = sim.host;
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "default",
  ]);
  const base = `routeros://${title}`;
  try {
    await t.step("resources/list names the inventory and each device's resources", async () => {
      const { resources } = await session.client.listResources();
      assert.deepEqual(resources.map((r) => r.uri), [
        "routeros://devices",
        "routeros://fleet/security",
        "routeros://fleet/topology",
        "routeros://fleet/topology.mmd",
        `${base}/overview`,
        `${base}/export`,
        `${base}/log`,
        `${base}/security`,
      ]);
      for (const r of resources) assert.ok(r.name && r.mimeType && r.description, r.uri);
    });

    await t.step("resources/templates/list: overview, export, log, security, print", async () => {
      const { resourceTemplates } = await session.client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate), [
        "routeros://{device}/overview",
        "routeros://{device}/export",
        "routeros://{device}/log",
        "routeros://{device}/security",
        "routeros://{device}/print{+path}",
      ]);
    });

    await t.step("the inventory: titles and hosts, no secrets", async () => {
      const c = await read(session, "routeros://devices");
      assert.equal(c.mimeType, "application/json");
      const { items } = JSON.parse(c.text!);
      assert.equal(items[0].title, title);
      assert.equal(items[0].port, sim.port);
      assert.ok(!/password/i.test(c.text!));
    });

    await t.step("the export is the router's /export with its secrets hidden", async () => {
      // The files toolset is not enabled in a default session: its resource is refused until
      // the session enables it, as the tool is (guards.md, session toolsets).
      await rejects(
        read(session, `${base}/export`),
        -32602,
        /not enabled in this session: call router_enable_toolsets with \["files"\] first/,
      );
      const enabled = await callTool(session, "router_enable_toolsets", { toolsets: ["files"] });
      assert.equal(enabled.isError, undefined, enabled.content[0].text);
      const c = await read(session, `${base}/export`);
      assert.equal(c.mimeType, "text/plain");
      assert.match(c.text!, /add address=10\.7\.7\.1\/24 comment=lab interface=ether2/);
      assert.match(c.text!, /name=wg-test/);
      assert.ok(sim.export().includes(key.slice(0, 20)), "the router holds the key");
      assert.ok(!c.text!.includes(key.slice(0, 20)), "the private key is not exported");
    });

    await t.step("the overview, the log and a menu through the print template", async () => {
      const overview = JSON.parse((await read(session, `${base}/overview`)).text!);
      assert.equal(overview.identity, "MikroTik");
      assert.match(overview.system.version, /^7\./);
      assert.ok(overview.interfaces.some((i: { name: string }) => i.name === "ether1"));
      assert.ok(
        overview.ip_addresses.some((a: { address: string }) => a.address === "10.7.7.1/24"),
      );
      const log = await read(session, `${base}/log`);
      assert.match(log.text!, /TIME\s+TOPICS\s+MESSAGE/);
      const print = JSON.parse((await read(session, `${base}/print/ip/address`)).text!);
      assert.equal(print.path, "/ip/address");
      assert.ok(print.items.some((i: Record<string, string>) => i.comment === "lab"));
    });

    await t.step("unknown devices, kinds and menus are clear errors", async () => {
      await rejects(read(session, "routeros://nope/export"), -32002, /no device "nope"/);
      await rejects(read(session, `${base}/config`), -32002, /no resource kind "config"/);
      await rejects(read(session, "http://example.com/"), -32002, /routeros:\/\/devices/);
      // router_print's own argument check, through the guard chain.
      await rejects(read(session, `${base}/print/ip/nothing`), -32602, /invalid arguments: path/);
    });

    await t.step("an unknown tool names the tools meant, closest first", async () => {
      const r = await callTool(session, "router_get_system_identity", {});
      assert.equal(r.isError, true);
      assert.match(
        r.content[0].text,
        /unknown tool router_get_system_identity; did you mean router_get_identity, /,
      );
    });

    await t.step("prompts/list and prompts/get", async () => {
      const { prompts } = await session.client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), [
        "audit_firewall",
        "troubleshoot_link",
        "troubleshoot_route",
        "prepare_change",
        "audit_security",
        "trace_reachability",
      ], "compare_devices needs two devices");
      const device = prompts[0].arguments?.find((a) => a.name === "device");
      assert.equal(device?.required, false, "one device: device is optional");
      const r = await session.client.getPrompt({
        name: "troubleshoot_route",
        arguments: { destination: "203.0.113.9" },
      });
      const text = (r.messages[0].content as { text: string }).text;
      assert.match(text, /router_check_route \(destination: "203\.0\.113\.9"\)/);
      assert.match(text, /router_traceroute/);
      await rejects(
        session.client.getPrompt({ name: "troubleshoot_link", arguments: {} }),
        -32602,
        /needs the argument interface/,
      );
    });

    await t.step("a prompt names the toolsets a default session must enable", async () => {
      const r = await session.client.getPrompt({ name: "audit_firewall", arguments: {} });
      const text = (r.messages[0].content as { text: string }).text;
      assert.match(text, /enable the toolsets "firewall", "services"/);
    });

    await t.step("completion: device, interface names, menu paths, sections", async () => {
      const complete = async (
        ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
        name: string,
        value: string,
      ) => (await session.client.complete({ ref, argument: { name, value } })).completion;
      const link = { type: "ref/prompt" as const, name: "troubleshoot_link" };
      assert.deepEqual((await complete(link, "device", "")).values, [title]);
      assert.deepEqual((await complete(link, "interface", "eth")).values, [
        "ether1",
        "ether2",
        "ether3",
        "ether4",
        "ether5",
      ]);
      assert.deepEqual((await complete(link, "interface", "bri")).values, ["bridge"]);
      const print = { type: "ref/resource" as const, uri: "routeros://{device}/print{+path}" };
      assert.deepEqual((await complete(print, "path", "ip/firewall/f")).values, [
        "/ip/firewall/filter",
      ]);
      const exportRef = { type: "ref/resource" as const, uri: "routeros://{device}/export" };
      assert.deepEqual((await complete(exportRef, "device", "12")).values, [title]);
      const none = await complete({ type: "ref/prompt", name: "no_such_prompt" }, "x", "");
      assert.deepEqual(none.values, []);
    });
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("resources and prompts follow the selection: --toolsets ip, --read-only", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--toolsets",
    "ip",
  ]);
  try {
    const { resources } = await session.client.listResources();
    assert.deepEqual(resources, [], "no device, export, log or overview tools are offered");
    const { resourceTemplates } = await session.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, []);
    await rejects(
      read(session, `routeros://${sim.host}/export`),
      -32002,
      /no resource kind "export" here/,
    );
    assert.deepEqual((await session.client.listPrompts()).prompts, []);
  } finally {
    await session.close();
  }
  const readOnly = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--read-only",
  ]);
  try {
    const names = (await readOnly.client.listPrompts()).prompts.map((p) => p.name);
    assert.ok(names.includes("audit_firewall"));
    assert.ok(!names.includes("prepare_change"), "read-only: no change to prepare");
    assert.equal((await readOnly.client.listResources()).resources.length, 8);
  } finally {
    await readOnly.close();
    await sim.close();
  }
});

Deno.test("fleet: every device's resources, compare_devices, device completion", async () => {
  const sims = await startRouters(2);
  sims[0].run('/system identity set name="edge-a"');
  sims[1].run('/system identity set name="edge-b"');
  const inventory = sims.map((s, i) => ({ title: `edge ${"ab"[i]}`, host: s.host, port: s.port }));
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    const { resources } = await session.client.listResources();
    assert.ok(resources.some((r) => r.uri === "routeros://edge%20a/overview"));
    assert.ok(resources.some((r) => r.uri === "routeros://edge%20b/log"));
    const b = JSON.parse((await read(session, "routeros://edge%20b/overview")).text!);
    assert.equal(b.identity, "edge-b");

    const { prompts } = await session.client.listPrompts();
    const compare = prompts.find((p) => p.name === "compare_devices");
    assert.ok(compare, "compare_devices is offered with two devices");
    assert.equal(prompts[0].arguments?.find((a) => a.name === "device")?.required, true);
    const r = await session.client.getPrompt({
      name: "compare_devices",
      arguments: { device_a: "edge a", device_b: "edge b", section: "/ip/address" },
    });
    const text = (r.messages[0].content as { text: string }).text;
    assert.match(text, /routeros:\/\/edge%20a\/export/);
    await rejects(
      session.client.getPrompt({
        name: "compare_devices",
        arguments: { device_a: "edge a", device_b: "edge c" },
      }),
      -32602,
      /unknown device "edge c"/,
    );

    const done = await session.client.complete({
      ref: { type: "ref/prompt", name: "compare_devices" },
      argument: { name: "device_b", value: "edge" },
    });
    assert.deepEqual(done.completion.values, ["edge a", "edge b"]);
    const interfaces = await session.client.complete({
      ref: { type: "ref/prompt", name: "troubleshoot_link" },
      argument: { name: "interface", value: "ether" },
      context: { arguments: { device: "edge b" } },
    });
    assert.equal(interfaces.completion.values[0], "ether1");
    const section = await session.client.complete({
      ref: { type: "ref/prompt", name: "compare_devices" },
      argument: { name: "section", value: "/ip/addr" },
    });
    assert.deepEqual(section.completion.values, ["/ip/address"]);
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
  }
});

Deno.test("resources/list pages by 100 without connecting to any device", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const inventory = Array.from({ length: 40 }, (_, i) => ({
    title: `r${i}`,
    host: "127.0.0.1",
    port,
  }));
  const session = await serveInProcess(["--inventory", JSON.stringify(inventory)]);
  try {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await session.client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 2);
    assert.equal(uris.length, 1 + 3 + 40 * 4);
    assert.equal(new Set(uris).size, uris.length);
    assert.equal(uris.at(-1), "routeros://r39/security");
    await rejects(session.client.listResources({ cursor: "x" }), -32602, /invalid cursor/);
    const devices = JSON.parse((await read(session, "routeros://devices")).text!);
    assert.equal(devices.count, 40);
    assert.ok(devices.items.every((d: { connected: boolean }) => !d.connected));
  } finally {
    await session.close();
  }
});
