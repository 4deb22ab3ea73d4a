/**
 * The REST proxy authenticates with the same middleware and keys file as
 * the MCP transports, refuses by the child's annotations and admin marker,
 * and passes its principal to a child that is this product, whose guard
 * chain applies it to nested calls and names it in audit lines.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { KEYS, keysYaml } from "./http_auth_helpers.ts";
import { postJson, routerEntry, startProxy } from "./proxy_helpers.ts";

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

Deno.test("proxy auth: roles from the keys file, refused by annotations and inside the child", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "proxy-auth-" });
  const keysFile = `${dir}/keys.yaml`;
  await Deno.writeTextFile(keysFile, keysYaml());
  const entry = routerEntry(sim);
  entry.args.push("--audit-log", `${dir}/audit.log`);
  const proxy = await startProxy({ mcpServers: { router: entry } }, [
    "--api-keys-file",
    keysFile,
  ]);
  try {
    const none = await postJson(proxy, "/router/router_get_identity", {});
    assert.equal(none.status, 401);

    const read = await postJson(proxy, "/router/router_get_identity", {}, bearer(KEYS.reader));
    assert.equal(read.status, 200, JSON.stringify(read.json));

    const before = sim.counters.commands;
    const write = await postJson(
      proxy,
      "/router/router_update_identity",
      { name: "via-proxy" },
      bearer(KEYS.reader),
    );
    assert.equal(write.status, 403, JSON.stringify(write.json));
    assert.match(write.json.error.message, /needs the operate role; "key:reader" has read/);
    assert.equal(sim.counters.commands, before, "nothing reached the router");

    const reboot = await postJson(
      proxy,
      "/router/router_reboot",
      { confirm: true },
      bearer(KEYS.operator),
    );
    assert.equal(reboot.status, 403, "the admin marker in the child's tools/list");
    assert.match(reboot.json.error.message, /needs the admin role/);

    const nested = await postJson(proxy, "/router/router_apply_changes", {
      confirm: true,
      operations: [{ tool: "router_add_script", arguments: { name: "x", source: ":log info x" } }],
    }, bearer(KEYS.operator));
    // Refused by the child's guard chain: the caller's problem (403), not the upstream's (502).
    assert.equal(nested.status, 403, JSON.stringify(nested.json));
    assert.equal(nested.json.error.code, "forbidden");
    assert.equal(nested.json.error.details.refusal, "role");
    assert.match(
      JSON.stringify(nested.json),
      /router_add_script \(inside router_apply_changes\) needs the admin role; \\"key:operator\\" has operate/,
      "the child applied the principal it got in _meta",
    );

    // A write that needs confirm: 409, nothing sent.
    const unconfirmed = await postJson(proxy, "/router/router_reboot", {}, bearer(KEYS.admin));
    assert.equal(unconfirmed.status, 409, JSON.stringify(unconfirmed.json));
    assert.equal(unconfirmed.json.error.code, "confirmation_required");
    assert.match(unconfirmed.json.error.message, /confirm: true/);
    // An argument the child's own checks refuse (the schema lets it through): 422.
    const bad = await postJson(proxy, "/router/router_add_ip_address", {
      address: "300.1.1.1/24",
      interface: "ether1",
    }, bearer(KEYS.operator));
    assert.equal(bad.status, 422, JSON.stringify(bad.json));
    assert.equal(bad.json.error.code, "invalid_arguments");
    assert.match(bad.json.error.message, /address: "300\.1\.1\.1\/24" is not an IPv4 address/);
    assert.equal(bad.json.error.details.errors[0].keyword, "server");
    assert.equal(sim.counters.commands, before, "nothing reached the router");

    const ok = await postJson(
      proxy,
      "/router/router_update_identity",
      { name: "via-proxy" },
      bearer(KEYS.operator),
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    const lines = (await Deno.readTextFile(`${dir}/audit.log`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    // A clock write while a change is pending would stop its revert job: 409 until it is settled.
    const change = await postJson(proxy, "/router/router_apply_changes", {
      confirm: true,
      confirm_within_seconds: 300,
      operations: [{ tool: "router_update_identity", arguments: { name: "pending" } }],
    }, bearer(KEYS.operator));
    assert.equal(change.status, 200, JSON.stringify(change.json));
    const clock = await postJson(proxy, "/router/router_update_clock", {
      time_zone_name: "Europe/Riga",
    }, bearer(KEYS.operator));
    assert.equal(clock.status, 409, JSON.stringify(clock.json));
    assert.equal(clock.json.error.code, "pending_change");
    assert.equal(clock.json.error.details.refusal, "pending-change");
    const rollback = await postJson(proxy, "/router/router_rollback_changes", {
      change_id: change.json.change_id,
    }, bearer(KEYS.operator));
    assert.equal(rollback.status, 200, JSON.stringify(rollback.json));
    // The call's intent line (written ahead) says who; its outcome links back to it.
    const last = lines.filter((l) => l.tool === "router_update_identity" && l.kind === "intent")
      .at(-1);
    assert.equal(
      last.principal,
      "key:operator",
      "the child's audit line names the proxy's principal",
    );
  } finally {
    await proxy.stop();
    await sim.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
