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
    assert.notEqual(nested.status, 200);
    assert.match(
      JSON.stringify(nested.json),
      /router_add_script \(inside router_apply_changes\) needs the admin role; \\"key:operator\\" has operate/,
      "the child applied the principal it got in _meta",
    );

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
