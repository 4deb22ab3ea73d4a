/**
 * scripts/build.sh and scripts/release.sh: syntax and shellcheck, every
 * refusal, the build up to and through `deno compile` (with DENORT_BIN set to
 * a local ELF, since the real runtime download needs the internet), and a
 * release cut in a scratch git repository.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DENO, repoFile, ROOT, run, VERSION } from "./distribution_helpers.ts";
import { needs } from "./helpers/env.ts";

const SCRIPTS = [...Deno.readDirSync(`${ROOT}/scripts`)]
  .filter((e) => e.isFile && e.name.endsWith(".sh"))
  .map((e) => `scripts/${e.name}`)
  .sort();

const HOST_ARCH = Deno.build.arch === "x86_64" ? "amd64" : "arm64";

Deno.test({
  name: "scripts: every shell script passes bash -n and shellcheck",
  ignore: !needs("script shellcheck", ["shellcheck"], "apt-get install shellcheck"),
}, async () => {
  assert.ok(SCRIPTS.includes("scripts/build.sh") && SCRIPTS.includes("scripts/release.sh"));
  for (const script of SCRIPTS) {
    const syntax = await run("bash", ["-n", script]);
    assert.equal(syntax.code, 0, `${script}: ${syntax.stderr}`);
  }
  const lint = await run("shellcheck", ["--severity=style", ...SCRIPTS]);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);
});

Deno.test("build.sh: refuses what would make a wrong binary", async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [["9.9.9"], {}, /version 9\.9\.9 differs from deno\.json's .*run scripts\/release\.sh 9\.9\.9/],
    [["1.2"], {}, /version "1\.2" is not X\.Y\.Z/],
    [[VERSION, "extra"], {}, /expected at most one argument/],
    [[], { TARGETS: "riscv64" }, /unknown target "riscv64"/],
    [[], { TYPECHECK: "maybe" }, /TYPECHECK=maybe: expected yes or no/],
    [[], { DENORT_BIN: "/nonexistent/denort" }, /DENORT_BIN=\/nonexistent\/denort is not a file/],
    [[], { DENORT_BIN: `${ROOT}/deno.json` }, /is not an x86_64 or aarch64 Linux executable/],
  ];
  for (const [args, env, message] of cases) {
    const out = await Deno.makeTempDir({ prefix: "build-" });
    try {
      const r = await run("bash", ["scripts/build.sh", ...args], { env: { ...env, OUT_DIR: out } });
      assert.notEqual(r.code, 0, `${args.join(" ")} ${JSON.stringify(env)}`);
      assert.match(r.stderr, message);
      assert.deepEqual([...Deno.readDirSync(out)], [], "nothing was built");
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  }
});

Deno.test("build.sh: --help shows the usage from its header", async () => {
  const r = await run("bash", ["scripts/build.sh", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /scripts\/build\.sh \[VERSION\]/);
  assert.match(r.stdout, /DENORT_BIN/);
});

Deno.test({
  name: "build.sh: compiles with DENORT_BIN and writes a verifiable SHA256SUMS",
  // Any ELF of the host's architecture passes for the runtime here; the deno
  // running the tests is one. The result is not runnable (it is not denort),
  // but the whole build runs: module graph, permissions, embedded assets. The
  // type check is left to `deno check`, which CI runs on the same tree first.
  ignore: Deno.build.os !== "linux",
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "build-" });
    try {
      const r = await run("bash", ["scripts/build.sh", VERSION], {
        env: { DENORT_BIN: DENO, TARGETS: HOST_ARCH, OUT_DIR: out, DENO, TYPECHECK: "no" },
      });
      assert.equal(r.code, 0, r.stderr);
      const name = `mcp-server-router-${VERSION}-linux-${HOST_ARCH}`;
      const files = [...Deno.readDirSync(out)].map((e) => e.name).sort();
      assert.deepEqual(files, ["SHA256SUMS", name]);
      const info = Deno.statSync(`${out}/${name}`);
      assert.ok(info.size > 1_000_000, "a whole runtime plus the program");
      assert.ok((info.mode! & 0o111) !== 0, "executable");
      const sums = Deno.readTextFileSync(`${out}/SHA256SUMS`);
      assert.match(sums, new RegExp(`^[0-9a-f]{64}  ${name.replaceAll(".", "\\.")}\n$`));
      const check = await run("sha256sum", ["--check", "SHA256SUMS"], { cwd: out });
      assert.equal(check.code, 0, check.stdout + check.stderr);
      // The embedded program holds the subcommands and the Swagger UI assets.
      const binary = Buffer.from(await Deno.readFile(`${out}/${name}`));
      for (
        const needle of ["lib/server/healthcheck.ts", "lib/sim/cli.ts", "swagger-ui-bundle.js"]
      ) {
        assert.ok(binary.indexOf(needle) >= 0, `${needle} is embedded`);
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

/** A scratch git repository holding the files release.sh edits. */
async function scratchRepo(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "release-" });
  for (
    const file of [
      "deno.json",
      "server.json",
      "smithery.yaml",
      "Dockerfile",
      "docs/install.md",
      "scripts/release.sh",
    ]
  ) {
    await Deno.mkdir(`${dir}/${file}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${file}`, repoFile(file));
  }
  const env = {
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Release Test",
    GIT_AUTHOR_EMAIL: "release@test.invalid",
    GIT_COMMITTER_NAME: "Release Test",
    GIT_COMMITTER_EMAIL: "release@test.invalid",
  };
  for (
    const args of [
      ["init", "-q", "-b", "main"],
      ["add", "."],
      ["commit", "-q", "-m", "start"],
    ]
  ) {
    const r = await run("git", args, { cwd: dir, env });
    assert.equal(r.code, 0, r.stderr);
  }
  return { dir, env };
}

