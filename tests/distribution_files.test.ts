/**
 * The distribution files parse and say what they must: both workflows,
 * server.json (checked against the settings table and the registry's
 * limits on publisher metadata), smithery.yaml (its start
 * command run for real against the simulator), the Dockerfile and
 * .dockerignore.
 */
import assert from "node:assert/strict";
import YAML from "yaml";
import { CONTAINER_DEFAULT_HOST } from "../lib/config/load.ts";
import { SETTINGS } from "../lib/config/settings.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { toolCount } from "../scripts/client_profiles.ts";
import { needs } from "./helpers/env.ts";
import {
  callTool,
  connect,
  DENO,
  MAIN,
  repoFile,
  ROOT,
  run,
  WORKFLOW_VERSION_SOURCE,
} from "./distribution_helpers.ts";

type Json = Record<string, any>;

const SERVER: Json = JSON.parse(repoFile("server.json"));
const DOCKERFILE = repoFile("Dockerfile");
const SMITHERY: Json = YAML.parse(repoFile("smithery.yaml"));
const CI: Json = YAML.parse(repoFile(".github/workflows/ci.yml"));
const RELEASE: Json = YAML.parse(repoFile(".github/workflows/release.yml"));

/**
 * Settings a registry user of the stdio OCI package does not set, with the
 * reason. Every other setting must be in server.json.
 */
const NOT_IN_SERVER_JSON: Record<string, string> = {
  "mcp.host": "HTTP transports only; the registry package speaks stdio",
  "mcp.port": "HTTP transports only",
  "mcp.allowed-hosts": "HTTP transports only",
  "mcp.allowed-origins": "HTTP transports only",
  "mcp.stateless": "HTTP transports only",
  "mcp.session-timeout": "HTTP transports only",
  "mcp.max-sessions": "HTTP transports only",
  "mcp.api-keys-file": "HTTP transports only",
  "mcp.oauth-issuer": "HTTP transports only",
  "mcp.oauth-resource": "HTTP transports only",
  "mcp.oauth-jwks-url": "HTTP transports only",
  "mcp.oauth-scopes": "HTTP transports only",
  "mcp.allow-unauthenticated": "HTTP transports only",
  "mcp.header-timeout": "HTTP transports only",
  "mcp.body-timeout": "HTTP transports only",
  "mcp.max-connections-per-peer": "HTTP transports only",
  "metrics": "HTTP transports only (/metrics on the MCP port)",
  "metrics-port": "the registry package speaks stdio to one client; a scraper needs a published " +
    "port and API keys (HTTP settings): docs/metrics.md",
  "metrics-host": "with --metrics-port only",
  "metrics-no-device-label": "with --metrics or --metrics-port only",
  "container": "the image sets ROUTER_CONTAINER=1 itself",
};

const PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided";

const OWNER = SERVER.name.replace(/^io\.github\./, "").split("/")[0];

/** The image's ENV settings (they are the defaults a container user sees). */
const IMAGE_ENV: Record<string, string> = Object.fromEntries(
  instructions("ENV").flatMap((line) =>
    [...line.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])
  ),
);

/** The value of a Dockerfile instruction's lines, joined across backslash newlines. */
function instructions(name: string): string[] {
  const joined = DOCKERFILE.replace(/\\\n/g, " ");
  return [...joined.matchAll(new RegExp(`^${name} (.*)$`, "gm"))].map((m) => m[1].trim());
}

Deno.test("files: server.json follows the registry schema's rules", () => {
  assert.equal(
    SERVER.$schema,
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  );
  assert.match(SERVER.name, /^io\.github\.[A-Za-z0-9-]+\/mcp-server-router$/);
  assert.equal(OWNER, "mcp-server-router");
  assert.ok(SERVER.description.length >= 1 && SERVER.description.length <= 100);
  assert.deepEqual(SERVER.repository, {
    url: `https://github.com/${OWNER}/mcp-server-router`,
    source: "github",
  });
  const [pkg] = SERVER.packages;
  assert.equal(pkg.registryType, "oci");
  assert.equal(pkg.identifier, `ghcr.io/${OWNER}/mcp-server-router:${SERVER.version}`);
  assert.deepEqual(pkg.transport, { type: "stdio" });
  assert.equal(pkg.runtimeHint, "docker");
});

Deno.test("files: server.json's _meta is what the registry keeps: client profiles within 4 KiB", () => {
  // The official registry keeps only this key of _meta, and refuses one over 4096 bytes of JSON.
  assert.deepEqual(Object.keys(SERVER._meta), [PUBLISHER]);
  const meta = SERVER._meta[PUBLISHER];
  const size = new TextEncoder().encode(JSON.stringify(meta)).length;
  assert.ok(size <= 4096, `publisher-provided metadata is ${size} bytes`);
  assert.match(meta.clients, /\/docs\/clients\.md$/);
  assert.equal(meta.toolCounts.all, toolCount({ toolsets: "all" }));
  for (const p of meta.clientProfiles) {
    assert.equal(p.tools, toolCount({ toolsets: p.ROUTER_TOOLSETS }), p.client);
    if (p.toolLimit) assert.ok(p.tools <= p.toolLimit, `${p.client}: ${p.tools} tools`);
  }
});

