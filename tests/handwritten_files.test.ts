/**
 * Hand-written file tools through MCP against the simulator: upload and
 * read back hostile contents byte for byte, backups, exports with and
 * without secrets, and dry runs that change nothing and list exactly the
 * commands the real call sends (checked in the audit log).
 */
import { auditCalls } from "./helpers/audit.ts";
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, withoutNonces } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rec = Record<string, unknown>;

/** The simulator's configuration without the export's dated header comments. */
function config(sim: { export(): string }): string {
  return sim.export().replace(/^#.*\n/gm, "");
}

const HOSTILE = 'a"b\\c $x $(y) [/system reboot]; ?\n\ttab é ✅\r\nend';

Deno.test("file tools against a simulated 7.16", async (t) => {
  const sim = await startSimulator({ version: "7.16" });
  const dir = await Deno.makeTempDir();
  const audit = `${dir}/audit.jsonl`;
  const s = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--audit-log",
    audit,
  ]);
  const files = () => sim.items("/file");
  try {
    await t.step(
      "upload dry run changes nothing; its commands are what the real call sends",
      async () => {
        const before = config(sim);
        const beforeFiles = JSON.stringify(files());
        const args = { name: "notes.txt", contents: HOSTILE };
        const dry = await callTool(s, "router_upload_file", { ...args, dry_run: true });
        assert.equal(dry.isError, undefined, dry.content[0]?.text);
        assert.equal(config(sim), before);
        assert.equal(JSON.stringify(files()), beforeFiles);
        const plan = dry.structuredContent?.dry_run as { commands: string[]; problems: string[] };
        assert.deepEqual(plan.problems, []);
        const real = await callTool(s, "router_upload_file", args);
        assert.equal(real.isError, undefined, real.content[0]?.text);
        const call = auditCalls(await Deno.readTextFile(audit)).at(-1)!;
        assert.equal(call.dry_run, false);
        assert.deepEqual(withoutNonces(call.commands), withoutNonces(plan.commands));
      },
    );

    await t.step("the hostile contents are stored exactly, and nothing else changed", () => {
      const stored = files().find((f) => f.name === "notes.txt");
      assert.equal(stored?.contents, HOSTILE);
      assert.equal(sim.items("/system/identity")[0].name, "MikroTik");
    });

    await t.step("read_file gives the contents back byte for byte", async () => {
      const r = await callTool(s, "router_read_file", { name: "notes.txt" });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal(r.structuredContent?.contents, HOSTILE);
      assert.equal(r.structuredContent?.truncated, false);
    });

    await t.step("upload refuses to replace a file unless overwrite is set", async () => {
      const again = await callTool(s, "router_upload_file", { name: "notes.txt", contents: "x" });
      assert.equal(again.isError, true);
      assert.match(again.content[0].text, /already exists/);
      assert.equal(files().find((f) => f.name === "notes.txt")?.contents, HOSTILE);
      const over = await callTool(s, "router_upload_file", {
        name: "notes.txt",
        contents: "x",
        overwrite: true,
      });
      assert.equal(over.isError, undefined, over.content[0]?.text);
      assert.equal(files().find((f) => f.name === "notes.txt")?.contents, "x");
    });

    await t.step("file names outside the allow-list and binary reads are refused", async () => {
      const up = await callTool(s, "router_upload_file", { name: "../x.txt", contents: "x" });
      assert.equal(up.isError, true);
      const read = await callTool(s, "router_read_file", { name: "a.backup" });
      assert.equal(read.isError, true);
      assert.match(read.content[0].text, /binary/);
      const missing = await callTool(s, "router_read_file", { name: "nope.txt" });
      assert.equal(missing.isError, true);
      assert.match(missing.content[0].text, /no file nope.txt/);
    });

    await t.step(
      "create_backup makes NAME.backup, lists it, and refuses to overwrite",
      async () => {
        const r = await callTool(s, "router_create_backup", { name: "before-change" });
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.equal((r.structuredContent?.item as Rec).name, "before-change.backup");
        assert.ok(files().some((f) => f.name === "before-change.backup" && f.type === "backup"));
        const list = await callTool(s, "router_list_backups");
        assert.deepEqual(
          (list.structuredContent?.items as Rec[]).map((i) => i.name),
          files().filter((f) => f.type === "backup").map((f) => f.name),
        );
        const again = await callTool(s, "router_create_backup", { name: "before-change" });
        assert.equal(again.isError, true);
        assert.match(again.content[0].text, /already exists/);
      },
    );

    await t.step("a backup password is masked in dry runs and the audit log", async () => {
      const dry = await callTool(s, "router_create_backup", {
        name: "enc",
        password: "S3cret-Pa55",
        dry_run: true,
      });
      assert.equal(dry.isError, undefined, dry.content[0]?.text);
      assert.ok(!JSON.stringify(dry).includes("S3cret-Pa55"));
      assert.ok(!(await Deno.readTextFile(audit)).includes("S3cret-Pa55"));
      assert.ok(!files().some((f) => f.name === "enc.backup"));
    });

    await t.step("export: one section, secrets hidden unless asked", async () => {
      sim.run("/interface wireguard add name=wg-exp listen-port=13998");
      const key = sim.items("/interface").find((i) => i.name === "wg-exp")?.["private-key"] ?? "";
      assert.ok(key.length > 20);
      const section = await callTool(s, "router_export_config", { section: "/ip/address" });
      assert.equal(section.isError, undefined, section.content[0]?.text);
      const text = section.structuredContent?.config as string;
      assert.match(text, /\/ip address/);
      assert.match(text, /192\.168\.88\.1\/24/);
      assert.doesNotMatch(text, /\/interface bridge/);
      const hidden = await callTool(s, "router_export_config", { section: "/interface/wireguard" });
      assert.match(hidden.structuredContent?.config as string, /wg-exp/);
      assert.ok(!JSON.stringify(hidden).includes(key), "private key hidden by default");
      const asked = await callTool(s, "router_export_config", {
        section: "/interface/wireguard",
        show_sensitive: true,
      });
      assert.equal(asked.isError, true, "an agent alone cannot reveal secrets");
      assert.match(asked.content[0].text, /--reveal-secrets \(ROUTER_REVEAL_SECRETS=true\)/);
      assert.ok(!JSON.stringify(asked).includes(key));
      const operator = await serveInProcess([
        "--host",
        sim.host,
        "--port",
        String(sim.port),
        "--reveal-secrets",
      ]);
      try {
        const shown = await callTool(operator, "router_export_config", {
          section: "/interface/wireguard",
          show_sensitive: true,
        });
        assert.ok(
          (shown.structuredContent?.config as string).includes(key),
          "shown when the operator allows it",
        );
      } finally {
        await operator.close();
      }
      const bad = await callTool(s, "router_export_config", { section: "/tool/sniffer" });
      assert.equal(bad.isError, true);
    });
  } finally {
    await s.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

for (const version of ["7.12", "6.49"] as const) {
  Deno.test(`file tools on ${version}: upload (only .txt through print file= on 6.x), backup, export`, async () => {
    const sim = await startSimulator({ version });
    const s = await serveInProcess(["--host", sim.host, "--port", String(sim.port)]);
    try {
      const notTxt = await callTool(s, "router_upload_file", { name: "a.rsc", contents: "x" });
      if (version === "6.49") {
        // RouterOS 6 has no /file add: a file is made by print file=, always .txt.
        assert.equal(notTxt.isError, true);
        assert.match(notTxt.content[0].text, /\.txt/);
      } else {
        assert.equal(notTxt.isError, undefined, notTxt.content[0]?.text);
        assert.equal(sim.items("/file").find((f) => f.name === "a.rsc")?.contents, "x");
      }
      const backup = await callTool(s, "router_create_backup", { name: "old" });
      assert.equal(backup.isError, undefined, backup.content[0]?.text);
      assert.ok(sim.items("/file").some((f) => f.name === "old.backup"));
      const exp = await callTool(s, "router_export_config", { section: "/ip/address" });
      assert.match(exp.structuredContent?.config as string, new RegExp(`RouterOS ${version}`));
      const up = await callTool(s, "router_upload_file", { name: "n.txt", contents: HOSTILE });
      assert.equal(up.isError, undefined, up.content[0]?.text);
      assert.equal(sim.items("/file").find((f) => f.name === "n.txt")?.contents, HOSTILE);
    } finally {
      await s.close();
      await sim.close();
    }
  });
}
