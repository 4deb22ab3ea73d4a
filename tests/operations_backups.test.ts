/**
 * Backups off the router, end to end through an MCP client against the
 * simulator's SFTP subsystem: a binary backup and an export land in the
 * state directory byte for byte with their SHA-256, the temporary files
 * leave the router, and the fleet form backs up several routers with
 * progress while one dead router fails alone.
 */
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