Deno.test("files: the image proves ownership to the registry and names its source", () => {
  const labels = instructions("LABEL").join(" ");
  assert.ok(labels.includes(`io.modelcontextprotocol.server.name="${SERVER.name}"`), labels);
  assert.ok(labels.includes(`org.opencontainers.image.source="${SERVER.repository.url}"`));
});

Deno.test("files: server.json lists every setting a container user sets, as the settings table says", () => {
  const vars: Json[] = SERVER.packages[0].environmentVariables;
  const names = vars.map((v) => v.name);
  assert.equal(new Set(names).size, names.length, "no duplicates");
  const byEnv = new Map(SETTINGS.map((s) => [s.env, s]));
  for (const v of vars) {
    const s = byEnv.get(v.name);
    assert.ok(s, `${v.name} is a setting`);
    assert.ok(
      !(s.name in NOT_IN_SERVER_JSON),
      `${v.name} is excluded: ${NOT_IN_SERVER_JSON[s.name]}`,
    );
    assert.equal(typeof v.description, "string");
    assert.ok(v.description.length > 10, `${v.name} has a description`);
    assert.equal(v.isSecret, s.secret === true, `${v.name}: isSecret follows the settings table`);
    assert.equal(typeof v.isRequired, "boolean", `${v.name}: isRequired`);
    if (v.isSecret) assert.equal(v.default, undefined, `${v.name}: a secret has no default`);
    if (v.value !== undefined) {
      assert.doesNotThrow(() => s.parse(v.value), `${v.name}: value parses`);
      continue;
    }
    const format = typeof s.default === "boolean"
      ? "boolean"
      : typeof s.default === "number"
      ? "number"
      : s.arg === "<file>"
      ? "filepath"
      : "string";
    assert.equal(v.format, format, `${v.name}: format`);
    if (v.default !== undefined) {
      assert.doesNotThrow(() => s.parse(v.default), `${v.name}: default parses`);
      const expected = s.name === "host"
        ? CONTAINER_DEFAULT_HOST
        : IMAGE_ENV[s.env] !== undefined
        ? IMAGE_ENV[s.env]
        : Array.isArray(s.default)
        ? s.default.join(",")
        : String(s.default);
      assert.equal(v.default, expected, `${v.name}: default matches the settings table`);
    } else {
      assert.ok(s.default === undefined || s.secret, `${v.name}: default ${s.default} is missing`);
    }
    for (const choice of v.choices ?? []) {
      assert.doesNotThrow(() => s.parse(choice), `${v.name}: choice ${choice}`);
    }
  }
  for (const s of SETTINGS) {
    if (s.name in NOT_IN_SERVER_JSON) continue;
    assert.ok(names.includes(s.env), `${s.env} (--${s.name}) is in server.json`);
  }
  const transport = vars.find((v) => v.name === "ROUTER_MCP__TRANSPORT");
  assert.equal(transport?.value, "stdio", "registry clients speak stdio to the image");
});

Deno.test("files: smithery.yaml starts the image's binary over stdio with the config schema", () => {
  const start = SMITHERY.startCommand;
  assert.equal(start.type, "stdio");
  assert.deepEqual(SMITHERY.build, { dockerfile: "Dockerfile", dockerBuildPath: "." });
  const props = start.configSchema.properties;
  for (const key of ["host", "username", "password", "port", "inventory"]) {
    assert.ok(props[key], `configSchema has ${key}`);
  }
  assert.equal(props.port.type, "integer");
  const fn = (0, eval)(start.commandFunction);
  const cmd = fn({
    host: "198.51.100.7",
    username: "ops",
    password: "pw",
    port: 2222,
    inventory: "[]",
  });
  const [entrypoint] = JSON.parse(instructions("ENTRYPOINT")[0]);
  assert.equal(cmd.command, entrypoint, "the command is the image's binary");
  assert.deepEqual(cmd.args, []);
  const envs = new Set(SETTINGS.map((s) => s.env));
  for (const name of Object.keys(cmd.env)) assert.ok(envs.has(name), `${name} is a setting`);
  assert.deepEqual(cmd.env, {
    ROUTER_CONTAINER: "1",
    ROUTER_MCP__TRANSPORT: "stdio",
    ROUTER_HOST: "198.51.100.7",
    ROUTER_USERNAME: "ops",
    ROUTER_PASSWORD: "pw",
    ROUTER_PORT: "2222",
    ROUTER_INVENTORY: "[]",
  });
  assert.deepEqual(fn({}).env, { ROUTER_CONTAINER: "1", ROUTER_MCP__TRANSPORT: "stdio" });
});

