/**
 * The REST proxy's guards, as real HTTP requests (raw HTTP/1.1 over TCP, so
 * Host can be anything) against real proxy processes and their children:
 *
 * - DNS rebinding: with no key on 127.0.0.1, a request naming a foreign
 *   Host gets 421 and one from a foreign Origin gets 403, and neither
 *   changes the router (the same request from a local client does);
 * - configured `--allowed-hosts` / `--allowed-origins` replace the local
 *   defaults, allowed pages get CORS, a page may call its own origin;
 * - `--insecure-no-auth` on 0.0.0.0 warns with the real port (`--port 0`);
 * - a busy `--port` is one sentence naming `--port`.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { rawRequest } from "./http_helpers.ts";
import { runCli } from "./helpers/mcp.ts";
import { routerEntry, startEchoServer, startProxy, waitFor } from "./proxy_helpers.ts";

const JSON_POST: [string, string][] = [["Content-Type", "application/json"]];

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function identity(sim: { run(c: string): { output: string } }): string {
  return /name: (\S+)/.exec(sim.run("/system identity print").output)?.[1] ?? "";
}

Deno.test("proxy guard: DNS rebinding is refused before anything reaches the router", async (t) => {
  const sim = await startSimulator();
  const proxy = await startProxy({ mcpServers: { router: routerEntry(sim) } });
  const port = portOf(proxy.url);
  const rename = (headers: [string, string][], name: string) =>
    rawRequest(
      port,
      "POST",
      "/router/router_update_identity",
      [...headers, ...JSON_POST],
      JSON.stringify({ name }),
    );
  try {
    await t.step("a foreign Host gets 421 naming the host and --allowed-hosts", async () => {
      const res = await rename([["Host", `rebind.example:${port}`]], "pwned-by-host");
      assert.equal(res.status, 421, res.body);
      const json = JSON.parse(res.body);
      assert.equal(json.error.code, "host_not_allowed");
      assert.equal(
        json.error.message,
        `Invalid Host header: rebind.example:${port} is not allowed; add it with --allowed-hosts`,
      );
      const none = await rename([], "pwned-by-no-host");
      assert.equal(none.status, 421);
      assert.equal(identity(sim), "MikroTik");
    });

    await t.step("a foreign Origin gets 403 naming the origin and --allowed-origins", async () => {
      for (const origin of ["http://rebind.example", `http://rebind.example:${port}`, "null"]) {
        const res = await rename(
          [["Host", `127.0.0.1:${port}`], ["Origin", origin]],
          "pwned-by-origin",
        );
        assert.equal(res.status, 403, `${origin}: ${res.body}`);
        const json = JSON.parse(res.body);
        assert.equal(json.error.code, "origin_not_allowed");
        assert.equal(
          json.error.message,
          `Invalid Origin header: ${origin} is not allowed; add it with --allowed-origins`,
        );
        assert.equal(res.headers.get("access-control-allow-origin"), null);
      }
      assert.equal(identity(sim), "MikroTik");
    });

    await t.step("every path is guarded: docs, OpenAPI, tool lists, health", async () => {
      for (const path of ["/docs", "/openapi.json", "/router", "/router/openapi.json", "/health"]) {
        const res = await rawRequest(port, "GET", path, [["Host", "rebind.example"]]);
        assert.equal(res.status, 421, path);
      }
    });

    await t.step("local clients and local pages pass; local pages get CORS", async () => {
      const pre = await rawRequest(port, "OPTIONS", "/router/router_update_identity", [
        ["Host", `localhost:${port}`],
        ["Origin", "http://localhost:5173"],
        ["Access-Control-Request-Method", "POST"],
      ]);
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), "http://localhost:5173");
      const page = await rename(
        [["Host", `localhost:${port}`], ["Origin", "http://localhost:5173"]],
        "renamed-by-page",
      );
      assert.equal(page.status, 200, page.body);
      assert.equal(page.headers.get("access-control-allow-origin"), "http://localhost:5173");
      assert.equal(identity(sim), "renamed-by-page");
      const cli = await rename([["Host", `127.0.0.1:${port}`]], "renamed-by-cli");
      assert.equal(cli.status, 200, cli.body);
      assert.equal(identity(sim), "renamed-by-cli");
    });
  } finally {
    assert.equal(await proxy.stop(), 0, proxy.stderr());
    await sim.close();
  }
});

Deno.test("proxy guard: configured lists replace the local defaults", async () => {
  const echo = await startEchoServer();
  const proxy = await startProxy(
    { mcpServers: { echo: { type: "streamable-http", url: echo.url } } },
    [
      "--allowed-hosts",
      "proxy.example:*",
      "--allowed-origins",
      "https://app.example",
      "--api-key",
      "k-123",
    ],
  );
  const port = portOf(proxy.url);
  const call = (headers: [string, string][]) =>
    rawRequest(port, "POST", "/echo/echo", [
      ...headers,
      ["Authorization", "Bearer k-123"],
      ...JSON_POST,
    ], '{"text": "hi"}');
  try {
    assert.equal((await call([["Host", `proxy.example:${port}`]])).status, 200);
    assert.equal((await call([["Host", "proxy.example"]])).status, 200);
    const local = await call([["Host", `localhost:${port}`]]);
    assert.equal(local.status, 421, "a set list replaces the local default");
    const app = await call([["Host", "proxy.example"], ["Origin", "https://app.example"]]);
    assert.equal(app.status, 200);
    assert.equal(app.headers.get("access-control-allow-origin"), "https://app.example");
    const own = await call([["Host", `proxy.example:${port}`], [
      "Origin",
      `http://proxy.example:${port}`,
    ]]);
    assert.equal(own.status, 200, "Swagger UI served by the proxy calls the proxy");
    const localPage = await call([["Host", "proxy.example"], ["Origin", "http://localhost:3000"]]);
    assert.equal(localPage.status, 403);
    const wrongKey = await rawRequest(port, "POST", "/echo/echo", [
      ["Host", "proxy.example"],
      ["Origin", "https://app.example"],
      ["Authorization", "Bearer nope"],
      ...JSON_POST,
    ], "{}");
    assert.equal(wrongKey.status, 401);
    assert.equal(
      wrongKey.headers.get("access-control-allow-origin"),
      "https://app.example",
      "an allowed page can read the refusal",
    );
  } finally {
    assert.equal(await proxy.stop(), 0, proxy.stderr());
    await echo.close();
  }
});

Deno.test("proxy guard: --insecure-no-auth on 0.0.0.0 names the real port", async () => {
  const echo = await startEchoServer();
  const proxy = await startProxy(
    { mcpServers: { echo: { type: "streamable-http", url: echo.url } } },
    ["--host", "0.0.0.0", "--insecure-no-auth"],
  );
  try {
    const port = portOf(proxy.url);
    assert.notEqual(port, 0);
    // The warning follows the "listening" line the helper waited for.
    const log = await waitFor(
      "the --insecure-no-auth warning",
      () => /insecure-no-auth: no API key/.test(proxy.stderr()) ? proxy.stderr() : undefined,
      10_000,
    );
    assert.match(log, new RegExp(`proxy: listening on http://0\\.0\\.0\\.0:${port} `));
    assert.match(
      log,
      new RegExp(
        `warning: proxy: --insecure-no-auth: no API key, so anyone who can reach 0\\.0\\.0\\.0:${port} ` +
          "can call every tool",
      ),
    );
    assert.match(log, /only local clients are allowed .* need --allowed-hosts/);
    assert.doesNotMatch(log, /:0\b/, "no line names port 0");
  } finally {
    assert.equal(await proxy.stop(), 0, proxy.stderr());
    await echo.close();
  }
});

Deno.test("proxy guard: a busy --port is one sentence naming --port", async () => {
  const echo = await startEchoServer();
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dir = await Deno.makeTempDir({ prefix: "proxy-busy-" });
  try {
    const file = `${dir}/proxy.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({ mcpServers: { echo: { type: "streamable-http", url: echo.url } } }),
    );
    const out = await runCli(["proxy", "--config", file, "--port", String(busy.addr.port)]);
    assert.equal(out.code, 1, out.stderr);
    const errors = out.stderr.split("\n").filter((l) => / error: /.test(l));
    assert.deepEqual(errors, [
      `mcp-server-router error: proxy: cannot listen on 127.0.0.1:${busy.addr.port}: port ` +
      `${busy.addr.port} is already in use by another program; choose a free port with --port, ` +
      "or 0 to let the system pick one",
    ]);
  } finally {
    busy.close();
    await echo.close();
    await Deno.remove(dir, { recursive: true });
  }
});
