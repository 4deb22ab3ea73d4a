/**
 * Configuration through the real CLI: every setting's flag, environment
 * variable and default, the precedence rules, and one run per kind of bad
 * value (exit 2, one line, `--print-config` refusing what the server would).
 * The parsers' every case is unit-tested in tests/unit/config_settings.test.ts.
 */
import { expandHome, HOME_PATHS } from "../lib/config/local_paths.ts";
import assert from "node:assert/strict";
import { SETTINGS } from "../lib/config/settings.ts";
import { runCli } from "./helpers/mcp.ts";

/** Two valid raw values per setting (flag value, environment value) and their parsed forms. */
const SAMPLES: Record<string, [string, string, unknown, unknown]> = {
  "host": ["10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.2"],
  "username": ["ops", "netadmin", "ops", "netadmin"],
  "password": ["pw-flag", "pw-env", "********", "********"],
  "key-filename": ["/k/flag", "/k/env", "/k/flag", "/k/env"],
  "key-passphrase": ["pp-flag", "pp-env", "********", "********"],
  "port": ["2222", "2200", 2222, 2200],
  "jump": ["ops@10.0.0.9", "ops@10.0.0.8:2200", "ops@10.0.0.9:22", "ops@10.0.0.8:2200"],
  "jump-key-filename": ["/k/jflag", "/k/jenv", "/k/jflag", "/k/jenv"],
  "jump-key-passphrase": ["jp-flag", "jp-env", "********", "********"],
  "mcp.transport": ["sse", "streamable-http", "sse", "streamable-http"],
  "mcp.host": ["127.0.0.1", "::1", "127.0.0.1", "::1"],
  "mcp.port": ["9000", "9001", 9000, 9001],
  "metrics-port": ["9464", "9465", 9464, 9465],
  "metrics-host": ["127.0.0.1", "::1", "127.0.0.1", "::1"],
  "mcp.allowed-hosts": ["a.example,b.example:*", "c.example", ["a.example", "b.example:*"], [
    "c.example",
  ]],
  "mcp.allowed-origins": ["https://a.example", "https://b.example:*", ["https://a.example"], [
    "https://b.example:*",
  ]],
  "mcp.session-timeout": ["60", "120", 60, 120],
  "mcp.max-sessions": ["10", "20", 10, 20],
  "mcp.max-sessions-per-principal": ["5", "6", 5, 6],
  "mcp.api-keys-file": ["/k/flag.yaml", "/k/env.yaml", "/k/flag.yaml", "/k/env.yaml"],
  "mcp.oauth-issuer": ["https://a.example", "https://b.example", ["https://a.example"], [
    "https://b.example",
  ]],
  "mcp.oauth-resource": [
    "https://m.example/mcp",
    "https://n.example/mcp",
    "https://m.example/mcp",
    "https://n.example/mcp",
  ],
  "mcp.oauth-jwks-url": [
    "https://a.example/j",
    "https://b.example/j",
    "https://a.example/j",
    "https://b.example/j",
  ],
  "mcp.oauth-scopes": ["r,o,a", "x,y,z", ["r", "o", "a"], ["x", "y", "z"]],
  "mcp.header-timeout": ["5", "6", 5, 6],
  "mcp.body-timeout": ["10", "20", 10, 20],
  "mcp.max-connections-per-peer": ["8", "16", 8, 16],
  "inventory-file": ["", "", undefined, undefined],
  "inventory": ["", "", undefined, undefined],
  "connect-timeout": ["5", "7.5", 5, 7.5],
  "command-timeout": ["20", "45", 20, 45],
  "known-hosts": ["/kh/flag", "/kh/env", "/kh/flag", "/kh/env"],
  "host-key-policy": ["strict", "off", "strict", "off"],
  "max-channels": ["2", "8", 2, 8],
  "keepalive": ["0", "30", 0, 30],
  "idle-timeout": ["60", "600", 60, 600],
  "max-dialing": ["4", "64", 4, 64],
  "max-output": ["65536", "1048576", 65536, 1048576],
  "toolsets": ["ip,dns", "firewall", ["ip", "dns"], ["firewall"]],
  "audit-log": ["/a/flag.log", "/a/env.log", "/a/flag.log", "/a/env.log"],
  "audit-key-file": ["/a/flag.key", "/a/env.key", "/a/flag.key", "/a/env.key"],
  "state-dir": ["/s/flag", "/s/env", "/s/flag", "/s/env"],
  "files-dir": ["/f/flag", "/f/env", "/f/flag", "/f/env"],
  "log-level": ["debug", "warning", "debug", "warning"],
  "simulate-version": ["7.12.2", "6.49.13", "7.12.2", "6.49.13"],
};
/** Switches: set by the bare flag, or by the variable. */
const SWITCH_ENV = "1";

const valued = SETTINGS.filter((s) => s.arg && SAMPLES[s.name]?.[0] !== "");
const switches = SETTINGS.filter((s) => !s.arg && s.name !== "simulate");

async function printConfig(args: string[], env: Record<string, string> = {}) {
  const r = await runCli([...args, "--print-config"], env);
  assert.equal(r.code, 0, r.stderr);
  return { ...r, json: JSON.parse(r.stdout) };
}