Deno.test("files: smithery.yaml's start command reaches a router (the simulator)", async () => {
  const sim = await startSimulator();
  const fn = (0, eval)(SMITHERY.startCommand.commandFunction);
  try {
    for (
      const config of [
        { host: sim.host, port: sim.port, username: "admin" },
        {
          inventory: JSON.stringify([{
            title: "lab",
            host: sim.host,
            port: sim.port,
            password: "",
          }]),
          host: "198.51.100.7",
        },
      ]
    ) {
      const { env } = fn(config);
      // In the image the command is the binary; here it is main.ts.
      const session = await connect(["--allow-all"], [], env);
      try {
        const r = await callTool(session, "router_list_ip_addresses");
        assert.equal(r.isError, false, r.text);
        const items = (r.structured as { items: { address: string }[] }).items;
        assert.ok(items.some((i) => i.address === "192.168.88.1/24"), r.text);
      } finally {
        await session.close();
      }
    }
  } finally {
    await sim.close();
  }
});

Deno.test("files: Dockerfile builds in deno 2.9.6 and runs distroless as nonroot", () => {
  const from = instructions("FROM");
  assert.deepEqual(from, [
    "--platform=$BUILDPLATFORM denoland/deno:2.9.6 AS build",
    "gcr.io/distroless/cc-debian12:nonroot",
  ]);
  assert.equal(Deno.version.deno, "2.9.6", "the tests run the Deno the image builds with");
  const runs = instructions("RUN").join("\n");
  assert.match(runs, /TARGETS="\$TARGETARCH" .*bash scripts\/build\.sh "\$VERSION"/);
  assert.ok(instructions("ARG").includes("TARGETARCH"));
  assert.deepEqual(instructions("EXPOSE"), ["8000"]);
  assert.deepEqual(instructions("WORKDIR").slice(-1), ["/config"]);
  assert.deepEqual(instructions("USER"), ["65532:65532"]);
  assert.deepEqual(IMAGE_ENV, {
    ROUTER_CONTAINER: "1",
    ROUTER_MCP__TRANSPORT: "streamable-http",
    ROUTER_MCP__PORT: "8000",
    ROUTER_KNOWN_HOSTS: "/state/known_hosts",
    ROUTER_STATE_DIR: "/state",
  });
  // /state (known_hosts, audit log) is the nonroot user's, so a fresh volume there is writable.
  assert.match(runs, /mkdir -p -m 0750 \/out\/rootfs\/state/);
  assert.ok(instructions("COPY").includes("--from=build --chown=65532:65532 /out/rootfs/ /"));
  const [health] = instructions("HEALTHCHECK");
  const cmd = JSON.parse(health.slice(health.indexOf("CMD ") + 4));
  assert.deepEqual(cmd, [
    "/usr/local/bin/mcp-server-router",
    "healthcheck",
    "--url",
    "http://127.0.0.1:8000/health",
  ]);
  assert.deepEqual(JSON.parse(instructions("ENTRYPOINT")[0]), ["/usr/local/bin/mcp-server-router"]);
  const labels = instructions("LABEL").join(" ");
  assert.match(labels, /org\.opencontainers\.image\.version="\$VERSION"/);
});

/** Is `path` in the build context under these .dockerignore rules? (last match wins) */
function inContext(rules: string[], path: string): boolean {
  let included = true;
  for (const rule of rules) {
    const negated = rule.startsWith("!");
    const pattern = negated ? rule.slice(1) : rule;
    const matches = pattern === "*" || path === pattern || path.startsWith(`${pattern}/`);
    if (matches) included = negated;
  }
  return included;
}

Deno.test("files: .dockerignore lets in every module main.ts can load, and no secrets", async () => {
  const rules = repoFile(".dockerignore").split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  for (const rule of rules) {
    assert.match(rule, /^!?(\*|[\w./-]+)$/, `inContext() understands the rule ${rule}`);
  }
  const r = await run(DENO, ["info", "--json", MAIN]);
  assert.equal(r.code, 0, r.stderr);
  const graph = JSON.parse(r.stdout) as { modules: { specifier: string; error?: string }[] };
  const broken = graph.modules.filter((m) => m.error).map((m) => `${m.specifier}: ${m.error}`);
  assert.deepEqual(broken, [], "every import resolves, dynamic ones included");
  const local = graph.modules.map((m) => m.specifier).filter((s) => s.startsWith("file://"))
    .map((s) => decodeURIComponent(new URL(s).pathname).slice(ROOT.length + 1));
  for (const must of ["main.ts", "deno.json", "lib/sim/cli.ts", "lib/server/healthcheck.ts"]) {
    assert.ok(local.includes(must), `${must} is in main.ts's module graph`);
  }
  for (const file of [...local, "deno.lock", "scripts/build.sh"]) {
    assert.ok(inContext(rules, file), `${file} is in the build context`);
  }
  for (const file of [".git/config", "tests/container_mode.test.ts", "dist/x", "inventory.yaml"]) {
    assert.ok(!inContext(rules, file), `${file} stays out of the build context`);
  }
});

