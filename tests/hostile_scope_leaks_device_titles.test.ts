/**
 * Hostile re-test (issue 31): docs/security.md says `router_list_devices`
 * and the fleet tools see only the devices of a key's scope, and they did;
 * but the names of the other devices leaked through every other door:
 * argument completion of `device`, `resources/list` (each device's
 * resources), and the error of any call naming an unknown device or none
 * ("valid devices: r1, r2"). A key scoped to a lab learned the production
 * inventory's titles (which often name sites and customers). The `device`
 * enum of `tools/list`, `prompts/get` and `resources/read` errors did too.
 *
 * Over streamable-http with the `lab` key (tag lab: r1 only). Failed before
 * the fix in each of the first four steps.
 *
 * Hostile re-test 3: router_list_devices (and routeros://devices) gave each
 * device of the scope its `via`, the titles of the bastions the server
 * reaches it through, which may be devices outside the scope
 * ("core-gw-customer-b"). Such a bastion is now `(out of scope)`; one in
 * the scope keeps its title.
 *
 * Hostile re-test 4: a connection error named a bastion outside the scope
 * as `bastion (out of scope)` only when that bastion was the one the error
 * was about. In a chain (r1 via lab-gw via edge-prod-7; lab-gw and r1 in
 * the lab scope, edge-prod-7 not), the SSH layer names the in-scope hop as
 * `bastion "lab-gw" (127.0.0.1:P via bastion "edge-prod-7")`; the scoping
 * regex took that whole text as the lab-gw match and kept it, so a lab key
 * learned the production bastion's title from any failure behind lab-gw (a
 * device down, a wrong port). Every title the fleet hides is now looked for,
 * wherever it stands. Here edge-prod-7 and lab-gw are simulators forwarding
 * TCP, and r1 is a closed port that lab-gw cannot reach.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { PRINCIPAL_META_KEY } from "../lib/auth/principal.ts";
import { scopedError } from "../lib/tools/guard/roles.ts";

Deno.test("hostile: a scoped key learns no device outside its scope", async (t) => {
  const sim = await startSimulator();
  const srv = await startAuthServer(sim);
  const lab = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.lab);
  try {
    await t.step("control: router_list_devices hides r2", async () => {
      const r = await lab.callTool({ name: "router_list_devices", arguments: {} });
      assert.doesNotMatch(textOf(r), /\br2\b/);
    });
    await t.step("completion of device", async () => {
      const r = await lab.complete({
        ref: { type: "ref/resource", uri: "routeros://{device}/overview" },
        argument: { name: "device", value: "" },
      });
      assert.deepEqual(r.completion.values, ["r1"]);
    });
    await t.step("resources/list", async () => {
      const r = await lab.listResources();
      const r2 = r.resources.map((x) => x.uri).filter((u) => u.startsWith("routeros://r2/"));
      assert.deepEqual(r2, []);
    });
    await t.step("the error of an unknown device", async () => {
      const r = await lab.callTool({ name: "router_get_identity", arguments: { device: "zz" } });
      assert.equal(r.isError, true);
      assert.doesNotMatch(textOf(r), /\br2\b/);
      assert.match(textOf(r), /unknown device "zz"; valid devices: r1\b/);
    });
    await t.step("the error of a call that names no device", async () => {
      const r = await lab.callTool({ name: "router_get_identity", arguments: {} });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /give device: one of r1\./);
    });
    await t.step("the device enum of tools/list", async () => {
      const tools = await listAllTools(lab);
      const identity = tools.find((x) => x.name === "router_get_identity")!;
      const device = (identity.inputSchema.properties as Record<string, { enum?: string[] }>)
        .device;
      assert.deepEqual(device.enum, ["r1"]);
      assert.deepEqual(identity.inputSchema.required, ["device"], "still required, as for all");
    });
    await t.step("prompts/get and resources/read name no other device", async () => {
      const prompt = await lab.getPrompt({
        name: "troubleshoot_link",
        arguments: { device: "zz", interface: "ether1" },
      }).then(() => "", (e: Error) => e.message);
      assert.match(prompt, /unknown device "zz" for device; devices: r1$/);
      for (const uri of ["routeros://zz/overview", "routeros://r2/overview"]) {
        const read = await lab.readResource({ uri }).then(() => "", (e: Error) => e.message);
        assert.match(read, /no device "(zz|r2)"; devices: r1/);
      }
    });
    await t.step("an unscoped key still sees every device", async () => {
      const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
      try {
        const r = await admin.callTool({
          name: "router_get_identity",
          arguments: { device: "zz" },
        });
        assert.match(textOf(r), /valid devices: r1, r2/);
        const c = await admin.complete({
          ref: { type: "ref/resource", uri: "routeros://{device}/overview" },
          argument: { name: "device", value: "" },
        });
        assert.deepEqual(c.completion.values, ["r1", "r2"]);
      } finally {
        await admin.close();
      }
    });
  } finally {
    await lab.close();
    await srv.close();
    await sim.close();
  }
});

Deno.test("hostile3: a device's via names no bastion outside the caller's scope", async () => {
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (free.addr as Deno.NetAddr).port;
  free.close();
  const inventory = [
    `- {title: edge-prod-7, host: 127.0.0.1, port: ${port}, tags: [prod]}`,
    `- {title: lab-gw, host: 10.0.0.2, port: 22, tags: [lab], jump: edge-prod-7}`,
    `- {title: r1, host: 10.0.0.1, port: 22, tags: [lab], jump: lab-gw}`,
  ].join("\n");
  // In process the owner's transport adds no outer principal: the _meta one
  // is the caller, as the REST proxy passes its own caller's.
  const session = await serveInProcess(["--inventory", inventory, "--host-key-policy", "off"]);
  const lab = { name: "key:lab", role: "read", scopes: [{ tags: ["lab"] }] };
  try {
    const r = await session.client.callTool({
      name: "router_list_devices",
      arguments: {},
      _meta: { [PRINCIPAL_META_KEY]: lab },
    });
    const all = JSON.stringify(r);
    assert.equal(r.isError, undefined, all);
    assert.ok(!all.includes("edge-prod-7"), `a lab key is told a prod title: ${all.slice(0, 400)}`);
    const items = (r.structuredContent as { items: { title: string; via?: string[] }[] }).items;
    assert.deepEqual(
      items.map((d) => [d.title, d.via]),
      [["lab-gw", ["(out of scope)"]], ["r1", ["(out of scope)", "lab-gw"]]],
    );
    // The SSH layer names the bastion (and its address) when it cannot be
    // reached; a scoped caller's error does not (the bastion's port is shut).
    const failed = await session.client.callTool({
      name: "router_get_identity",
      arguments: { device: "r1" },
      _meta: { [PRINCIPAL_META_KEY]: lab },
    });
    assert.equal(failed.isError, true, JSON.stringify(failed));
    const said = JSON.stringify(failed);
    assert.match(said, /bastion \(out of scope\)/);
    assert.ok(!said.includes("edge-prod-7") && !said.includes(`:${port}`), said);
    const owner = await session.client.callTool({ name: "router_list_devices", arguments: {} });
    assert.match(
      JSON.stringify(owner),
      /"via":\["edge-prod-7","lab-gw"\]/,
      "unscoped: every title",
    );
  } finally {
    await session.close();
  }
});

Deno.test("hostile4: an error behind an in-scope bastion names no out-of-scope bastion before it", async () => {
  const edge = await startSimulator({ version: "7.16.2" });
  const gw = await startSimulator({ version: "7.16.2" });
  for (const s of [edge, gw]) {
    assert.equal(s.run("/ip ssh set forwarding-enabled=local").exitCode, 0);
  }
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closed = (free.addr as Deno.NetAddr).port;
  free.close();
  const inventory = [
    `- {title: edge-prod-7, host: 127.0.0.1, port: ${edge.port}, tags: [prod]}`,
    `- {title: lab-gw, host: 127.0.0.1, port: ${gw.port}, tags: [lab], jump: edge-prod-7}`,
    `- {title: r1, host: 127.0.0.1, port: ${closed}, tags: [lab], jump: lab-gw}`,
  ].join("\n");
  // In process the owner's transport adds no outer principal: the _meta one
  // is the caller, as the REST proxy passes its own caller's.
  const session = await serveInProcess(["--inventory", inventory, "--host-key-policy", "off"]);
  const lab = { name: "key:lab", role: "read", scopes: [{ tags: ["lab"] }] };
  try {
    // Control: lab-gw itself answers through edge-prod-7.
    const ok = await session.client.callTool({
      name: "router_get_identity",
      arguments: { device: "lab-gw" },
      _meta: { [PRINCIPAL_META_KEY]: lab },
    });
    assert.equal(ok.isError, undefined, JSON.stringify(ok).slice(0, 400));
    const failed = await session.client.callTool({
      name: "router_get_identity",
      arguments: { device: "r1" },
      _meta: { [PRINCIPAL_META_KEY]: lab },
    });
    const said = JSON.stringify(failed);
    assert.equal(failed.isError, true, said);
    assert.ok(
      !said.includes("edge-prod-7") && !said.includes(`:${edge.port}`),
      `a lab principal is told the prod bastion's title or address: ${said.slice(0, 500)}`,
    );
    assert.match(said, /bastion \\"lab-gw\\" \(127\.0\.0\.1:\d+ via bastion \(out of scope\)\)/);
  } finally {
    await session.close();
    await gw.close();
    await edge.close();
  }
});

Deno.test("scopedError hides every out-of-scope bastion, whatever its title holds", () => {
  const fleet = {
    summaries: () => [
      { title: 'core (a) "b"', host: "h", port: 22, tags: ["prod"] },
      { title: "core", host: "h", port: 22, tags: ["prod"] },
      { title: "lab-gw", host: "h", port: 22, tags: ["lab"] },
    ],
  } as unknown as Parameters<typeof scopedError>[2];
  const lab = { name: "key:lab", role: "read" as const, scopes: [{ tags: ["lab"] }] };
  const err = new Error(
    'bastion "lab-gw" (10.0.0.2:22 via bastion "core (a) "b""): unreachable; ' +
      'bastion "CORE" (10.9.9.9:22): refused; device "core" named',
  );
  scopedError(err, lab, fleet);
  assert.equal(
    err.message,
    'bastion "lab-gw" (10.0.0.2:22 via bastion (out of scope)): unreachable; ' +
      'bastion (out of scope): refused; device "core" named',
  );
});
