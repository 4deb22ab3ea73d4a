/**
 * Backups off the router, end to end through an MCP client against the
 * simulator's SFTP subsystem: a binary backup and an export land in the
 * state directory byte for byte with their SHA-256, the temporary files
 * leave the router, and the fleet form backs up several routers with
 * progress while one dead router fails alone.
 */
import { auditCalls } from "./helpers/audit.ts";
import assert from "node:assert/strict";
import { ProgressNotificationSchema } from "../lib/mcp_sdk/types.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { connectInProcess } from "./helpers/in_process.ts";
import { callTool, startRouters } from "./helpers/mcp.ts";

async function sha256(data: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface Saved {
  name: string;
  path: string;
  bytes: number;
  sha256: string;
}

for (const version of ["7.16.2", "6.49.13"]) {
  Deno.test(`backup download on ${version}: backup and export over SFTP, hashed, removed from the router`, async () => {
    const commands: string[] = [];
    const sim = await startSimulator({ version, onCommand: (c) => commands.push(c) });
    const state = await Deno.makeTempDir();
    const session = await connectInProcess(sim, { "state-dir": state });
    try {
      const before = sim.items("/file").length;
      const r = await callTool(session, "router_download_backup", {});
      assert.equal(r.isError, undefined, r.content[0].text);
      const files = r.structuredContent!.files as Saved[];
      assert.deepEqual(files.map((f) => f.name.replace(/^mcp-dl-\d{8}-\d{6}-\d{3}/, "X")), [
        "X.backup",
        "X.rsc",
      ]);
      for (const f of files) {
        assert.ok(f.path.startsWith(`${state}/backups/`), f.path);
        const data = await Deno.readFile(f.path);
        assert.equal(data.length, f.bytes);
        assert.equal(await sha256(data), f.sha256);
        assert.equal((await Deno.stat(f.path)).mode! & 0o777, 0o600);
      }
      const exported = await Deno.readTextFile(files[1].path);
      assert.match(exported, /\/ip address\nadd address=192\.168\.88\.1\/24/);
      assert.equal(r.structuredContent!.removed_from_router, true);
      assert.equal(sim.items("/file").length, before, "the temporary files are gone");
      assert.ok(commands.some((c) => /\/export file="?mcp-dl-/.test(c)), commands.join("\n"));

      const kept = await callTool(session, "router_download_backup", { keep_on_router: true });
      assert.equal(kept.isError, undefined, kept.content[0].text);
      assert.equal(sim.items("/file").length, before + 2);
    } finally {
      await session.close();
      await sim.close();
      await Deno.remove(state, { recursive: true });
    }
  });
}

Deno.test("fleet backup: several routers with progress; a dead one fails alone", async () => {
  const sims = await startRouters(3);
  const dead = await startSimulator();
  const deadPort = dead.port;
  await dead.close();
  const inventory = [
    ...sims.map((s, i) => ({ title: `R${i + 1}`, host: s.host, port: s.port })),
    { title: "dead", host: "127.0.0.1", port: deadPort },
  ];
  const state = await Deno.makeTempDir();
  const session = await connectInProcess(sims[0], {
    inventory: JSON.stringify(inventory),
    "state-dir": state,
    "connect-timeout": "2",
  });
  try {
    const progress: number[] = [];
    session.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { progress: number } }) => {
        progress.push(n.params.progress);
      },
    );
    const r = await session.client.callTool(
      { name: "router_fleet_backup", arguments: { concurrency: 2 } },
      undefined,
      { onprogress: () => {} },
    ) as { structuredContent: Record<string, unknown>; isError?: boolean };
    assert.equal(r.isError, undefined, JSON.stringify(r));
    const results = r.structuredContent.results as {
      device: string;
      ok: boolean;
      files?: Saved[];
    }[];
    assert.deepEqual(results.map((x) => [x.device, x.ok]), [
      ["R1", true],
      ["R2", true],
      ["R3", true],
      ["dead", false],
    ]);
    assert.equal(r.structuredContent.failed, 1);
    for (const [i, x] of results.slice(0, 3).entries()) {
      assert.ok(x.files![0].path.includes(`/backups/r${i + 1}/`), x.files![0].path);
    }
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(progress, [1, 2, 3, 4]);
  } finally {
    await session.close();
    await Promise.all(sims.map((s) => s.close()));
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("restore: a downloaded backup goes back over SFTP with confirm; the router reboots into it", async () => {
  const sim = await startSimulator({ version: "7.16.2", uptime: 3600 });
  const state = await Deno.makeTempDir();
  const audit = `${state}/audit.jsonl`;
  const session = await connectInProcess(sim, { "state-dir": state, "audit-log": audit });
  const addresses = () => sim.items("/ip/address").map((a) => a.address).sort();
  try {
    sim.run("/ip address add address=10.5.5.1/24 interface=ether2");
    const saved = await callTool(session, "router_download_backup", {});
    assert.equal(saved.isError, undefined, saved.content[0].text);
    const backup = (saved.structuredContent!.files as Saved[])[0];
    sim.run("/ip address remove [find address=10.5.5.1/24]");
    sim.run("/ip address add address=10.6.6.1/24 interface=ether3");
    const changed = addresses();
    const files = sim.items("/file").length;

    const refused = await callTool(session, "router_restore_backup", { file: "latest" });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /destructive.*confirm: true/s);
    const dry = await callTool(session, "router_restore_backup", {
      file: backup.name,
      password: "Zq9-not-shown",
      dry_run: true,
    });
    assert.equal(dry.isError, undefined, dry.content[0].text);
    assert.match(dry.content[0].text, new RegExp(`sftp put /${backup.name}`));
    assert.match(dry.content[0].text, /\/system backup load name=/);
    assert.ok(!JSON.stringify(dry).includes("Zq9-not-shown"), "the password is masked");
    assert.deepEqual([addresses(), sim.counters.reboots], [changed, 0], "nothing done yet");

    const missing = await callTool(session, "router_restore_backup", {
      file: "nope.backup",
      confirm: true,
    });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /no downloaded backup nope\.backup/);

    const r = await callTool(session, "router_restore_backup", {
      file: "latest",
      password: "Zq9-not-shown",
      confirm: true,
      timeout_seconds: 30,
    });
    assert.equal(r.isError, undefined, r.content[0].text);
    assert.equal(r.structuredContent!.file, backup.name);
    assert.equal(r.structuredContent!.sha256, backup.sha256);
    assert.equal(r.structuredContent!.login, true);
    assert.equal(sim.counters.reboots, 1);
    assert.ok(addresses().includes("10.5.5.1/24"), addresses().join(", "));
    assert.ok(!addresses().includes("10.6.6.1/24"), "the configuration is the backup's");
    assert.equal(sim.items("/file").length, files, "the uploaded backup is removed");
    const list = await callTool(session, "router_list_ip_addresses", {});
    assert.equal(list.isError, undefined, "reads work after the reboot");
    // The audit line has the upload and the load, never the password.
    const text = await Deno.readTextFile(audit);
    const restore = auditCalls(text).find((l) =>
      l.tool === "router_restore_backup" && !l.dry_run && l.outcome === "ok"
    );
    assert.ok(restore, "an audit line of the restore");
    assert.match(restore!.commands.join("\n"), /sftp put \/mcp-dl-.*\.backup/);
    assert.match(restore!.commands.join("\n"), /backup load/);
    assert.ok(!text.includes("Zq9-not-shown"), "no password in the audit log");
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(state, { recursive: true });
  }
});
