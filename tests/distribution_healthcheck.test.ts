/**
 * `mcp-server-router healthcheck`, the image's HEALTHCHECK, run as a real
 * process with exactly the permissions compiled into the binary: against the
 * real server started with the image's environment, and against small local
 * servers for every way a probe can fail.
 */
import assert from "node:assert/strict";
import {
  buildPermissions,
  logLines,
  MAIN,
  Proc,
  repoFile,
  runMain,
} from "./distribution_helpers.ts";

const FLAGS = await buildPermissions();

/** Serve `handler` on an ephemeral loopback port while `fn` runs. */
async function withServer(
  handler: (req: Request) => Response,
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

const health = (req: Request) => {
  const path = new URL(req.url).pathname;
  if (path === "/health") return new Response("OK", { headers: { "content-type": "text/plain" } });
  if (path === "/moved") return Response.redirect("http://127.0.0.1:1/health", 302);
  if (path === "/down") return new Response("starting", { status: 503 });
  return new Response("not found", { status: 404 });
};

Deno.test("healthcheck: exit 0 when the URL answers 200", async () => {
  await withServer(health, async (base) => {
    const r = await runMain(FLAGS, ["healthcheck", "--url", `${base}/health`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    const eq = await runMain(FLAGS, ["healthcheck", `--url=${base}/health`, "--timeout=2"]);
    assert.equal(eq.code, 0, eq.stderr);
  });
});

Deno.test("healthcheck: exit 1 and one stderr line for a status other than 200", async () => {
  await withServer(health, async (base) => {
    for (const [path, status] of [["/down", 503], ["/nope", 404], ["/moved", 302]] as const) {
      const r = await runMain(FLAGS, ["healthcheck", "--url", `${base}${path}`]);
      assert.equal(r.code, 1, `${path}: ${r.stderr}`);
      assert.deepEqual(logLines(r.stderr, "error"), [
        `mcp-server-router error: healthcheck: ${base}${path} answered HTTP ${status}, not 200`,
      ]);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
  });
});

Deno.test("healthcheck: exit 1 against a dead port", async () => {
  // Port 1 (tcpmux) on loopback: nothing listens there, and unlike a port just
  // freed by this test, no other process on the machine can grab it meanwhile.
  const r = await runMain(FLAGS, ["healthcheck", "--url", "http://127.0.0.1:1/health"]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /healthcheck: http:\/\/127\.0\.0\.1:1\/health failed: connection refused/);
});

Deno.test("healthcheck: exit 1 when the server accepts but never answers (--timeout)", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const r = await runMain(FLAGS, [
      "healthcheck",
      "--url",
      `http://127.0.0.1:${port}/health`,
      "--timeout",
      "0.3",
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /failed: no answer within 0\.3 s/);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const c of held) c.close();
  }
});

Deno.test("healthcheck: a proxy in the environment is not used for the probe", async () => {
  const dead = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const proxy = `http://127.0.0.1:${(dead.addr as Deno.NetAddr).port}`;
  dead.close();
  await withServer(health, async (base) => {
    const r = await runMain(FLAGS, ["healthcheck", "--url", `${base}/health`], {
      HTTP_PROXY: proxy,
      http_proxy: proxy,
      HTTPS_PROXY: proxy,
      ALL_PROXY: proxy,
    });
    assert.equal(r.code, 0, r.stderr);
  });
});

Deno.test("healthcheck: bad arguments exit 1 (Docker reserves 2) with one line; --help exits 0", async () => {
  const cases: [string[], RegExp][] = [
    [["--bogus"], /unknown argument "--bogus"/],
    [["--url"], /--url needs a value/],
    [["--url", "ftp://127.0.0.1/health"], /must be an http:\/\/ or https:\/\/ URL/],
    [["--url", "not a url"], /is not a URL/],
    [["--timeout", "0"], /expected a number of seconds/],
    [["--timeout", "soon"], /expected a number of seconds/],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(FLAGS, ["healthcheck", ...args]);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  const help = await runMain(FLAGS, ["healthcheck", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: mcp-server-router healthcheck/);
  assert.match(help.stdout, /http:\/\/127\.0\.0\.1:8000\/health/);
});

/** The image's ENV lines as a record (ROUTER_CONTAINER, transport, port). */
function imageEnv(): Record<string, string> {
  const dockerfile = repoFile("Dockerfile").replace(/\\\n/g, " ");
  const env: Record<string, string> = {};
  for (const [, line] of dockerfile.matchAll(/^ENV (.*)$/gm)) {
    for (const [, k, v] of line.matchAll(/(\w+)=(\S+)/g)) env[k] = v;
  }
  return env;
}

Deno.test("healthcheck: 0 against the real server started as the image starts it, 1 once it stopped", async () => {
  const env = imageEnv();
  assert.equal(env.ROUTER_CONTAINER, "1");
  assert.equal(env.ROUTER_MCP__TRANSPORT, "streamable-http");
  // The image listens on 0.0.0.0:8000; here an ephemeral loopback port (flags beat env).
  const server = new Proc(
    ["run", ...FLAGS, MAIN, "--mcp.host", "127.0.0.1", "--mcp.port", "0"],
    env,
  );
  let url = "";
  try {
    await server.waitFor(
      () => /listening on http:\/\/127\.0\.0\.1:\d+/.test(server.stderr),
      "the HTTP server",
    );
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.stderr)![1];
    url = `http://127.0.0.1:${port}/health`;
    const r = await runMain(FLAGS, ["healthcheck", "--url", url]);
    assert.equal(r.code, 0, r.stderr + server.stderr);
    assert.equal(r.stderr, "");
  } finally {
    assert.equal(await server.stop(), 0, server.stderr);
  }
  // Its port is free now (another process may take it, but it will not be our /health).
  const dead = await runMain(FLAGS, ["healthcheck", "--url", url]);
  assert.equal(dead.code, 1, dead.stderr);
});