Deno.test("every setting has a sample value in this table", () => {
  for (const s of SETTINGS.filter((s) => s.arg)) assert.ok(SAMPLES[s.name], s.name);
});

Deno.test("defaults apply when neither flag nor environment is set", async () => {
  const { json } = await printConfig(["--host", "r1"]);
  for (const s of SETTINGS) {
    if (s.name === "host") continue;
    const got = json.settings[s.name];
    // --print-config shows a local path's `~/` resolved to the home directory.
    const value = (HOME_PATHS as readonly string[]).includes(s.name) && s.default
      ? expandHome(s.default as string)
      : s.default;
    assert.deepEqual(got.value, s.secret && value ? "********" : value ?? null, s.name);
    assert.equal(got.source, s.default === undefined ? "unset" : "default", s.name);
  }
});

Deno.test("every flag and every environment variable sets its setting; a flag beats its variable", async () => {
  // Every variable is set; every other setting also gets its flag.
  const env: Record<string, string> = {};
  for (const s of valued) env[s.env] = SAMPLES[s.name][1];
  for (const s of switches) env[s.env] = SWITCH_ENV;
  const flagged = new Set(valued.filter((_, i) => i % 2 === 0).map((s) => s.name));
  const args = valued.filter((s) => flagged.has(s.name)).flatMap((s) => [
    `--${s.name}`,
    SAMPLES[s.name][0],
  ]);
  const { json } = await printConfig(args, env);
  for (const s of valued) {
    const want = flagged.has(s.name)
      ? { value: SAMPLES[s.name][2], source: "flag" }
      : { value: SAMPLES[s.name][3], source: "env" };
    assert.deepEqual(json.settings[s.name], want, s.name);
  }
  for (const s of switches) assert.deepEqual(json.settings[s.name], { value: true, source: "env" });
  const bare = await printConfig(["--host", "r", ...switches.map((s) => `--${s.name}`)]);
  for (const s of switches) {
    assert.deepEqual(bare.json.settings[s.name], { value: true, source: "flag" }, s.name);
  }
});

Deno.test("secrets never appear in --print-config output", async () => {
  const r = await printConfig(["--host", "r1", "--password", "hunter2-flag"], {
    ROUTER_KEY_PASSPHRASE: "hunter2-env",
  });
  assert.ok(!r.stdout.includes("hunter2"));
  assert.ok(!r.stderr.includes("hunter2"));
  assert.equal(r.json.devices[0].password, "********");
});

/**
 * One real run per kind of refusal (the parsers' every case is unit-tested
 * in tests/unit/config_settings.test.ts). `--print-config` refuses all the
 * server would.
 */
const BAD: [string[], Record<string, string>, RegExp][] = [
  [
    ["--host", "r"],
    { ROUTER_KEEPALIVE: "0x10" },
    /"0x10" for ROUTER_KEEPALIVE \(--keepalive\): .*plain decimal/,
  ],
  [["--host", ""], {}, /"" for --host: expected a host name or IP address, not an empty value/],
  [
    ["--host", "r", "--toolsets", ""],
    {},
    /"" for --toolsets: expected default, all, or a comma list of: .*ip/,
  ],
  [
    ["--host", "r", "--toolsets", "nosuch"],
    {},
    /"nosuch" for --toolsets: no such toolset; expected default, all/,
  ],
  [
    ["--host", "r", "--mcp.allowed-hosts", "http://x/"],
    {},
    /"http:\/\/x\/" for --mcp.allowed-hosts: .*not a host entry; use host, host:port/,
  ],
  [["--nonsense"], {}, /unknown option '--nonsense'/],
  [["--transport=sse"], {}, /unknown option '--transport=sse'; did you mean --mcp\.transport\?/],
  [["--hostt", "r"], {}, /unknown option '--hostt'; did you mean --host\?/],
  [[], {}, /no router given: set --host \(ROUTER_HOST\)/],
];

for (const [args, env, message] of BAD) {
  const shown = [
    ...args.map((a) => a === "" ? '""' : a),
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
  ];
  Deno.test(`bad value exits 2 with one clear line, --print-config or not: ${shown.join(" ")}`, async () => {
    const r = await runCli([...args, "--print-config"], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.ok(!r.stderr.includes("    at "), "no stack trace");
    assert.equal(r.stdout, "");
  });
}

Deno.test("--help lists every option with its environment variable", async () => {
  const r = await runCli(["--help"]);
  assert.equal(r.code, 0);
  const help = r.stdout.replace(/\s+/g, " ");
  for (const s of SETTINGS) {
    assert.ok(help.includes(`--${s.name}`), `--${s.name} in help`);
    assert.ok(help.includes(`[env: ${s.env}]`), `${s.env} in help`);
  }
});

Deno.test("--version prints deno.json's version", async () => {
  const version = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)))
    .version;
  const r = await runCli(["--version"]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim(), version);
});

Deno.test("a bad value stops the server before it starts (no tools, no MCP traffic)", async () => {
  const r = await runCli(["--host", "r", "--toolsets", ""]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /for --toolsets/);
  assert.equal(r.stdout, "");
});
