/**
 * One version source: deno.json's "version". The CLI and the MCP serverInfo
 * read it at run time; every other file that carries a copy must agree
 * (scripts/release.sh rewrites them all).
 */
import assert from "node:assert/strict";
import YAML from "yaml";
import {
  buildPermissions,
  connect,
  repoFile,
  runMain,
  VERSION,
  WORKFLOW_VERSION_SOURCE,
} from "./distribution_helpers.ts";

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

Deno.test("version: deno.json holds a semantic version", () => {
  assert.match(VERSION, SEMVER);
});

Deno.test("version: --version and proxy --version print deno.json's version", async () => {
  const flags = await buildPermissions();
  for (const args of [["--version"], ["-V"], ["proxy", "--version"]]) {
    const r = await runMain(flags, args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION, args.join(" "));
  }
});

Deno.test("version: the MCP serverInfo carries deno.json's version", async () => {
  const session = await connect(["--allow-all"], [], { ROUTER_CONTAINER: "1" });
  try {
    const info = session.client.getServerVersion();
    assert.equal(info?.name, "mcp-server-router");
    assert.equal(info?.version, VERSION);
  } finally {
    await session.close();
  }
});

Deno.test("version: server.json's version and image tag", () => {
  const server = JSON.parse(repoFile("server.json"));
  assert.equal(server.version, VERSION);
  assert.equal(server.packages.length, 1);
  const [pkg] = server.packages;
  assert.equal(pkg.identifier.slice(pkg.identifier.lastIndexOf(":") + 1), VERSION);
  assert.equal(pkg.version, undefined, "an OCI package carries its version in the identifier");
});

Deno.test("version: smithery.yaml's header", () => {
  const header = repoFile("smithery.yaml").split("\n").find((l) =>
    l.startsWith("# mcp-server-router ")
  );
  assert.ok(header, "smithery.yaml has a '# mcp-server-router X.Y.Z' line");
  assert.equal(header.split(" ")[2], VERSION);
});

Deno.test("version: the Dockerfile's label version defaults to deno.json's", () => {
  const dockerfile = repoFile("Dockerfile");
  const args = [...dockerfile.matchAll(/^ARG VERSION=(.*)$/gm)].map((m) => m[1].trim());
  assert.deepEqual(args, [VERSION]);
  assert.match(dockerfile, /org\.opencontainers\.image\.version="\$VERSION"/);
});

Deno.test("version: docs/install.md's download commands", () => {
  const lines = [...repoFile("docs/install.md").matchAll(/^VERSION=(.*)$/gm)].map((m) => m[1]);
  assert.ok(lines.length > 0);
  for (const v of lines) assert.equal(v, VERSION);
});

Deno.test("version: the release workflow takes the version from deno.json and the tag", () => {
  const text = repoFile(".github/workflows/release.yml");
  const wf = YAML.parse(text);
  assert.deepEqual(wf.on.push.tags, ["v*.*.*"]);
  const verify = wf.jobs.verify.steps.map((s: { run?: string }) => s.run ?? "").join("\n");
  assert.ok(verify.includes(WORKFLOW_VERSION_SOURCE), "reads deno.json's version");
  assert.ok(verify.includes('tag="${GITHUB_REF_NAME#v}"'));
  assert.match(verify, /if \[ "\$tag" != "\$version" \]; then[\s\S]*exit 1/);
  // Everything downstream uses the verified version, never a literal one.
  const literal = new RegExp(`(?<![\\w.])${VERSION.replaceAll(".", "\\.")}(?![\\w.])`);
  assert.ok(!literal.test(text), "no literal version in release.yml");
  const image = wf.jobs.image.steps.find((s: { uses?: string }) =>
    s.uses?.startsWith("docker/build-push-action")
  );
  assert.match(image.with["build-args"], /VERSION=\$\{\{ needs\.verify\.outputs\.version \}\}/);
});
