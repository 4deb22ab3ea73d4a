/**
 * What `initialize` does not need is not loaded before it: the modules a
 * server start evaluates (`main.ts`, then `lib/server/run.ts`) leave out the
 * catalogue (built once `initialize` is answered), the devices with their
 * SSH pool and RouterOS clients (built with it), ssh2 (loaded with the
 * first SSH connection), the HTTP transports, the metrics (loaded only with
 * `--metrics` or `--metrics-port`), the SDK's own McpServer and
 * transports, the REST proxy with its OpenAPI and Swagger parts, and the
 * simulator, which are imported dynamically where they are used; and the
 * subcommands do not load the MCP server at all. Read from `deno info --json`.
 */
import assert from "node:assert/strict";
import { TOOLSETS } from "../lib/tools/tool.ts";

interface Dependency {
  specifier: string;
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface ModuleInfo {
  specifier: string;
  dependencies?: Dependency[];
}

/** Every module reached from `root` through static (not type-only) imports. */
async function staticGraph(root: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: ModuleInfo[];
  };
  const byName = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of byName.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) walk(dep.code.specifier);
    }
  };
  walk(info.roots[0]);
  return seen;
}

Deno.test("startup: a server start loads no catalogue, SSH pool, ssh2, HTTP transport, proxy, OpenAPI, Swagger or simulator", async () => {
  // What a server start evaluates before `initialize`: main.ts, and the
  // server (lib/server/run.ts) that main.ts imports once it serves.
  const graph = [
    ...await staticGraph(new URL("../main.ts", import.meta.url).href),
    ...await staticGraph(new URL("../lib/server/run.ts", import.meta.url).href),
  ];
  const lazy: [string, RegExp][] = [
    ["the catalogue", /\/lib\/tools\/(catalogue\.ts|menu_tools\/)/],
    ["a toolset's tools", new RegExp(`/lib/tools/(${TOOLSETS.join("|").replaceAll("-", "_")})/`)],
    ["the RouterOS schema", /\/lib\/routeros\/schema\//],
    ["ssh2", /^npm:ssh2@/],
    [
      "the devices, their SSH pool and RouterOS clients",
      /\/lib\/(server\/devices|ssh\/pool|routeros\/client)\.ts$/,
    ],
    ["the SDK's McpServer and transports", /sdk@[^/]+\/server\/(mcp|stdio|webStandard.*)\.js$/],
    ["the HTTP transports", /\/lib\/server\/http\//],
    ["the metrics and prom-client", /\/lib\/server\/metrics|prom-client@/],
    ["the REST proxy", /\/lib\/proxy\//],
    ["the simulator", /\/lib\/sim\//],
    ["Swagger UI", /swagger-ui-dist/],
    ["the OpenAPI validator", /openapi-schema-validator/],
  ];
  for (const [what, pattern] of lazy) {
    const hits = graph.filter((s) => pattern.test(s));
    assert.deepEqual(hits, [], `${what} is imported statically at start-up`);
  }
  // The walk itself works: the server's own modules are there.
  assert.ok(graph.some((s) => s.endsWith("/lib/server/mcp.ts")));
});

Deno.test("startup: the subcommands (healthcheck, audit, sim, proxy) do not load the MCP server", async () => {
  const graph = [...await staticGraph(new URL("../main.ts", import.meta.url).href)];
  for (
    const pattern of [
      /\/lib\/server\/run\.ts$/,
      /@modelcontextprotocol\/sdk/,
      /\/lib\/tools\/catalogue\.ts$/,
    ]
  ) {
    assert.deepEqual(graph.filter((s) => pattern.test(s)), [], `${pattern} at every start`);
  }
  assert.ok(
    graph.some((s) => s.endsWith("/lib/config/load.ts")),
    "the walk reached main.ts's imports",
  );
});