Deno.test("release.sh: bumps every copy of the version, commits and tags", async () => {
  const { dir, env } = await scratchRepo();
  try {
    const next = "1.2.3";
    assert.notEqual(next, VERSION);
    const r = await run("bash", ["scripts/release.sh", next], { cwd: dir, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /committed and tagged v1\.2\.3/);
    const read = (f: string) => Deno.readTextFileSync(`${dir}/${f}`);
    assert.equal(JSON.parse(read("deno.json")).version, next);
    const server = JSON.parse(read("server.json"));
    assert.equal(server.version, next);
    assert.equal(
      server.packages[0].identifier,
      `ghcr.io/mcp-server-router/mcp-server-router:${next}`,
    );
    assert.match(read("smithery.yaml"), /^# mcp-server-router 1\.2\.3 /m);
    assert.match(read("Dockerfile"), /^ARG VERSION=1\.2\.3$/m);
    assert.match(read("docs/install.md"), /^VERSION=1\.2\.3$/m);
    // Only the version lines changed.
    const diff = await run("git", ["diff", "--numstat", "HEAD~1", "HEAD"], { cwd: dir, env });
    const changed = diff.stdout.trim().split("\n").map((l) => l.split("\t"));
    const expected: Record<string, string> = {
      "deno.json": "1",
      "server.json": "2",
      "smithery.yaml": "1",
      "Dockerfile": "1",
      "docs/install.md": "1",
    };
    assert.deepEqual(
      Object.fromEntries(changed.map(([added, , file]) => [file, added])),
      expected,
      diff.stdout,
    );
    const tag = await run("git", ["tag", "--points-at", "HEAD"], { cwd: dir, env });
    assert.equal(tag.stdout.trim(), "v1.2.3");
    const status = await run("git", ["status", "--porcelain"], { cwd: dir, env });
    assert.equal(status.stdout, "", "the tree is clean after the release commit");

    // The same version again, and its existing tag, are refused.
    const again = await run("bash", ["scripts/release.sh", next], { cwd: dir, env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /tag v1\.2\.3 already exists/);
    const pre = await run("bash", ["scripts/release.sh", "v1.3.0-rc.1"], { cwd: dir, env });
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(JSON.parse(read("deno.json")).version, "1.3.0-rc.1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("release.sh: refuses a bad version, the current one, and a dirty tree", async () => {
  const { dir, env } = await scratchRepo();
  try {
    for (const bad of ["1.2", "01.2.3", "1.2.3.4", "latest", ""]) {
      const r = await run("bash", ["scripts/release.sh", bad], { cwd: dir, env });
      assert.equal(r.code, 1, bad);
      assert.match(r.stderr, /is not a semantic version/);
    }
    const none = await run("bash", ["scripts/release.sh"], { cwd: dir, env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /usage: scripts\/release\.sh X\.Y\.Z/);
    const same = await run("bash", ["scripts/release.sh", VERSION], { cwd: dir, env });
    assert.equal(same.code, 1);
    assert.match(same.stderr, /already at/);
    await Deno.writeTextFile(`${dir}/notes.txt`, "wip\n");
    const dirty = await run("bash", ["scripts/release.sh", "2.0.0"], { cwd: dir, env });
    assert.equal(dirty.code, 1);
    assert.match(dirty.stderr, /uncommitted changes/);
    assert.equal(JSON.parse(Deno.readTextFileSync(`${dir}/deno.json`)).version, VERSION);
    const tags = await run("git", ["tag"], { cwd: dir, env });
    assert.equal(tags.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
