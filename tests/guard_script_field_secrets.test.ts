/**
 * A password written inside a script (a `/system/script` source, a DHCP
 * server's `lease_script`, any field marked `script`) is masked like raw
 * console text: in the audit line's `arguments` as in its `command`, in dry
 * runs, and in what reads return (`router_list_scripts`, `router_print`,
 * `router_list_dhcp_servers`), unless the operator started the server with
 * `--reveal-secrets`; and in an export unless `show_sensitive` (RouterOS
 * exports scripts whole). A `where` on a script's text would confirm a guessed
 * password in it (the rest of the text is shown), so it is refused like one
 * on a secret. In process against the simulator, with an audit log.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool } from "./helpers/mcp.ts";
import { serveInProcess, simArgs } from "./helpers/in_process.ts";

const PASSWORD = "Rotate-Me-0815";
const SOURCE = `/user set [find name=backup] password=${PASSWORD}`;

const READS = [
  ["router_list_scripts", {}],
  ["router_print", { path: "/system/script" }],
  ["router_list_dhcp_servers", {}],
  ["router_get_script", { name: "rotate" }],
  ["router_export_config", { section: "/system/script" }],
] as const;

Deno.test("guard: a password inside a script stays masked in the audit log and in reads", async (t) => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir({ prefix: "guard-script-secrets-" });
  const session = await serveInProcess([
    ...simArgs(sim),
    "--audit-log",
    `${dir}/audit.log`,
  ]);
  try {
    await t.step("a dry run", async () => {
      const r = await callTool(session, "router_update_dhcp_server", {
        id: "*1",
        lease_script: SOURCE,
        dry_run: true,
      });
      assert.equal(r.isError, undefined, r.content[0].text);
      const all = JSON.stringify(r);
      assert.ok(!all.includes(PASSWORD), `the dry run shows the password: ${all.slice(0, 300)}`);
      assert.match(all, /password=\*{8}/);
    });

    const added = await callTool(session, "router_add_script", { name: "rotate", source: SOURCE });
    assert.equal(added.isError, undefined, added.content[0].text);
    assert.ok(!JSON.stringify(added).includes(PASSWORD), "the add's result shows the password");
    const lease = await callTool(session, "router_update_dhcp_server", {
      id: "*1",
      lease_script: SOURCE,
    });
    assert.equal(lease.isError, undefined, lease.content[0].text);
    assert.ok(!JSON.stringify(lease).includes(PASSWORD), "the update's result shows the password");
    assert.equal(sim.items("/system/script")[0]?.source, SOURCE, "the router got the script whole");

    await t.step("the audit log", async () => {
      const log = await Deno.readTextFile(`${dir}/audit.log`);
      const lines = log.split("\n").filter((l) => l.includes(PASSWORD));
      assert.deepEqual(
        lines.map((l) => {
          const entry = JSON.parse(l);
          return `${entry.kind} ${entry.tool}: ${JSON.stringify(entry.arguments)}`;
        }),
        [],
        "audit lines hold the password in clear",
      );
      assert.match(log, /"lease_script":"\/user set \[find name=backup\] password=\*{8}"/);
    });

    await t.step("read tools", async () => {
      for (const [tool, args] of READS) {
        const r = await callTool(session, tool, args);
        assert.equal(r.isError, undefined, `${tool}: ${r.content[0].text}`);
        const all = JSON.stringify(r);
        assert.ok(!all.includes(PASSWORD), `${tool} shows the password in clear`);
        assert.match(all, /password=\*{8}/, `${tool} shows the script`);
      }
    });

    await t.step("a file with secrets (an export show-sensitive to a file)", async () => {
      assert.equal(sim.run("/export show-sensitive file=everything").exitCode, 0);
      const r = await callTool(session, "router_read_file", { name: "everything.rsc" });
      assert.equal(r.isError, undefined, r.content[0].text);
      const all = JSON.stringify(r);
      assert.ok(!all.includes(PASSWORD), "router_read_file shows the password in clear");
      assert.match(all, /password=\*{8}/);
    });

    await t.step("a where on a script's text is refused", async () => {
      for (const key of ["source", "sour", "lease-script"]) {
        const path = key === "lease-script" ? "/ip/dhcp-server" : "/system/script";
        const r = await callTool(session, "router_print", { path, where: { [key]: SOURCE } });
        assert.equal(r.isError, true, `${path} where ${key} was sent`);
        assert.match(r.content[0].text, /would tell a secret/);
      }
      const list = await callTool(session, "router_list_scripts", { where: { source: SOURCE } });
      assert.equal(list.isError, true, "router_list_scripts offers source in where");
    });
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("guard: with --reveal-secrets reads show a script whole", async () => {
  const sim = await startSimulator();
  sim.run(`/system script add name=rotate source="${SOURCE.replaceAll('"', '\\"')}"`);
  const session = await serveInProcess([
    ...simArgs(sim),
    "--reveal-secrets",
  ]);
  try {
    // An export without show_sensitive keeps them masked: secrets come with show_sensitive.
    const reads = READS.filter(([t]) =>
      t !== "router_list_dhcp_servers" && t !== "router_export_config"
    );
    for (const [tool, args] of reads) {
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, undefined, `${tool}: ${r.content[0].text}`);
      assert.ok(JSON.stringify(r).includes(PASSWORD), `${tool} masks with --reveal-secrets`);
    }
  } finally {
    await session.close();
    await sim.close();
  }
});
