/**
 * The settings table and its parsers, in process: every setting's flag,
 * environment variable and default, precedence, the plain-decimal rule and
 * the injected vocabulary (toolsets, allow-list checks).
 */
import { expandHome, HOME_PATHS } from "../../lib/config/local_paths.ts";
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import { loadConfig, resolveSettings, type Vocabulary } from "../../lib/config/load.ts";
import { integer, parseSwitch, seconds, toolsetList } from "../../lib/config/parsers.ts";
import { type AnySetting, SETTINGS } from "../../lib/config/settings.ts";
import { envName } from "../../lib/config/setting.ts";
import { loadYamlParser } from "../../lib/config/yaml_parser.ts";

// Inventories are YAML; the server loads the parser only when it needs it.
await loadYamlParser();

const ALL = SETTINGS as readonly AnySetting[];

/** Two valid raw values per valued setting (flag, environment) and their parsed forms. */
const SAMPLES: Record<string, [string, string, unknown, unknown]> = {
  "host": ["10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.2"],
  "username": ["ops", "netadmin", "ops", "netadmin"],
  "password": ["pw-flag", "pw-env", "pw-flag", "pw-env"],
  "key-filename": ["/k/flag", "/k/env", "/k/flag", "/k/env"],
  "key-passphrase": ["pp-flag", "pp-env", "pp-flag", "pp-env"],
  "port": ["2222", "2200", 2222, 2200],
  "jump": ["ops@10.0.0.9", "ops@[2001:db8::9]:2200", "ops@10.0.0.9:22", "ops@[2001:db8::9]:2200"],
  "jump-key-filename": ["/k/flag", "/k/env", "/k/flag", "/k/env"],
  "jump-key-passphrase": ["jp-flag", "jp-env", "jp-flag", "jp-env"],
  "mcp.transport": ["sse", "streamable-http", "sse", "streamable-http"],
  "mcp.host": ["127.0.0.1", "::1", "127.0.0.1", "::1"],
  "metrics-port": ["9464", "9465", 9464, 9465],
  "metrics-host": ["127.0.0.1", "::1", "127.0.0.1", "::1"],
  "mcp.port": ["9000", "9001", 9000, 9001],
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
  "mcp.oauth-issuer": ["https://a.example", "https://b.example,https://c.example", [
    "https://a.example",
  ], ["https://b.example", "https://c.example"]],
  "mcp.oauth-resource": [
    "https://mcp.example/mcp",
    "https://r.example/mcp",
    "https://mcp.example/mcp",
    "https://r.example/mcp",
  ],
  "mcp.oauth-jwks-url": [
    "https://a.example/jwks",
    "https://b.example/jwks",
    "https://a.example/jwks",
    "https://b.example/jwks",
  ],
  "mcp.oauth-scopes": ["r,o,a", "x:r,x:o,x:a", ["r", "o", "a"], ["x:r", "x:o", "x:a"]],
  "mcp.header-timeout": ["5", "7.5", 5, 7.5],
  "mcp.body-timeout": ["10", "20", 10, 20],
  "mcp.max-connections-per-peer": ["8", "16", 8, 16],
  "inventory": ["[{title: a}]", "- {title: b}", "[{title: a}]", "- {title: b}"],
  "inventory-file": ["/i/flag.yaml", "/i/env.yaml", "/i/flag.yaml", "/i/env.yaml"],
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

const valued = ALL.filter((s) => s.arg);
const switches = ALL.filter((s) => !s.arg);

Deno.test("settings table: every valued setting has a sample, and names follow the env rule", () => {
  for (const s of valued) assert.ok(SAMPLES[s.name], s.name);
  for (const s of ALL) assert.equal(s.env, envName(s.name), s.name);
  assert.equal(new Set(ALL.map((s) => s.name)).size, ALL.length, "names are unique");
});

Deno.test("settings: defaults apply when neither flag nor environment is set", () => {
  const { settings, sources } = resolveSettings({}, {});
  for (const s of ALL) {
    // A local path's `~/` is the home directory, default or not.
    const want = (HOME_PATHS as readonly string[]).includes(s.name) && s.default
      ? expandHome(s.default as string)
      : s.default;
    assert.deepEqual((settings as Record<string, unknown>)[s.name], want, s.name);
    assert.equal(sources[s.name], s.default === undefined ? "unset" : "default", s.name);
  }
});

Deno.test("settings: every flag sets its setting, every variable too, and a flag beats its variable", () => {
  const flags: Record<string, string | boolean> = {};
  const env: Record<string, string> = {};
  for (const s of valued) [flags[s.name], env[s.env]] = SAMPLES[s.name];
  for (const s of switches) [flags[s.name], env[s.env]] = [true, "1"];
  const fromFlags = resolveSettings(flags, {});
  const fromEnv = resolveSettings({}, env);
  const both = resolveSettings(flags, env);
  for (const s of valued) {
    const get = (r: typeof both) => (r.settings as Record<string, unknown>)[s.name];
    assert.deepEqual([get(fromFlags), fromFlags.sources[s.name]], [SAMPLES[s.name][2], "flag"]);
    assert.deepEqual([get(fromEnv), fromEnv.sources[s.name]], [SAMPLES[s.name][3], "env"]);
    assert.deepEqual([get(both), both.sources[s.name]], [SAMPLES[s.name][2], "flag"], s.name);
  }
  for (const s of switches) {
    assert.equal((fromFlags.settings as Record<string, unknown>)[s.name], true, s.name);
    assert.equal((fromEnv.settings as Record<string, unknown>)[s.name], true, s.name);
  }
});

Deno.test("settings: an empty environment variable counts as unset", () => {
  const { settings, sources } = resolveSettings({}, { ROUTER_PORT: "", ROUTER_HOST: "" });
  assert.equal(settings.port, 22);
  assert.equal(sources.port, "default");
  assert.equal(settings.host, undefined);
});

/** The message a bad value draws, from flags or the environment. */
function refusal(flags: Record<string, string>, env: Record<string, string> = {}, known = {}) {
  try {
    resolveSettings(flags, env, known);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail(`accepted ${JSON.stringify({ flags, env })}`);
}

Deno.test("settings: numbers are plain decimal only", () => {
  for (const raw of ["0x10", "1e3", "Infinity", " ", "-1", "+5", "0o17", "1_000", "NaN", ".5"]) {
    assert.match(refusal({}, { ROUTER_KEEPALIVE: raw }), /ROUTER_KEEPALIVE \(--keepalive\)/, raw);
    assert.match(refusal({ port: raw }), /for --port: expected a whole number/, raw);
  }
  assert.equal(seconds(0, 10)("7.5"), 7.5);
  assert.equal(seconds(0, 10)(" 3 "), 3);
  assert.equal(integer(1, 9)("007"), 7);
  assert.throws(() => integer(1, 9)("1.0"));
  assert.match(
    refusal({}, { ROUTER_KEEPALIVE: "0x10" }),
    /^invalid value "0x10" for ROUTER_KEEPALIVE \(--keepalive\): expected a number of seconds from 0 to 3600 in plain decimal/,
  );
});

Deno.test("settings: text settings that name something refuse an empty value", () => {
  for (const name of ["host", "username", "key-filename", "inventory-file", "audit-log"]) {
    assert.match(refusal({ [name]: "" }), new RegExp(`"" for --${name}: expected .*not an empty`));
    assert.match(refusal({ [name]: "  " }), new RegExp(`for --${name}`));
  }
  assert.match(refusal({ host: "a\nb" }), /without control characters/);
  assert.equal(resolveSettings({ password: "" }, {}).settings.password, "", "empty password");
});

Deno.test("settings: switches read 1/0, yes/no, true/false, on/off and refuse the rest", () => {
  for (const t of ["1", "true", "YES", "on"]) assert.equal(parseSwitch(t), true, t);
  for (const t of ["0", "false", "no", "off"]) assert.equal(parseSwitch(t), false, t);
  assert.match(refusal({}, { ROUTER_READ_ONLY: "maybe" }), /ROUTER_READ_ONLY \(--read-only\)/);
});

Deno.test("settings: one-of settings list the accepted words", () => {
  assert.match(refusal({ "mcp.transport": "ws" }), /expected one of: stdio, sse, streamable-http/);
  assert.match(refusal({ "host-key-policy": "yes" }), /expected one of: strict, accept-new, off/);
  assert.match(refusal({ "log-level": "loud" }), /debug, info, warning, error/);
});

Deno.test("settings: a secret's value is never echoed in an error", () => {
  const long = "x".repeat(5000);
  const message = refusal({ password: long });
  assert.ok(!message.includes("xxxx"), message);
  assert.match(message, /^invalid value for --password: expected at most 4096 characters$/);
});

const KNOWN: Vocabulary = {
  toolsets: ["ip", "dns", "firewall"],
  checkAllowedHosts: (entries) => {
    for (const e of entries) if (e.includes("/")) throw new Error(`"${e}" is not a host entry`);
  },
  checkAllowedOrigins: (entries) => {
    for (const e of entries) if (!e.includes("://")) throw new Error(`"${e}" is not an origin`);
  },
};

Deno.test("toolsets: all alone, or known names; never empty; the bad name is named", () => {
  assert.deepEqual(toolsetList("all", KNOWN), ["all"]);
  assert.deepEqual(toolsetList(" ip , dns,ip ", KNOWN), ["ip", "dns"]);
  assert.match(
    refusal({ toolsets: "ip,nosuch" }, {}, KNOWN),
    /^invalid value "nosuch" for --toolsets: no such toolset; expected default, all, or a comma list of: ip, dns, firewall$/,
  );
  assert.match(
    refusal({ toolsets: "" }, {}, KNOWN),
    /"" for --toolsets: expected default, all, or a comma/,
  );
  assert.match(refusal({ toolsets: " , " }, {}, KNOWN), /for --toolsets/);
  assert.match(refusal({ toolsets: "all,ip" }, {}, KNOWN), /"all" stands alone/);
  assert.match(refusal({}, { ROUTER_TOOLSETS: "bogus" }, KNOWN), /ROUTER_TOOLSETS \(--toolsets\)/);
  assert.deepEqual(toolsetList("anything"), ["anything"], "without a vocabulary, names pass");
});

Deno.test("allow-lists: the injected checks run on every entry", () => {
  assert.match(
    refusal({ "mcp.allowed-hosts": "ok.example,http://x/" }, {}, KNOWN),
    /for --mcp.allowed-hosts: "http:\/\/x\/" is not a host entry/,
  );
  assert.match(
    refusal({}, { ROUTER_MCP__ALLOWED_ORIGINS: "app.example" }, KNOWN),
    /ROUTER_MCP__ALLOWED_ORIGINS \(--mcp.allowed-origins\): "app.example" is not an origin/,
  );
  const { settings } = resolveSettings({ "mcp.allowed-hosts": "" }, {}, KNOWN);
  assert.deepEqual(settings["mcp.allowed-hosts"], [], "an empty list is the default list");
});

Deno.test("loadConfig: single device from the settings, or a clear error without a router", () => {
  const config = loadConfig({ host: "r1", port: "2022" }, { ROUTER_USERNAME: "ops" });
  assert.equal(config.fleet, false);
  assert.deepEqual(config.devices, [{
    title: "r1",
    host: "r1",
    port: 2022,
    username: "ops",
    password: "",
    keyFilename: undefined,
    keyPassphrase: undefined,
    tags: [],
    readOnly: false,
  }]);
  assert.throws(() => loadConfig({}, {}), /no router given: set --host \(ROUTER_HOST\)/);
  assert.equal(loadConfig({ container: true }, {}).devices[0].host, "192.168.88.1");
  assert.deepEqual(loadConfig({ simulate: true }, {}).devices, []);
});

Deno.test("loadConfig: inline inventory beats the file, an inventory beats single-device settings", () => {
  const config = loadConfig(
    { inventory: "[{title: a, host: h}]", "inventory-file": "/nonexistent.yaml", host: "x" },
    { ROUTER_PASSWORD: "pw" },
  );
  assert.equal(config.fleet, true);
  assert.deepEqual(config.devices.map((d) => d.title), ["a"]);
  assert.deepEqual(config.notices, [
    "info: --inventory is set, so --inventory-file is ignored",
    "info: an inventory is set, so the single-device settings are ignored: --host, --password",
  ]);
});

Deno.test("loadConfig: in the container a secret in the environment draws one warning", () => {
  const config = loadConfig({ container: true }, {
    ROUTER_PASSWORD: "pw",
    ROUTER_KEY_PASSPHRASE: "pp",
  });
  assert.equal(config.notices.length, 1);
  assert.match(config.notices[0], /^warning: ROUTER_PASSWORD and ROUTER_KEY_PASSPHRASE are set/);
  assert.deepEqual(loadConfig({ container: true, password: "pw" }, {}).notices, []);
});

Deno.test("settings: a local path's ~/ is the home directory, given or default; other values keep theirs", () => {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  const { settings } = resolveSettings(
    { "state-dir": "~/st", "files-dir": "~", "key-filename": "~/k" },
    { ROUTER_KNOWN_HOSTS: "/abs/kh" },
  );
  assert.equal(settings["state-dir"], `${home}/st`);
  assert.equal(settings["files-dir"], home);
  assert.equal(settings["known-hosts"], "/abs/kh");
  assert.equal(settings["key-filename"], "~/k");
});
