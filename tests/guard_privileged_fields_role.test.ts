/**
 * A field the schema marks `privileged` is admin's to set, as script
 * fields are: SNMP `write-access` on `/snmp/community`. RouterOS's SNMP
 * write reaches MIKROTIK-MIB's reboot OID and runs a `/system/script` by its
 * run OID with its owner's policies (MikroTik's SNMP manual, "SNMP write"),
 * so whoever holds a write community (for v1/v2c its name, sent in clear,
 * shown to every read key) could reboot the router and run scripts, which
 * an `operate` key is refused (found by the second hostile re-test of issue
 * 31). Setting it off, and the community's other fields, stay `operate`'s;
 * a dry run and a nested call are refused like a direct call.
 *
 * Over streamable-http with the test keys.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { authClient, KEYS, startAuthServer, textOf } from "./http_auth_helpers.ts";
import { listAllTools } from "./helpers/mcp.ts";

const REFUSED =
  /sets write_access, SNMP write access, with which a manager can reboot the router and run its scripts, which needs the admin role; "key:operator" has operate\. Nothing was sent/;

Deno.test("guard: an operate key cannot grant SNMP write access (reboot, script runs)", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const srv = await startAuthServer(sim);
  const operator = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.operator);
  const admin = await authClient("streamable-http", `${srv.base}/mcp`, KEYS.admin);
  const writers = () =>
    sim.items("/snmp/community").filter((c) => ["yes", "true"].includes(String(c["write-access"])))
      .map((c) => c.name);
  const community = { device: "r1", name: "ops-rw", addresses: ["192.0.2.10/32"] };
  try {
    await t.step("refused for operate: direct, dry run, update, nested", async () => {
      const control = await operator.callTool({
        name: "router_reboot",
        arguments: { device: "r1" },
      });
      assert.equal(control.isError, true, "control: an operate key may not reboot");
      const calls: [string, Record<string, unknown>][] = [
        ["router_add_snmp_community", { ...community, write_access: true }],
        ["router_add_snmp_community", { ...community, write_access: true, dry_run: true }],
        ["router_update_snmp_community", { device: "r1", name: "public", write_access: true }],
        ["router_apply_changes", {
          device: "r1",
          confirm: true,
          operations: [{
            tool: "router_add_snmp_community",
            arguments: { name: "ops-rw", write_access: true },
          }],
        }],
      ];
      for (const [name, args] of calls) {
        const r = await operator.callTool({ name, arguments: args });
        assert.equal(r.isError, true, `${name}: ${textOf(r).slice(0, 160)}`);
        assert.match(textOf(r), REFUSED);
      }
      assert.deepEqual(writers(), [], "a write community reached the router");
    });

    await t.step("operate keeps the rest: a read-only community, write access off", async () => {
      const r = await operator.callTool({
        name: "router_add_snmp_community",
        arguments: { ...community, read_access: true, write_access: false },
      });
      assert.equal(r.isError, undefined, textOf(r));
      const off = await operator.callTool({
        name: "router_update_snmp_community",
        arguments: { device: "r1", name: "ops-rw", write_access: false, comment: "ro" },
      });
      assert.equal(off.isError, undefined, textOf(off));
    });

    await t.step("admin may grant it, and the write tool says who may", async () => {
      const r = await admin.callTool({
        name: "router_update_snmp_community",
        arguments: { device: "r1", name: "ops-rw", write_access: true },
      });
      assert.equal(r.isError, undefined, textOf(r));
      assert.deepEqual(writers(), ["ops-rw"]);
      const tools = await listAllTools(operator);
      const add = tools.find((x) => x.name === "router_add_snmp_community")!;
      const doc = (add.inputSchema.properties as Record<string, { description?: string }>)
        .write_access.description;
      assert.match(doc ?? "", /turning it on needs the admin role/);
    });
  } finally {
    await operator.close();
    await admin.close();
    await srv.close();
    await sim.close();
  }
});
