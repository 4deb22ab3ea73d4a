/**
 * `mcp-server-router proxy` refuses bad command lines and configuration
 * files with one message naming the file, line and column, server entry
 * or field, and exit code 2, run as a real process.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../lib/config/errors.ts";
import { parseProxyConfig } from "../lib/proxy/config_file.ts";
import { guardLists } from "../lib/http/guard_settings.ts";
import { PROXY_GUARD_NAMES } from "../lib/proxy/http_app.ts";
import { runCli } from "./helpers/mcp.ts";

async function withConfig(text: string, fn: (file: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "proxy-config-" });
  try {
    await Deno.writeTextFile(`${dir}/proxy.json`, text);
    await fn(`${dir}/proxy.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const GOOD_ENTRY = { command: "mcp-server-router", args: [] };

/** Each case: config text, extra flags, env, and what stderr must say. */
const CASES: {
  name: string;
  text?: string;
  flags?: string[];
  env?: Record<string, string>;
  says: RegExp[];
  /** Also run the real CLI (the others are checked in-process, to keep the suite fast). */
  cli?: boolean;
}[] = [
  {
    name: "invalid JSON names the file, line and column",
    text: '{\n  "mcpServers": {\n    "router": {"command": "x",}\n  }\n}\n',
    says: [/proxy\.json: invalid JSON at line 3 column 31/],
    cli: true,
  },
  {
    name: "JSON error without a position in V8's message still gets one",
    text: '{"mcpServers": tru}',
    says: [/invalid JSON at line 1 column 1[5-9]/],
  },
  {
    name: "missing mcpServers",
    text: '{"servers": {}}',
    says: [/"mcpServers" is missing/],
  },
  {
    name: "empty mcpServers",
    text: '{"mcpServers": {}}',
    says: [/"mcpServers" is empty/],
  },
  {
    name: "args must be strings; the value is not echoed",
    text: JSON.stringify({ mcpServers: { router: { command: "x", args: ["--port", 22] } } }),
    says: [/server "router" field "args\[1\]" must be a string/],
  },
  {
    name: "env values must be strings; a secret value is not echoed",
    text: JSON.stringify({ mcpServers: { r: { command: "x", env: { ROUTER_PASSWORD: 987654 } } } }),
    says: [/server "r" field "env\.ROUTER_PASSWORD" must be a string/],
    cli: true,
  },
  {
    name: "a typo'd field is named",
    text: JSON.stringify({ mcpServers: { router: { command: "x", arg: [] } } }),
    says: [/server "router" field "arg" is not allowed/],
  },
  {
    name: "missing command",
    text: JSON.stringify({ mcpServers: { router: { args: [] } } }),
    says: [/server "router" field "command" must be a non-empty string/],
  },
  {
    name: "unknown type",
    text: JSON.stringify({ mcpServers: { r: { type: "websocket", url: "ws://x" } } }),
    says: [/server "r" field "type" must be "stdio", "streamable-http" or "sse"/],
  },
  {
    name: "bad url",
    text: JSON.stringify({ mcpServers: { r: { type: "sse", url: "not a url" } } }),
    says: [/server "r" field "url" is not a valid URL/],
  },
  {
    name: "reserved server name",
    text: JSON.stringify({ mcpServers: { docs: GOOD_ENTRY } }),
    says: [/server "docs" has a reserved name/],
  },
  {
    name: "bad server name",
    text: JSON.stringify({ mcpServers: { "my router": GOOD_ENTRY } }),
    says: [/server "my router" has a bad name/],
  },
  {
    name: "bad --port",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--port", "70000"],
    says: [/--port: expected a whole number from 0 to 65535/],
    cli: true,
  },
  {
    name: "--strict-auth without a key",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--strict-auth"],
    says: [/--strict-auth needs keys/],
    cli: true,
  },
  {
    name: "empty key from the environment",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    env: { ROUTER_PROXY_API_KEY: " " },
    says: [/ROUTER_PROXY_API_KEY is empty/],
    cli: true,
  },
  {
    name: "an allowed origin with a path",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--allowed-origins", "http://localhost:3000/app"],
    says: [
      /invalid value for --allowed-origins: "http:\/\/localhost:3000\/app" is not an origin; use scheme:\/\/host/,
    ],
  },
  {
    name: "the old and the new name of the origins flag together",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--cors-allow-origins", "http://a.example", "--allowed-origins", "http://b.example"],
    says: [
      /--cors-allow-origins is the old name of --allowed-origins; give only --allowed-origins/,
    ],
    cli: true,
  },
  {
    name: "an allowed host with a scheme",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--allowed-hosts", "localhost,https://proxy.example.com"],
    says: [
      /invalid value for --allowed-hosts: "https:\/\/proxy\.example\.com" is not a host entry/,
    ],
    cli: true,
  },
  {
    name: "listening beyond loopback without a key needs --insecure-no-auth",
    text: JSON.stringify({ mcpServers: { r: GOOD_ENTRY } }),
    flags: ["--host", "0.0.0.0"],
    says: [
      /--host 0\.0\.0\.0 takes connections from other machines, but no API key is set/,
      /set ROUTER_PROXY_API_KEY \(or --api-key\), listen on --host 127\.0\.0\.1, or pass --insecure-no-auth/,
    ],
    cli: true,
  },
  {
    name: "a cwd that is not a directory names the entry, the field and the file",
    text: JSON.stringify({
      mcpServers: { router: { command: "deno", cwd: "/nonexistent/dir" } },
    }),
    says: [
      /proxy config \S+proxy\.json: server "router" field "cwd" names \/nonexistent\/dir, which is not a directory; create it or fix "cwd"/,
    ],
    cli: true,
  },
];

