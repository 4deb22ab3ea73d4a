/**
 * Whole files both ways through an MCP client against the simulator's SFTP
 * over real SSH: a 20 MiB binary goes up and comes back byte for byte,
 * with progress notifications and matching SHA-256; the files directory
 * confines every local path (`..`, absolute paths, NUL, links leading out);
 * dry runs send nothing and list what the real call records; a stalled or
 * corrupted upload is removed from the router; the router's listing shows
 * the file with its size and type, and remove takes it away.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { startSimulator } from "../lib/sim/mod.ts";
import { callTool, listAllTools } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

type Rec = Record<string, unknown>;
interface Progress {
  progress: number;
  total?: number;
}

const MiB = 1024 * 1024;

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** `n` random bytes (getRandomValues gives at most 64 KiB at a time). */
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

/** The bytes the simulator stores for a file (text or binary). */
function storedBytes(item: Record<string, string> | undefined): Uint8Array | undefined {
  if (!item) return undefined;
  if (item.contents !== undefined) return new TextEncoder().encode(item.contents);
  return new Uint8Array(Buffer.from(item.data ?? "", "base64"));
}

function assertRising(events: Progress[], total: number, what: string) {
  assert.ok(events.length >= 2, `${what}: ${events.length} progress notifications`);
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i].progress > events[i - 1].progress, `${what}: progress rises`);
  }
  assert.equal(events.at(-1)!.progress, total, `${what}: the last one says done`);
  assert.ok(events.every((e) => e.total === total), `${what}: total ${total}`);
}

