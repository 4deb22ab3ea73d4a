/**
 * Host and Origin protection (DNS rebinding), row by row, as raw HTTP
 * requests: 421 with the exact body for a bad or missing Host, 403 for a bad
 * Origin, wildcard ports, case, IPv6, a lone `*`, the local-only defaults,
 * and /health under a bad Host. Plus the start-up notices as real processes.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../lib/config/errors.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { LOCAL_ONLY } from "../lib/server/http/serve.ts";
import {
  INITIALIZE,
  MCP_POST,
  rawRequest,
  simArgs,
  spawnHttp,
  startInProcess,
} from "./http_helpers.ts";

type Row = [host: string | null, expected: number];

async function checkHosts(port: number, rows: Row[], path = "/mcp") {
  for (const [host, expected] of rows) {
    const headers: [string, string][] = host === null
      ? [...MCP_POST]
      : [["Host", host], ...MCP_POST];
    const res = await rawRequest(port, "POST", path, headers, INITIALIZE);
    assert.equal(res.status, expected, `Host ${host ?? "(none)"} on ${path}`);
    if (expected === 421) {
      assert.equal(
        res.body,
        host === null
          ? "Invalid Host header: the request has none; send the host name of this server"
          : `Invalid Host header: ${host} is not allowed; add it with --mcp.allowed-hosts`,
      );
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    }
  }
}

async function checkOrigins(port: number, rows: [origin: string, expected: number][]) {
  for (const [origin, expected] of rows) {
    const headers: [string, string][] = [
      ["Host", `localhost:${port}`],
      ["Origin", origin],
      ...MCP_POST,
    ];
    const res = await rawRequest(port, "POST", "/mcp", headers, INITIALIZE);
    assert.equal(res.status, expected, `Origin ${origin}`);
    if (expected === 403) assert.equal(res.body, refusedOrigin(origin));
  }
}

function refusedOrigin(origin: string): string {
  return `Invalid Origin header: ${origin} is not allowed; add it with --mcp.allowed-origins`;
}

Deno.test("http guard: default lists allow local access only", async (t) => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim);
  const port = srv.http.addr.port;
  try {
    await t.step(
      "local Host names with or without a port pass; case does not matter",
      () =>
        checkHosts(port, [
          [`localhost:${port}`, 200],
          ["localhost", 200],
          [`127.0.0.1:${port}`, 200],
          ["127.0.0.1", 200],
          [`[::1]:${port}`, 200],
          ["[::1]", 200],
          [`LocalHost:${port}`, 200],
        ]),
    );
    await t.step("other or missing Host gets 421 Invalid Host header", () =>
      checkHosts(port, [
        ["evil.com", 421],
        [`evil.com:${port}`, 421],
        ["localhost.evil.com", 421],
        ["127.0.0.1.nip.io", 421],
        [`192.168.88.2:${port}`, 421],
        ["[::2]", 421],
        [null, 421],
      ]));
    await t.step("GET and DELETE are guarded too", async () => {
      for (const method of ["GET", "DELETE"]) {
        const res = await rawRequest(port, method, "/mcp", [["Host", "evil.com"]]);
        assert.equal(res.status, 421);
        assert.match(res.body, /^Invalid Host header: evil\.com is not allowed/);
      }
    });
    await t.step("/health answers under a bad or missing Host", async () => {
      for (const headers of [[["Host", "evil.com"]], []] as [string, string][][]) {
        const res = await rawRequest(port, "GET", "/health", headers);
        assert.equal(res.status, 200);
        assert.equal(res.body, "OK");
        assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
      }
    });
    await t.step("local http origins on any port pass; others get 403", () =>
      checkOrigins(port, [
        ["http://localhost:5173", 200],
        ["http://localhost", 200],
        ["http://127.0.0.1:8080", 200],
        ["http://[::1]:3000", 200],
        ["http://LOCALHOST:1", 200],
        ["http://evil.com", 403],
        ["https://evil.com", 403],
        ["http://localhost.evil.com", 403],
        ["https://localhost", 403],
        ["null", 403],
        ["file://", 403],
      ]));
    await t.step("no Origin passes", () => checkHosts(port, [[`localhost:${port}`, 200]]));
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http guard: configured hosts and origins", async (t) => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, {
    allowedHosts: [
      "mcp.example.com",
      "api.example.com:8443",
      "wild.example.com:*",
      "[::1]:*",
      "Mixed.Example.COM",
      "::2",
    ],
    allowedOrigins: ["https://app.example.com", "http://dev.example.com:*", "http://localhost:*"],
    // Host names other than loopback ones need credentials, or this (the Host check is the test).
    auth: { ...LOCAL_ONLY, allowUnauthenticated: true },
  });
  const port = srv.http.addr.port;
  try {
    await t.step("host matches without a port only", () =>
      checkHosts(port, [
        ["mcp.example.com", 200],
        ["MCP.Example.Com", 200],
        ["mixed.example.com", 200],
        ["mcp.example.com:8000", 421],
      ]));
    await t.step("host:port matches that port only", () =>
      checkHosts(port, [
        ["api.example.com:8443", 200],
        ["api.example.com:8444", 421],
        ["api.example.com", 421],
      ]));
    await t.step("host:* matches any port or none; IPv6 works", () =>
      checkHosts(port, [
        ["wild.example.com:1234", 200],
        ["wild.example.com", 200],
        [`[::1]:${port}`, 200],
        ["[::1]", 200],
        ["[::2]", 200],
        ["[::2]:80", 421],
      ]));
    await t.step("no suffix, prefix or default matches", () =>
      checkHosts(port, [
        ["evil.com", 421],
        ["mcp.example.com.evil.com", 421],
        ["evilmcp.example.com", 421],
        ["sub.mcp.example.com", 421],
        ["localhost", 421],
        [`127.0.0.1:${port}`, 421],
        [null, 421],
      ]));
    await t.step("origins: exact scheme and host, default port, port wildcards", async () => {
      for (
        const [origin, expected] of [
          ["https://app.example.com", 200],
          ["https://APP.example.com", 200],
          ["https://app.example.com:443", 200],
          ["https://app.example.com:8443", 403],
          ["http://app.example.com", 403],
          ["https://app.example.com.evil.com", 403],
          ["http://dev.example.com:3000", 200],
          ["http://dev.example.com", 200],
          ["http://127.0.0.1:3000", 403],
        ] as [string, number][]
      ) {
        const res = await rawRequest(port, "POST", "/mcp", [
          ["Host", "mcp.example.com"],
          ["Origin", origin],
          ...MCP_POST,
        ], INITIALIZE);
        assert.equal(res.status, expected, `Origin ${origin}`);
        if (expected === 403) assert.equal(res.body, refusedOrigin(origin));
      }
    });
    await t.step("a page served under an allowed Host may call its own origin", async () => {
      for (
        const [host, origin, expected] of [
          ["mcp.example.com", "https://mcp.example.com", 200],
          ["mcp.example.com", "http://mcp.example.com", 200],
          ["api.example.com:8443", "https://api.example.com:8443", 200],
          ["mcp.example.com", "https://mcp.example.com:8443", 403],
          ["api.example.com:8443", "https://api.example.com", 403],
          ["mcp.example.com", "https://other.example.com", 403],
        ] as [string, string, number][]
      ) {
        const res = await rawRequest(port, "POST", "/mcp", [
          ["Host", host],
          ["Origin", origin],
          ...MCP_POST,
        ], INITIALIZE);
        assert.equal(res.status, expected, `Host ${host}, Origin ${origin}`);
      }
    });
    await t.step("an allowed origin gets CORS headers and its preflight succeeds", async () => {
      const pre = await rawRequest(port, "OPTIONS", "/mcp", [
        ["Host", "mcp.example.com"],
        ["Origin", "https://app.example.com"],
        ["Access-Control-Request-Method", "POST"],
      ]);
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), "https://app.example.com");
      const res = await rawRequest(port, "POST", "/mcp", [
        ["Host", "mcp.example.com"],
        ["Origin", "https://app.example.com"],
        ...MCP_POST,
      ], INITIALIZE);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id/);
      const bad = await rawRequest(port, "OPTIONS", "/mcp", [
        ["Host", "mcp.example.com"],
        ["Origin", "https://evil.com"],
        ["Access-Control-Request-Method", "POST"],
      ]);
      assert.equal(bad.status, 403);
    });
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http guard: a lone * turns the Host check off", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, {
    allowedHosts: ["*"],
    auth: { ...LOCAL_ONLY, allowUnauthenticated: true },
  });
  try {
    await checkHosts(srv.http.addr.port, [["evil.com", 200], ["anything:1", 200], [null, 200]]);
    await checkOrigins(srv.http.addr.port, [["http://evil.com", 403]]);
    // With the Host check off, a page's own origin proves nothing.
    const res = await rawRequest(srv.http.addr.port, "POST", "/mcp", [
      ["Host", "evil.com"],
      ["Origin", "http://evil.com"],
      ...MCP_POST,
    ], INITIALIZE);
    assert.equal(res.status, 403);
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http guard: the SSE endpoints are guarded the same way", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, { transport: "sse" });
  const port = srv.http.addr.port;
  try {
    for (const path of ["/sse", "/messages?sessionId=x"]) {
      const method = path === "/sse" ? "GET" : "POST";
      for (const headers of [[["Host", "evil.com"]], []] as [string, string][][]) {
        const res = await rawRequest(port, method, path, headers);
        assert.equal(res.status, 421, `${path} ${JSON.stringify(headers)}`);
        assert.match(res.body, /^Invalid Host header: /);
      }
      const res = await rawRequest(port, method, path, [
        ["Host", "localhost"],
        ["Origin", "http://evil.com"],
      ]);
      assert.equal(res.status, 403);
      assert.equal(res.body, refusedOrigin("http://evil.com"));
    }
    const health = await rawRequest(port, "GET", "/health", [["Host", "evil.com"]]);
    assert.equal(health.status, 200);
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http guard: listening on IPv6 loopback", async () => {
  const sim = await startSimulator();
  const srv = await startInProcess(sim, { hostname: "::1" });
  try {
    const conn = await Deno.connect({ hostname: "::1", port: srv.http.addr.port });
    conn.close();
    const res = await fetch(`http://[::1]:${srv.http.addr.port}/mcp`, {
      method: "POST",
      headers: Object.fromEntries(MCP_POST),
      body: INITIALIZE,
    });
    await res.body?.cancel();
    assert.equal(res.status, 200, "Host [::1]:port is local");
  } finally {
    await srv.close();
    await sim.close();
  }
});

Deno.test("http guard: malformed allow-list entries are configuration errors", async () => {
  const sim = await startSimulator();
  try {
    for (
      const opts of [
        { allowedHosts: ["https://mcp.example.com"] },
        { allowedHosts: ["mcp.example.com/mcp"] },
        { allowedHosts: ["mcp.example.com:99999"] },
        { allowedOrigins: ["app.example.com"] },
        { allowedOrigins: ["https://app.example.com/path"] },
      ]
    ) {
      await assert.rejects(
        () => startInProcess(sim, opts),
        (err: Error) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.match(err.message, /ROUTER_MCP__ALLOWED_(HOSTS|ORIGINS)/);
          return true;
        },
      );
    }
  } finally {
    await sim.close();
  }
});

Deno.test("http guard: start-up notices on stderr (real processes)", async () => {
  const sim = await startSimulator();
  const procs = await Promise.all([
    spawnHttp("streamable-http", [...simArgs(sim), "--mcp.host", "0.0.0.0"]),
    spawnHttp("streamable-http", [...simArgs(sim), "--mcp.allow-unauthenticated"], {
      ROUTER_MCP__ALLOWED_HOSTS: "*",
    }),
    spawnHttp("streamable-http", simArgs(sim)),
    spawnHttp("streamable-http", [...simArgs(sim), "--mcp.host", "0.0.0.0"], {
      ROUTER_MCP__ALLOWED_HOSTS: "mcp.example.com",
    }),
  ]);
  try {
    const [open, star, local, configured] = procs.map((p) => p.stderr());
    const need = /remote clients and reverse proxies need ROUTER_MCP__ALLOWED_HOSTS/g;
    assert.equal(open.match(need)?.length, 1, open);
    assert.doesNotMatch(local, need);
    assert.doesNotMatch(configured, need);
    assert.match(star, /warning: .*ROUTER_MCP__ALLOWED_HOSTS contains \*: the Host check is off/);
    assert.doesNotMatch(local, /Host check is off/);
    const res = await rawRequest(
      procs[1].port,
      "POST",
      "/mcp",
      [["Host", "evil.com"], ...MCP_POST],
      INITIALIZE,
    );
    assert.equal(res.status, 200, "* lets any Host through");
  } finally {
    for (const p of procs) assert.equal(await p.stop(), 0);
    await sim.close();
  }
});

Deno.test("http guard: a bad allow-list exits 2 naming the variable", async () => {
  const { runCli } = await import("./helpers/mcp.ts");
  const out = await runCli([
    "--host",
    "127.0.0.1",
    "--mcp.transport",
    "streamable-http",
    "--mcp.port",
    "0",
  ], {
    ROUTER_MCP__ALLOWED_HOSTS: "https://mcp.example.com",
  });
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, /ROUTER_MCP__ALLOWED_HOSTS/);
  assert.doesNotMatch(out.stderr, /\n\s+at /, "no stack trace");
});