Deno.test("files: ci.yml runs .ci/run", () => {
  assert.ok(CI.on.push && "pull_request" in CI.on);
  const steps: Json[] = Object.values(CI.jobs).flatMap((j: any) => j.steps);
  assert.ok(steps.some((s) => s.run?.trim() === "bash .ci/run"), "a step runs bash .ci/run");
  const deno = steps.find((s) => s.uses?.startsWith("denoland/setup-deno@"));
  assert.equal(deno?.with["deno-version"], "v2.9.6");
});

Deno.test("files: release.yml builds, pushes the image with its tags, and publishes server.json", () => {
  const jobs = RELEASE.jobs;
  const steps = (job: string): Json[] => jobs[job].steps;
  const runs = (job: string) => steps(job).map((s) => s.run ?? "").join("\n");
  assert.ok(runs("verify").includes(WORKFLOW_VERSION_SOURCE));

  assert.deepEqual(jobs.binaries.needs, "verify");
  assert.equal(jobs.binaries.permissions.contents, "write");
  assert.match(
    runs("binaries"),
    /scripts\/build\.sh "\$\{\{ needs\.verify\.outputs\.version \}\}"/,
  );
  assert.match(
    runs("binaries"),
    /gh release create "\$GITHUB_REF_NAME" dist\/mcp-server-router-\* dist\/SHA256SUMS/,
  );

  assert.equal(jobs.image.permissions.packages, "write");
  const meta = steps("image").find((s) => s.uses?.startsWith("docker/metadata-action@"));
  const tags = (meta?.with.tags as string).split("\n").map((t) => t.trim()).filter(Boolean);
  assert.deepEqual(tags, [
    "type=raw,value=latest,enable=${{ !contains(github.ref_name, '-') }}",
    "type=semver,pattern={{version}}",
    "type=semver,pattern={{major}}.{{minor}}",
    "type=sha,prefix=sha-,format=short",
  ]);
  assert.equal(meta?.with.images, "${{ needs.verify.outputs.image }}");
  const build = steps("image").find((s) => s.uses?.startsWith("docker/build-push-action@"));
  assert.equal(build?.with.platforms, "linux/amd64,linux/arm64");
  assert.equal(build?.with.push, true);
  assert.equal(build?.with.tags, "${{ steps.meta.outputs.tags }}");

  assert.deepEqual(jobs.registry.needs, ["verify", "binaries", "image"]);
  assert.equal(jobs.registry.permissions["id-token"], "write");
  assert.match(runs("registry"), /mcp-publisher login github-oidc/);
  assert.match(runs("registry"), /mcp-publisher publish/);
});

Deno.test("files: every workflow action is pinned to a version", () => {
  for (const wf of [CI, RELEASE]) {
    for (const job of Object.values(wf.jobs) as Json[]) {
      for (const step of job.steps as Json[]) {
        if (step.uses) assert.match(step.uses, /^[\w.-]+\/[\w.-]+@v\d+$/, step.uses);
      }
    }
  }
});

Deno.test({
  name: "files: the workflows' shell steps pass bash -n and shellcheck",
  ignore: !needs("workflow shellcheck", ["shellcheck"], "apt-get install shellcheck"),
}, async () => {
  let checked = 0;
  for (const [name, wf] of [["ci", CI], ["release", RELEASE]] as const) {
    for (const [jobName, job] of Object.entries(wf.jobs) as [string, Json][]) {
      for (const step of job.steps as Json[]) {
        if (!step.run) continue;
        // GitHub substitutes ${{ ... }} before bash sees the script.
        const script = "#!/usr/bin/env bash\nset -eo pipefail\n" +
          (step.run as string).replace(/\$\{\{[^}]*\}\}/g, "X");
        const file = await Deno.makeTempFile({ suffix: ".sh" });
        try {
          await Deno.writeTextFile(file, script);
          const where = `${name}.yml ${jobName}: ${step.name ?? step.run}`;
          const syntax = await run("bash", ["-n", file]);
          assert.equal(syntax.code, 0, `${where}\n${syntax.stderr}`);
          const lint = await run("shellcheck", ["-s", "bash", file]);
          assert.equal(lint.code, 0, `${where}\n${lint.stdout}`);
          checked++;
        } finally {
          await Deno.remove(file);
        }
      }
    }
  }
  assert.ok(checked >= 6, `checked ${checked} steps`);
});