Deno.test("20 MiB binary up and back over SFTP, with progress and SHA-256, on 7.16.2", async (t) => {
  const sim = await startSimulator({ version: "7.16.2" });
  const root = await Deno.makeTempDir({ prefix: "mcp-files-test-" });
  const files = `${root}/files`;
  const outside = `${root}/outside`;
  await Deno.mkdir(files);
  await Deno.mkdir(outside);
  const audit = `${root}/audit.jsonl`;
  const s = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--files-dir",
    files,
    "--audit-log",
    audit,
  ]);
  const routerFile = (name: string) => sim.items("/file").find((f) => f.name === name);
  const call = async (name: string, args: Rec, progress?: Progress[]) =>
    (await s.client.callTool(
      { name, arguments: args },
      undefined,
      progress ? { onprogress: (p: Progress) => void progress.push(p) } : undefined,
    )) as { content: { text: string }[]; structuredContent?: Rec; isError?: boolean };
  const data = randomBytes(20 * MiB);
  const hash = sha256(data);
  await Deno.writeFile(`${files}/big.bin`, data);
  try {
    await t.step("a dry run sends nothing and lists what the upload will record", async () => {
      const dry = await call("router_upload_file", {
        name: "big.bin",
        local_path: "big.bin",
        dry_run: true,
      });
      assert.equal(dry.isError, undefined, dry.content[0]?.text);
      const plan = dry.structuredContent?.dry_run as { commands: string[]; preview: Rec };
      assert.deepEqual(plan.commands, [`sftp put /big.bin (${20 * MiB} bytes)`]);
      assert.equal(plan.preview.size, 20 * MiB);
      assert.equal(routerFile("big.bin"), undefined);
    });

    await t.step("upload: stored byte for byte, read back and hashed, with progress", async () => {
      const progress: Progress[] = [];
      const started = performance.now();
      const r = await call(
        "router_upload_file",
        { name: "big.bin", local_path: "big.bin" },
        progress,
      );
      const ms = performance.now() - started;
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const out = r.structuredContent!;
      assert.equal(out.bytes, 20 * MiB);
      assert.equal(out.sha256, hash);
      assert.equal(out.verified, "sha256");
      assert.equal(sha256(storedBytes(routerFile("big.bin"))!), hash);
      // Progress covers the upload and the read-back (twice the size).
      assertRising(progress, 2 * 20 * MiB, "upload");
      console.log(`  upload + read-back of 20 MiB: ${Math.round(ms)} ms`);
      // Written ahead: the intent names the transfer before a byte is sent, the outcome links it.
      const lines = (await Deno.readTextFile(audit)).trim().split("\n").map((l) => JSON.parse(l))
        .filter((l) => l.tool === "router_upload_file");
      const intent = lines.find((l) => l.kind === "intent");
      assert.equal(intent?.command, `sftp put /big.bin (${20 * MiB} bytes)`);
      assert.equal(lines.at(-1).kind, "outcome");
      assert.equal(lines.at(-1).outcome, "ok");
    });

    await t.step(
      "the router lists it with its size and type; an upload refuses to replace it",
      async () => {
        const list = await call("router_list_files", {});
        const item = (list.structuredContent?.items as Rec[]).find((i) => i.name === "big.bin");
        assert.equal(item?.size, 20 * MiB);
        assert.equal(item?.type, ".bin file");
        assert.equal(typeof item?.last_modified, "string");
        const again = await call("router_upload_file", { name: "big.bin", local_path: "big.bin" });
        assert.equal(again.isError, true);
        assert.match(again.content[0].text, /already exists; set overwrite/);
      },
    );

    await t.step(
      "download: the same bytes land in the files directory, with progress",
      async () => {
        const progress: Progress[] = [];
        const started = performance.now();
        const r = await call(
          "router_download_file",
          { name: "big.bin", local_path: "back/./big.bin" },
          progress,
        );
        const ms = performance.now() - started;
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.equal(r.structuredContent?.local_path, "back/big.bin");
        assert.equal(r.structuredContent?.sha256, hash);
        const back = await Deno.readFile(`${files}/back/big.bin`);
        assert.equal(back.length, data.length);
        assert.ok(back.every((b, i) => b === data[i]), "byte-identical");
        assert.equal((await Deno.stat(`${files}/back/big.bin`)).mode! & 0o777, 0o600);
        assertRising(progress, 20 * MiB, "download");
        console.log(`  download of 20 MiB: ${Math.round(ms)} ms`);
        const leftovers = [...Deno.readDirSync(`${files}/back`)].map((e) => e.name);
        assert.deepEqual(leftovers, ["big.bin"], "no temporary file left");
        const twice = await call("router_download_file", {
          name: "big.bin",
          local_path: "back/big.bin",
        });
        assert.equal(twice.isError, true);
        assert.match(twice.content[0].text, /already exists; set overwrite/);
      },
    );

    await t.step("local paths outside the files directory are refused", async () => {
      await Deno.writeFile(`${outside}/secret.txt`, new TextEncoder().encode("secret"));
      await Deno.symlink(`${outside}/secret.txt`, `${files}/link.txt`);
      await Deno.symlink(outside, `${files}/out`);
      await Deno.symlink("/etc/passwd", `${files}/passwd`);
      const before = JSON.stringify(sim.items("/file"));
      for (const local_path of ["../outside/secret.txt", "/etc/passwd", "a/../../x", "a\0b"]) {
        for (const tool of ["router_upload_file", "router_download_file"]) {
          const r = await call(tool, { name: "x.txt", local_path });
          assert.equal(r.isError, true, `${tool} ${local_path}`);
          assert.match(r.content[0].text, /local_path/);
        }
      }
      for (const local_path of ["link.txt", "passwd", "out/secret.txt"]) {
        const up = await call("router_upload_file", { name: "x.txt", local_path });
        assert.equal(up.isError, true, local_path);
        assert.match(up.content[0].text, /outside the files directory/);
      }
      const down = await call("router_download_file", {
        name: "big.bin",
        local_path: "out/stolen.bin",
      });
      assert.equal(down.isError, true);
      assert.match(down.content[0].text, /outside the files directory/);
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.txt"]);
      assert.equal(JSON.stringify(sim.items("/file")), before, "nothing reached the router");
    });

    await t.step("remove takes the file off the router (with confirm)", async () => {
      const dry = await call("router_download_file", { name: "gone.bin", dry_run: true });
      assert.deepEqual((dry.structuredContent?.dry_run as Rec).problems, [
        "no file gone.bin on the router",
      ]);
      const r = await call("router_remove_file", { name: "big.bin", confirm: true });
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal(routerFile("big.bin"), undefined);
    });
  } finally {
    await s.close();
    await sim.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a corrupted or stalled upload is detected and removed from the router", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const files = await Deno.makeTempDir({ prefix: "mcp-files-test-" });
  const s = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--files-dir",
    files,
    "--command-timeout",
    "1",
  ]);
  const routerFile = (name: string) => sim.items("/file").find((f) => f.name === name);
  const call = (name: string, args: Rec) => callTool(s, name, args);
  try {
    await Deno.writeFile(`${files}/small.bin`, randomBytes(300 * 1024));
    sim.faults.sftpCorruptWrites = true;
    const bad = await call("router_upload_file", {
      name: "small.bin",
      local_path: "small.bin",
    });
    sim.faults.sftpCorruptWrites = false;
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /SHA-256 on the router is [0-9a-f]{64}.*was removed/);
    assert.equal(routerFile("small.bin"), undefined);
    sim.faults.sftpStallAfterBytes = 100 * 1024;
    const stalled = await call("router_upload_file", {
      name: "small.bin",
      local_path: "small.bin",
    });
    sim.faults.sftpStallAfterBytes = 0;
    assert.equal(stalled.isError, true);
    assert.match(stalled.content[0].text, /stalled: no answer for 1 s.*was removed/);
    assert.equal(routerFile("small.bin"), undefined);
    const folder = await call("router_upload_file", {
      name: "nofolder/small.bin",
      local_path: "small.bin",
    });
    assert.equal(folder.isError, true);
    assert.match(
      folder.content[0].text,
      /cannot create \/nofolder\/small\.bin: no such file or folder/,
    );
    assert.doesNotMatch(folder.content[0].text, /removed/);
  } finally {
    await s.close();
    await sim.close();
    await Deno.remove(files, { recursive: true });
  }
});

