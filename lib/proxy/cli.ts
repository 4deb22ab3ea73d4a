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
import { MAX_BODY_BYTES } from "./body.ts";
import { Children } from "./children.ts";
import { loadProxyConfig } from "./config_file.ts";
import { parseOrigins } from "./cors.ts";
import { createApp } from "./http_app.ts";

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
GET /docs, GET /<server>/openapi.json, GET /<server>/docs, GET /health.`;

interface ProxyFlags {
  config: string;
  port: string;
  host: string;
  apiKey?: string;
  strictAuth?: boolean;
  corsAllowOrigins?: string;
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
    .option("--host <h>", "address to listen on", "0.0.0.0")
    .addOption(
      new Option("--api-key <key>", `require Authorization: Bearer <key> [env: ${API_KEY_ENV}]`),
    )
    .option("--strict-auth", "also require the key for docs, OpenAPI and tool lists")
    .option(
      "--cors-allow-origins <list>",
      "comma-separated origins allowed by CORS, or * (default: none)",
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
    flags = program(version).parse(args, { from: "user" }).opts<ProxyFlags>();
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
  port: number;
  host: string;
  apiKey?: string;
  strictAuth: boolean;
  corsOrigins: string[];
  toolTimeoutMs: number;
}

function resolve(flags: ProxyFlags): ProxySettings {
  const port = wholeNumber(flags.port, "--port", 0, 65535);
  const toolTimeout = wholeNumber(flags.toolTimeout, "--tool-timeout", 1, 86_400);
  const corsOrigins = parseOrigins(flags.corsAllowOrigins);
  const fromEnv = Deno.env.get(API_KEY_ENV);
  const apiKey = flags.apiKey ?? fromEnv;
  if (apiKey !== undefined && apiKey.trim() === "") {
    throw new ConfigError(
      `${
        flags.apiKey !== undefined ? "--api-key" : API_KEY_ENV
      } is empty; set a key or leave it out`,
    );
  }
  if (apiKey !== undefined && /\s/.test(apiKey)) {
    throw new ConfigError(
      `${flags.apiKey !== undefined ? "--api-key" : API_KEY_ENV} holds whitespace, ` +
        "which an Authorization: Bearer header cannot carry; pick a key without spaces",
    );
  }
  if (flags.strictAuth && !apiKey) {
    throw new ConfigError(`--strict-auth needs a key: set --api-key or ${API_KEY_ENV}`);
  }
  if (flags.apiKey !== undefined) {
    log("warning", `proxy: --api-key is visible to other users in ps; prefer ${API_KEY_ENV}`);
  }
  const specs = loadProxyConfig(flags.config);
  return {
    specs,
    port,
    host: flags.host,
    apiKey,
    strictAuth: flags.strictAuth === true,
    corsOrigins,
    toolTimeoutMs: toolTimeout * 1000,
  };
}

async function serve(settings: ProxySettings, version: string): Promise<number> {
  const children = new Children(settings.specs, {
    clientInfo: { name: "mcp-server-router-proxy", version },
    startTimeoutMs: 30_000,
  });
  const { promise: signalled, resolve: onSignal } = Promise.withResolvers<Deno.Signal>();
  let signals = 0;
  const listeners = (["SIGINT", "SIGTERM"] as const).map((sig) => {
    const listener = () => {
      signals++;
      if (signals > 1) {
        log("warning", `proxy: second ${sig}; exiting now`);
        Deno.exit(130);
      }
      onSignal(sig);
    };
    Deno.addSignalListener(sig, listener);
    return [sig, listener] as const;
  });
  const cleanup = () => {
    for (const [sig, listener] of listeners) Deno.removeSignalListener(sig, listener);
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

  if (!settings.apiKey && settings.host !== "127.0.0.1" && settings.host !== "localhost") {
    log(
      "warning",
      `proxy: no API key: anyone who can reach ${settings.host}:${settings.port} can call every ` +
        `tool; set ${API_KEY_ENV}`,
    );
  }
  const handler = createApp({
    children,
    version,
    apiKey: settings.apiKey,
    strictAuth: settings.strictAuth,
    corsOrigins: settings.corsOrigins,
    toolTimeoutMs: settings.toolTimeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname: settings.host,
      port: settings.port,
      onListen: ({ hostname, port }) => {
        const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
        log("info", `proxy: listening on http://${shown}:${port} (docs at /docs)`);
      },
    }, handler);
  } catch (err) {
    const why = err instanceof Deno.errors.AddrInUse
      ? "the address is in use; pick another --port"
      : err instanceof Error
      ? err.message
      : String(err);
    log("error", `proxy: cannot listen on ${settings.host}:${settings.port}: ${why}`);
    await children.stopAll();
    cleanup();
    return 1;
  }

  const sig = await signalled;
  log("info", `proxy: ${sig}: stopping`);
  // Stop taking requests and end the children together: calls in flight then
  // fail fast with 503 instead of holding the shutdown for a whole timeout.
  const closing = server.shutdown();
  await children.stopAll();
  await Promise.race([closing, new Promise((r) => setTimeout(r, 5_000))]);
  cleanup();
  log("info", "proxy: stopped");
  return 0;
}