Deno.test("proxy CLI: bad configuration exits 2 with a message naming the problem", async (t) => {
  const results = await Promise.all(
    CASES.filter((c) => c.cli).map((c) =>
      withConfig(c.text ?? "{}", async (file) => {
        const out = await runCli(["proxy", "--config", file, ...(c.flags ?? [])], c.env ?? {});
        (c as { out?: unknown }).out = out;
      }).then(() => c as typeof c & { out: Awaited<ReturnType<typeof runCli>> })
    ),
  );
  for (const c of results) {
    await t.step(c.name, () => {
      assert.equal(c.out.code, 2, `exit code; stderr: ${c.out.stderr}`);
      for (const re of c.says) assert.match(c.out.stderr, re);
      assert.doesNotMatch(c.out.stderr, /987654/, "secret values are never echoed");
      assert.doesNotMatch(c.out.stderr, /\n\s+at /, "no stack trace");
      assert.equal(c.out.stdout, "", "stdout stays empty");
    });
  }
});

Deno.test("proxy config: every file mistake is a ConfigError naming the field", async (t) => {
  for (const c of CASES.filter((c) => !c.cli)) {
    await t.step(c.name, () => {
      const run = () =>
        c.flags?.[0] === "--allowed-origins"
          ? guardLists([], [c.flags[1]], PROXY_GUARD_NAMES)
          : parseProxyConfig(c.text!, "/etc/proxy.json");
      assert.throws(run, (err: unknown) => {
        assert.ok(err instanceof ConfigError, String(err));
        for (const re of c.says) assert.match(err.message, re);
        return true;
      });
    });
  }
  await t.step("a good file gives the servers in order, with defaults", () => {
    const specs = parseProxyConfig(
      JSON.stringify({
        mcpServers: {
          router: { command: "mcp-server-router", env: { ROUTER_PORT: "22" } },
          remote: { type: "sse", url: "http://10.0.0.5:3000/sse", headers: { A: "b" } },
        },
      }),
      "x.json",
    );
    assert.deepEqual(specs, [
      {
        name: "router",
        kind: "stdio",
        command: "mcp-server-router",
        args: [],
        env: { ROUTER_PORT: "22" },
      },
      { name: "remote", kind: "sse", url: "http://10.0.0.5:3000/sse", headers: { A: "b" } },
    ]);
  });
});

Deno.test("proxy CLI: a missing config file or flag is named", async () => {
  const missing = await runCli(["proxy", "--config", "/nonexistent/proxy.json"]);
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /proxy config \/nonexistent\/proxy\.json: cannot read it \(no such file\)/,
  );
  const noFlag = await runCli(["proxy"]);
  assert.equal(noFlag.code, 2);
  assert.match(noFlag.stderr, /required option '--config <file>' not specified/);
});

Deno.test("proxy CLI: --help lists the options and an example", async () => {
  const [out, word] = await Promise.all([
    runCli(["proxy", "--help"]),
    runCli(["proxy", "help"]),
  ]);
  assert.equal(out.code, 0);
  assert.equal(out.stderr, "", "help goes to stdout");
  assert.equal(word.code, 0, word.stderr);
  assert.equal(word.stdout, out.stdout, "proxy help is proxy --help");
  for (
    const flag of [
      "--config",
      "--port",
      "--host",
      "--api-key",
      "--strict-auth",
      "--allowed-hosts",
      "--allowed-origins",
      "--insecure-no-auth",
      "--tool-timeout",
    ]
  ) {
    assert.ok(out.stdout.includes(flag), `help mentions ${flag}`);
  }
  assert.match(out.stdout, /ROUTER_PROXY_API_KEY/);
  assert.match(out.stdout, /mcpServers/);
});