Deno.test("binary and empty files up and down over SFTP on RouterOS 6.49", async () => {
  const sim = await startSimulator({ version: "6.49.13" });
  const files = await Deno.makeTempDir({ prefix: "mcp-files-test-" });
  const s = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    "--files-dir",
    files,
  ]);
  try {
    const data = randomBytes(100 * 1024 + 7);
    await Deno.writeFile(`${files}/fw.npk`, data);
    const up = await callTool(s, "router_upload_file", { name: "fw.npk", local_path: "fw.npk" });
    assert.equal(up.isError, undefined, up.content[0]?.text);
    assert.equal((up.structuredContent?.item as Rec).type, "package");
    const down = await callTool(s, "router_download_file", { name: "fw.npk", local_path: "b.npk" });
    assert.equal(down.isError, undefined, down.content[0]?.text);
    assert.equal(sha256(await Deno.readFile(`${files}/b.npk`)), sha256(data));
    await Deno.writeFile(`${files}/empty`, new Uint8Array());
    const empty = await callTool(s, "router_upload_file", { name: "empty", local_path: "empty" });
    assert.equal(empty.isError, undefined, empty.content[0]?.text);
    assert.equal(empty.structuredContent?.bytes, 0);
    const none = await callTool(s, "router_download_file", { name: "empty", local_path: "e2" });
    assert.equal(none.isError, undefined, none.content[0]?.text);
    assert.equal((await Deno.readFile(`${files}/e2`)).length, 0);
  } finally {
    await s.close();
    await sim.close();
    await Deno.remove(files, { recursive: true });
  }
});

Deno.test("the files directory defaults to <state-dir>/files; --read-only offers no transfers; a read-only device is downloaded from, not uploaded to", async () => {
  const sim = await startSimulator({ version: "7.16.2" });
  const state = await Deno.makeTempDir({ prefix: "mcp-state-test-" });
  const args = ["--host", sim.host, "--port", String(sim.port), "--state-dir", state];
  const s = await serveInProcess(args);
  const ro = await serveInProcess([...args, "--read-only"]);
  const inventory = JSON.stringify([{
    title: "ro-1",
    host: sim.host,
    port: sim.port,
    username: "admin",
    read_only: true,
  }]);
  const roDevice = await serveInProcess([
    "--inventory",
    inventory,
    "--state-dir",
    `${state}/ro-device`,
  ]);
  try {
    sim.run('/file add name=note.txt contents="hi"');
    const r = await callTool(s, "router_download_file", { name: "note.txt" });
    assert.equal(r.isError, undefined, r.content[0]?.text);
    assert.equal(await Deno.readTextFile(`${state}/files/note.txt`), "hi");
    assert.equal((await Deno.stat(`${state}/files`)).mode! & 0o777, 0o700);
    const names = (await listAllTools(ro.client)).map((t) => t.name);
    assert.ok(names.includes("router_list_files"), "the read tools are listed");
    assert.ok(!names.includes("router_download_file") && !names.includes("router_upload_file"));
    // inventory read_only: the router is not changed, but it may be read, into --files-dir too
    const down = await callTool(roDevice, "router_download_file", { name: "note.txt" });
    assert.equal(down.isError, undefined, down.content[0]?.text);
    assert.equal(await Deno.readTextFile(`${state}/ro-device/files/note.txt`), "hi");
    const up = await callTool(roDevice, "router_upload_file", { name: "x.txt", contents: "x" });
    assert.equal(up.isError, true);
    assert.match(up.content[0].text, /read-only \(inventory read_only: true\)/);
  } finally {
    await roDevice.close();
    await ro.close();
    await s.close();
    await sim.close();
    await Deno.remove(state, { recursive: true });
  }
});
