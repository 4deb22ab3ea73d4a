/**
 * `mcp-server-router proxy`: start the MCP servers of a configuration
 * file and serve their tools as REST endpoints with OpenAPI docs, until
 * SIGINT or SIGTERM, which stop every child before the proxy exits.
 *
 * @module
 */
import { Command, CommanderError, Option } from "commander";
import { ConfigError } from "../config/errors.ts";
import { log } from "../log.ts";
import { isLoopback } from "../http/allow_list.ts";
import { MAX_BODY_BYTES } from "../http/body_limit.ts";
import { type GuardLists, guardLists, guardNotices } from "../http/guard_settings.ts";
import { addressUrl, listen, ListenError } from "../http/listen.ts";
import { onSignals, within } from "../http/shutdown.ts";
import type { AuthOptions, KeyLookup } from "../http/authenticate.ts";
import { keysMatch } from "../http/bearer_auth.ts";
import { KeyStore } from "../auth/key_store.ts";
import { Children } from "./children.ts";
import { loadProxyConfig } from "./config_file.ts";
import { createApp, PROXY_GUARD_NAMES } from "./http_app.ts";

/** Environment variable holding the API key (keeps it out of `ps`). */
export const API_KEY_ENV = "ROUTER_PROXY_API_KEY";

const EXAMPLE = `
Configuration file (JSON):
  {"mcpServers": {
     "router": {"command": "mcp-server-router",
                "args": ["--host", "10.0.0.1", "--username", "admin"],
                "env": {"ROUTER_PASSWORD": "..."}},
     "remote": {"type": "streamable-http", "url": "http://10.0.0.5:3000/mcp",
                "headers": {"Authorization": "Bearer ..."}}}}

Endpoints: POST /<server>/<tool> (JSON object body), GET /<server>, GET /openapi.json,
GET /docs, GET /<server>/openapi.json, GET /<server>/docs, GET /health.

Every request must name an allowed host (Host header; 421 otherwise) and come from an
allowed page, if from a browser (Origin header; 403 otherwise): both lists allow only
this machine's names (localhost, 127.0.0.1, [::1]) unless set. Listening beyond this
machine needs API keys (--api-keys-file, or one admin key with --api-key), or
--insecure-no-auth; without them only requests from this machine are served.`;

interface ProxyFlags {
  config: string;
  port: string;
  host: string;
  apiKey?: string;
  apiKeysFile?: string;
  strictAuth?: boolean;
  allowedHosts?: string;
  allowedOrigins?: string;
  corsAllowOrigins?: string;
  insecureNoAuth?: boolean;
  toolTimeout: string;
}

function program(version: string): Command {
  return new Command("mcp-server-router proxy")
    .description("serve the tools of MCP servers as REST endpoints with OpenAPI docs")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show this help")
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)) })
    .requiredOption("--config <file>", "JSON file listing the MCP servers under mcpServers")
    .option("--port <n>", "TCP port to listen on (0 picks a free one)", "8000")
    .option(
      "--host <h>",
      "address to listen on (another than loopback needs an API key)",
      "127.0.0.1",
    )
    .addOption(
      new Option(
        "--api-key <key>",
        `one key with the admin role: Authorization: Bearer <key>; prefer the variable ` +
          `${API_KEY_ENV}: other users see a flag in ps [env: ${API_KEY_ENV}]`,
      ),
    )
    .option(
      "--api-keys-file <file>",
      "API keys with roles and scopes (YAML, hashed; the server's --mcp.api-keys-file format); " +
        "reloaded on change or SIGHUP",
    )
    .option("--strict-auth", "also require the key for docs, OpenAPI and tool lists")
    .option(
      "--allowed-hosts <list>",
      "Host header values to accept, comma-separated: host, host:port, host:* " +
        "(default: localhost, 127.0.0.1, [::1] on any port)",
    )
    .option(
      "--allowed-origins <list>",
      "browser origins allowed to call the proxy (and given CORS), comma-separated: " +
        "scheme://host[:port], port * for any (default: local pages only)",
    )
    .addOption(new Option("--cors-allow-origins <list>").hideHelp())
    .option(
      "--insecure-no-auth",
      "listen beyond loopback without an API key: anyone who reaches the port can call every tool",
    )
    .option("--tool-timeout <seconds>", "limit for one tool call; 504 past it", "120")
    .addHelpText("after", EXAMPLE);
}

