/**
 * The files directory's confinement, on a real temporary directory: paths
 * normalised or refused before any disk access, links followed only inside,
 * writes through a temporary file that appears whole or not at all.
 */
import assert from "node:assert/strict";
import { ArgumentError } from "../../lib/routeros/errors.ts";
import { FilesDir, relativeOrWhy } from "../../lib/tools/files/local_files.ts";

Deno.test("relative paths: normalised, or refused with the reason", () => {
  assert.deepEqual(relativeOrWhy("a/./b//c.bin"), { path: "a/b/c.bin" });
  assert.deepEqual(relativeOrWhy("./x"), { path: "x" });
  for (
    const [bad, why] of [
      ["", /1 to 1024/],
      ["/etc/passwd", /not an absolute path/],
      ["~/x", /not an absolute path/],
      ["../x", /'\.\.'/],
      ["a/../../x", /'\.\.'/],
      ["a/..", /'\.\.'/],
      ["a\0b", /control/],
      ["a\\b", /'\/'/],
      [".", /not the files directory itself/],
      ["x".repeat(1025), /1 to 1024/],
    ] as const
  ) {
    const r = relativeOrWhy(bad);
    assert.ok("why" in r, JSON.stringify(bad));
    assert.match(r.why, why);
  }
});

Deno.test("files directory: made 0700, writes appear whole, links out are refused", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const dir = new FilesDir(`${tmp}/files`);
    const w = await dir.create("sub/one.bin", false);
    await w.write(new Uint8Array([1, 2, 3]));
    assert.deepEqual([...Deno.readDirSync(`${tmp}/files/sub`)].length, 1, "only the temp file");
    assert.equal(await dir.exists("sub/one.bin"), false, "not there before commit");
    await w.commit();
    await w.abort();
    assert.deepEqual(await Deno.readFile(`${tmp}/files/sub/one.bin`), new Uint8Array([1, 2, 3]));
    assert.equal((await Deno.stat(`${tmp}/files`)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${tmp}/files/sub/one.bin`)).mode! & 0o777, 0o600);
    await assert.rejects(() => dir.create("sub/one.bin", false), /already exists/);
    const again = await dir.create("sub/one.bin", true);
    await again.write(new Uint8Array([9]));
    await again.abort();
    assert.deepEqual(await Deno.readFile(`${tmp}/files/sub/one.bin`), new Uint8Array([1, 2, 3]));
    assert.deepEqual([...Deno.readDirSync(`${tmp}/files/sub`)].map((e) => e.name), ["one.bin"]);

    const opened = await dir.open("sub/one.bin");
    assert.equal(opened.size, 3);
    opened.file.close();
    await Deno.mkdir(`${tmp}/out`);
    await Deno.writeTextFile(`${tmp}/out/secret`, "s");
    await Deno.symlink(`${tmp}/out`, `${tmp}/files/out`);
    await Deno.symlink(`${tmp}/files/sub`, `${tmp}/files/in`);
    const inside = await dir.open("in/one.bin");
    inside.file.close();
    assert.equal(inside.size, 3, "a link that stays inside is followed");
    await assert.rejects(() => dir.open("out/secret"), ArgumentError);
    await assert.rejects(() => dir.create("out/new", false), /outside the files directory/);
    await assert.rejects(() => dir.create("out/deeper/new", false), /outside/);
    assert.deepEqual([...Deno.readDirSync(`${tmp}/out`)].map((e) => e.name), ["secret"]);
    await assert.rejects(() => dir.open("sub"), /not a regular file/);
    await assert.rejects(() => dir.open("nope"), /no file nope/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
