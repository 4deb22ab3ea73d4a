/**
 * Hostile re-test 2 (issue 31): 50a81c8 made the MCP server tell a scoped
 * principal only the devices of its scope (the `device` enum of
 * tools/list, completions, resources, "unknown device" errors), since
 * titles often name sites and customers. The REST proxy undoes it: it
 * validates arguments against the child's schema, whose `device` enum holds
 * every title (the proxy talks to its child as the child's owner), and its
 * 422 names them all to a key scoped to one device; its tool lists and
 * OpenAPI documents list them too, to that key and, without
 * `--strict-auth`, to anyone who can reach the port with no key at all.
 *
 * Now the proxy narrows each tool's `device` enum to the caller's scope
 * (by title and tag, as the child decides it, on the devices and tags the
 * child's `router_list_devices` tells), checks arguments against that,
 * and shows a caller with no key no titles at all.
 *
 * A real proxy process (`main.ts proxy`) with a keys file, in front of a
 * child with two devices. Failed before the fix: the other customer's title
 * was in each answer.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { DENO, MAIN } from "./helpers/mcp.ts";
import { startProxy } from "./proxy_helpers.ts";

const KEY = "lab-key-0123456789";
const TAGGED_KEY = "tagged-key-0123456789";
const ADMIN_KEY = "admin-key-0123456789";
const OPERATE_KEY = "operate-key-0123456789";
const HIDDEN = "customer-bigbank-core";

Deno.test("hostile2: the REST proxy tells a scoped key only the devices of its scope", async (t) => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "hostile2-proxy-" });
  await Deno.writeTextFile(
    `${dir}/keys.yaml`,
    [
      "keys:",
      `  - {name: lab, hash: "${hashKey(KEY)}", role: read, devices: [customer-acme-lab]}`,
      `  - {name: tagged, hash: "${hashKey(TAGGED_KEY)}", role: read, tags: [acme]}`,
      `  - {name: admin, hash: "${hashKey(ADMIN_KEY)}", role: admin}`,
      `  - {name: op, hash: "${hashKey(OPERATE_KEY)}", role: operate}`,
    ].join("\n") + "\n",
  );
  const inventory = [
    `- {title: customer-acme-lab, host: ${sim.host}, port: ${sim.port}, tags: [acme]}`,
    `- {title: ${HIDDEN}, host: ${sim.host}, port: ${sim.port}, tags: [bank]}`,
  ].join("\n");
  const entry = {
    command: DENO,
    args: [
      "run",
      "--allow-all",
      MAIN,
      "--inventory",
      inventory,
      "--host-key-policy",
      "off",
      "--toolsets",
      "interfaces,system,fleet",
    ],
  };
  const proxy = await startProxy({ mcpServers: { router: entry } }, [
    "--api-keys-file",
    `${dir}/keys.yaml`,
  ]);
  const auth = { authorization: `Bearer ${KEY}` };
  try {
    await t.step("control: the scoped key reaches its own device", async () => {
      const r = await proxy.fetch("/router/router_get_identity", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ device: "customer-acme-lab" }),
      });
      assert.equal(r.status, 200, await r.text());
    });
    await t.step("a refused device argument", async () => {
      const r = await proxy.fetch("/router/router_get_identity", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ device: "nope" }),
      });
      const text = await r.text();
      assert.equal(r.status, 422, text);
      assert.ok(!text.includes(HIDDEN), `the 422 names a device outside the scope: ${text}`);
      assert.match(text, /customer-acme-lab/, "the 422 names the device of the scope");
    });
    await t.step("a device outside the scope is refused before the call", async () => {
      const r = await proxy.fetch("/router/router_get_identity", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ device: HIDDEN }),
      });
      const text = await r.text();
      assert.equal(r.status, 422, text);
      const { error } = JSON.parse(text);
      assert.equal(
        error.message,
        'router/router_get_identity: device must be one of "customer-acme-lab"',
      );
    });
    await t.step("a key scoped by tag sees its tagged device only", async () => {
      const r = await proxy.fetch("/router", {
        headers: { authorization: `Bearer ${TAGGED_KEY}` },
      });
      const text = await r.text();
      assert.ok(!text.includes(HIDDEN), "a tag-scoped key sees a device outside its tags");
      assert.match(text, /"enum":\["customer-acme-lab"\]/);
    });
    await t.step("control: a key without a scope sees every device", async () => {
      const r = await proxy.fetch("/router", {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      assert.match(await r.text(), new RegExp(`"enum":\\["customer-acme-lab","${HIDDEN}"\\]`));
    });
    await t.step("hostile4: a VRRP holding a script is admin's as an interface too", async () => {
      // The role guard's held-privilege check, through the proxy's calls of
      // the generic /interface tools (see tests/guard_script_fields_role.test.ts).
      assert.equal(
        sim.run(
          '/interface vrrp add name=vrrp1 interface=ether3 vrid=7 on-master="/log info m" ' +
            "disabled=yes",
        ).exitCode,
        0,
      );
      const r = await proxy.fetch("/router/router_enable_interface", {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATE_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ device: "customer-acme-lab", name: "vrrp1" }),
      });
      const text = await r.text();
      assert.notEqual(r.status, 200, text);
      assert.match(
        text,
        /changes an item that holds a script the router runs/,
        `${r.status} ${text}`,
      );
      assert.equal(sim.items("/interface/vrrp")[0].disabled, "true");
    });
    for (const path of ["/router", "/router/openapi.json", "/openapi.json"]) {
      await t.step(`GET ${path} with the scoped key`, async () => {
        const text = await (await proxy.fetch(path, { headers: auth })).text();
        assert.ok(!text.includes(HIDDEN), `${path} lists a device outside the key's scope`);
      });
      await t.step(`GET ${path} with no key`, async () => {
        const text = await (await proxy.fetch(path)).text();
        assert.ok(!text.includes(HIDDEN), `${path} lists the inventory to a caller with no key`);
      });
    }
  } finally {
    await proxy.stop();
    await sim.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