function wholeNumber(raw: string, flag: string, min: number, max: number): number {
  const t = raw.trim();
  if (!/^\d+$/.test(t) || Number(t) < min || Number(t) > max) {
    throw new ConfigError(`${flag}: expected a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(t);
}

/** Run the proxy CLI with `args` (after `proxy`); resolves to the exit code. */
export async function runProxyCli(args: string[], version: string): Promise<number> {
  let flags: ProxyFlags;
  try {
    // `proxy help` is `proxy --help`: help goes to stdout, exit 0.
    const argv = args[0] === "help" && args.length === 1 ? ["--help"] : args;
    flags = program(version).parse(argv, { from: "user" }).opts<ProxyFlags>();
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === "commander.helpDisplayed" || err.code === "commander.version" ? 0 : 2;
    }
    throw err;
  }
  let settings;
  try {
    settings = resolve(flags);
  } catch (err) {
    if (err instanceof ConfigError) {
      log("error", err.message);
      return 2;
    }
    throw err;
  }
  return await serve(settings, version);
}

interface ProxySettings {
  specs: ReturnType<typeof loadProxyConfig>;
  configPath: string;
  port: number;
  host: string;
  apiKey?: string;
  apiKeysFile?: string;
  insecureNoAuth: boolean;
  strictAuth: boolean;
  allowedHosts: string[];
  guards: GuardLists;
  toolTimeoutMs: number;
}

function list(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function resolve(flags: ProxyFlags): ProxySettings {
  const port = wholeNumber(flags.port, "--port", 0, 65535);
  const toolTimeout = wholeNumber(flags.toolTimeout, "--tool-timeout", 1, 86_400);
  if (flags.corsAllowOrigins !== undefined) {
    if (flags.allowedOrigins !== undefined) {
      throw new ConfigError(
        "--cors-allow-origins is the old name of --allowed-origins; give only --allowed-origins",
      );
    }
    log("warning", "proxy: --cors-allow-origins is now --allowed-origins; please rename it");
  }
  const allowedHosts = list(flags.allowedHosts);
  const guards = guardLists(
    allowedHosts,
    list(flags.allowedOrigins ?? flags.corsAllowOrigins),
    flags.corsAllowOrigins !== undefined
      ? { ...PROXY_GUARD_NAMES, origins: "--cors-allow-origins" }
      : PROXY_GUARD_NAMES,
  );
  const fromEnv = Deno.env.get(API_KEY_ENV);
  const apiKey = flags.apiKey ?? fromEnv;
  const keyName = flags.apiKey !== undefined ? "--api-key" : API_KEY_ENV;
  if (apiKey !== undefined && apiKey.trim() === "") {
    throw new ConfigError(`${keyName} is empty; set a key or leave it out`);
  }
  if (apiKey !== undefined && /\s/.test(apiKey)) {
    throw new ConfigError(
      `${keyName} holds whitespace, which an Authorization: Bearer header cannot carry; ` +
        "pick a key without spaces",
    );
  }
  const apiKeysFile = flags.apiKeysFile?.trim() || undefined;
  if (flags.strictAuth && !apiKey && !apiKeysFile) {
    throw new ConfigError(
      `--strict-auth needs keys: set --api-keys-file, --api-key or ${API_KEY_ENV}`,
    );
  }
  if (!apiKey && !apiKeysFile && !flags.insecureNoAuth && !isLoopback(flags.host)) {
    throw new ConfigError(
      `--host ${flags.host} takes connections from other machines, but no API key is set, so ` +
        `anyone who reaches the port could call every tool; set ${API_KEY_ENV} (or --api-key), ` +
        "listen on --host 127.0.0.1, or pass --insecure-no-auth if every machine that can " +
        "reach the port is trusted",
    );
  }
  if (flags.apiKey !== undefined) {
    log("warning", `proxy: --api-key is visible to other users in ps; prefer ${API_KEY_ENV}`);
  }
  const specs = loadProxyConfig(flags.config);
  return {
    specs,
    configPath: flags.config,
    port,
    host: flags.host,
    apiKey,
    apiKeysFile,
    insecureNoAuth: flags.insecureNoAuth === true,
    strictAuth: flags.strictAuth === true,
    allowedHosts,
    guards,
    toolTimeoutMs: toolTimeout * 1000,
  };
}

/** The proxy's authentication: its keys file, its single admin key, or this machine only. */
async function proxyAuth(settings: ProxySettings): Promise<{ auth: AuthOptions; close(): void }> {
  const keys: KeyLookup[] = [];
  const store = settings.apiKeysFile ? await KeyStore.open(settings.apiKeysFile) : undefined;
  if (store) {
    store.watch();
    keys.push(store);
  }
  const single = settings.apiKey;
  if (single) {
    // The single key keeps what it always granted: every tool.
    keys.push({
      find: (k) => keysMatch(k, single) ? { name: "proxy:api-key", role: "admin" } : undefined,
    });
  }
  return {
    auth: {
      keys,
      allowUnauthenticated: settings.insecureNoAuth,
      realm: "mcp-server-router proxy",
      settings: `--api-keys-file or ${API_KEY_ENV}, or start it with --insecure-no-auth`,
    },
    close: () => store?.close(),
  };
}

async function serve(settings: ProxySettings, version: string): Promise<number> {
  let auth: Awaited<ReturnType<typeof proxyAuth>>;
  try {
    auth = await proxyAuth(settings);
  } catch (err) {
    if (err instanceof ConfigError) {
      log("error", `proxy: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const children = new Children(settings.specs, {
    clientInfo: { name: "mcp-server-router-proxy", version },
    startTimeoutMs: 30_000,
    configPath: settings.configPath,
  });
  const { promise: signalled, resolve: onSignal } = Promise.withResolvers<string>();
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const signals = onSignals((sig) => {
    onSignal(sig);
    return finished;
  }, { announce: (sig) => `proxy: ${sig}: stopping`, prefix: "proxy: ", exitCode: 130 });
  const cleanup = () => {
    signals.remove();
    auth.close();
    finish();
  };

  log("info", `proxy: starting ${settings.specs.length} MCP server(s)`);
  const started = children.startAll();
  const first = await Promise.race([started.then(() => null), signalled]);
  if (first !== null) {
    log("info", `proxy: ${first} during start; stopping the servers`);
    await children.stopAll();
    cleanup();
    return 0;
  }

  guardNotices(settings.host, settings.allowedHosts, settings.guards, PROXY_GUARD_NAMES, "proxy: ");
  const handler = createApp({
    children,
    version,
    auth: auth.auth,
    strictAuth: settings.strictAuth,
    guards: settings.guards,
    toolTimeoutMs: settings.toolTimeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  let server: ReturnType<typeof listen>;
  try {
    server = listen({
      hostname: settings.host,
      port: settings.port,
      portSetting: "--port",
      hostSetting: "--host",
      onListen: (addr) => {
        log("info", `proxy: listening on ${addressUrl(addr)} (docs at /docs)`);
        if (!settings.apiKey && !settings.apiKeysFile && !isLoopback(settings.host)) {
          log(
            "warning",
            `proxy: --insecure-no-auth: no API key, so anyone who can reach ${
              addressUrl(addr).slice(7)
            } can call every tool, including those that change router configuration; ` +
              `set ${API_KEY_ENV} to require a key`,
          );
        }
      },
    }, handler);
  } catch (err) {
    log("error", `proxy: ${err instanceof ListenError ? err.message : String(err)}`);
    await children.stopAll();
    cleanup();
    return 1;
  }

  await signalled;
  // Stop taking requests and end the children together: calls in flight then
  // fail fast with 503 instead of holding the shutdown for a whole timeout.
  const closing = server.shutdown();
  await children.stopAll();
  await within(closing, 5_000);
  cleanup();
  log("info", "proxy: stopped");
  return 0;
}
