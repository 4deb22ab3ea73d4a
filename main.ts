/**
 * `mcp-server-router`: an MCP server for MikroTik RouterOS over SSH.
 *
 * The CLI only parses arguments and hands over: settings resolve in
 * `lib/config`, the server runs from `lib/server`.
 *
 * @module
 */
import { Command, CommanderError, Option } from "commander";
import denoJson from "./deno.json" with { type: "json" };
import { describeConfig } from "./lib/config/describe.ts";
import { ConfigError } from "./lib/config/errors.ts";
import {
  type Config,
  type FlagValues,
  loadConfigAsync,
  type Vocabulary,
} from "./lib/config/load.ts";
import { SETTINGS } from "./lib/config/settings.ts";
import { log, setLogLevel } from "./lib/log.ts";
import { parseHosts, parseOrigins } from "./lib/http/allow_list.ts";
import { TOOLSETS } from "./lib/tools/tool.ts";

/** The product version, from deno.json (the one version source). */
export const VERSION: string = denoJson.version;

const SUBCOMMANDS = `
Commands (each has its own --help):
  sim [options]           run simulated RouterOS routers
  proxy [options]         serve MCP servers' tools as REST endpoints with OpenAPI docs
  healthcheck --url U     exit 0 when U answers HTTP 200 (container health checks)
  audit verify FILE       check an audit log's chain and anchor; names the broken entry
                          and the writes a crash interrupted (--key-file KEY: keyed log)
  audit anchor FILE       accept an audit log as it is (one written before anchors)
  auth hash-key           read an API key on stdin, print the sha256 hash the keys file stores
  auth new-key [N] [ROLE] print a new API key and its keys file entry

Every option can also be set by its environment variable; a flag beats its variable.`;

/**
 * What lib/config checks but may not import: the toolset names and the HTTP
 * guard's own allow-list parsers, so that `--print-config` refuses exactly
 * what the server would.
 */
const VOCABULARY: Vocabulary = {
  toolsets: TOOLSETS,
  checkAllowedHosts: (entries) => void parseHosts(entries),
  checkAllowedOrigins: (entries) => void parseOrigins(entries),
};

/**
 * Commander's error on one line, and an unknown flag that is a grouped
 * setting without its group (`--transport` for `--mcp.transport`) named
 * with its group: commander's own suggestion only finds near spellings.
 */
function withGroupHint(message: string): string {
  const line = message.trimEnd().replace(/\n\(Did you mean (.+)\?\)$/, "; did you mean $1?");
  const flag = /^error: unknown option '--([^'=]+)(?:=[^']*)?'$/.exec(line)?.[1];
  const grouped = flag
    ? SETTINGS.filter((s) => s.name.endsWith(`.${flag}`)).map((s) => `--${s.name}`)
    : [];
  return `${line}${grouped.length ? `; did you mean ${grouped.join(" or ")}?` : ""}\n`;
}

/** Build the commander program from the settings table. */
function program(): Command {
  const cmd = new Command("mcp-server-router")
    .description("MCP server for MikroTik RouterOS routers over SSH")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show this help")
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({
      writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)),
      outputError: (s, write) => write(withGroupHint(s)),
    })
    .addHelpText("after", SUBCOMMANDS)
    .addOption(
      new Option(
        "--print-config",
        "print the resolved configuration as JSON (secrets masked) and exit",
      ),
    );
  for (const s of SETTINGS) {
    const def = s.default === undefined || s.secret
      ? ""
      : Array.isArray(s.default)
      ? s.default.length ? ` (default: ${s.default.join(",")})` : ""
      : typeof s.default === "boolean"
      ? ""
      : ` (default: ${s.default})`;
    cmd.addOption(
      new Option(
        `--${s.name}${s.arg ? ` ${s.arg}` : ""}`,
        `${s.description} [env: ${s.env}]${def}`,
      ),
    );
  }
  return cmd;
}

/** Parse argv into raw flag values keyed by setting name. */
function parseFlags(argv: string[]): { flags: FlagValues; printConfig: boolean } {
  const cmd = program();
  cmd.parse(argv, { from: "user" });
  const opts = cmd.opts();
  const flags: FlagValues = {};
  for (const option of cmd.options) {
    const name = option.long?.replace(/^--/, "");
    if (!name || name === "print-config") continue;
    const value = opts[option.attributeName()];
    if (value !== undefined) flags[name] = value as string | boolean;
  }
  return { flags, printConfig: opts.printConfig === true };
}

async function serve(argv: string[]): Promise<number> {
  const { flags, printConfig } = parseFlags(argv);
  const config: Config = await loadConfigAsync(flags, Deno.env.toObject(), VOCABULARY);
  setLogLevel(config.settings["log-level"]);
  for (const line of config.notices) log(line.startsWith("warning") ? "warning" : "info", line);
  if (printConfig) {
    console.log(JSON.stringify(describeConfig(config), null, 2));
    return 0;
  }
  if (config.settings.simulate) await attachSimulator(config);
  // Loaded here, not at the top: the subcommands (healthcheck, audit, sim,
  // proxy) never serve, and the MCP server's module graph is most of a start.
  const { runServer } = await import("./lib/server/run.ts");
  await runServer(config, { name: "mcp-server-router", version: VERSION });
  return 0;
}

/** `--simulate`: start an embedded simulated router and point the config at it. */
async function attachSimulator(config: Config): Promise<void> {
  const { startSimulator } = await import("./lib/sim/mod.ts");
  const sim = await startSimulator({ version: config.settings["simulate-version"] });
  config.fleet = false;
  config.devices = [{
    title: "sim",
    host: sim.host,
    port: sim.port,
    username: "admin",
    password: "",
    hostKey: sim.hostKeyFingerprint(),
    tags: ["simulated"],
    readOnly: false,
  }];
  const transport = config.settings["mcp.transport"];
  const how = transport === "stdio"
    ? "Connect an MCP client over stdio with the command: deno task demo" +
      ' (or "npx -y deno@2.9.6 task demo")'
    : `Connect an MCP client to http://localhost:${config.settings["mcp.port"]}${
      transport === "sse" ? "/sse" : "/mcp"
    }`;
  log(
    "info",
    `demo: simulated RouterOS ${sim.version} on ${sim.host}:${sim.port} (user admin, empty password). ` +
      `${how}; try the tool router_list_ip_addresses.`,
  );
}

/** Run the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    switch (argv[0]) {
      case "sim": {
        const { runSimCli } = await import("./lib/sim/cli.ts");
        return await runSimCli(argv.slice(1));
      }
      case "proxy": {
        const { runProxyCli } = await import("./lib/proxy/cli.ts");
        return await runProxyCli(argv.slice(1), VERSION);
      }
      case "audit": {
        const { runAuditCli } = await import("./lib/server/safety/audit_cli.ts");
        return await runAuditCli(argv.slice(1));
      }
      case "auth": {
        const { runAuthCli } = await import("./lib/auth/cli.ts");
        return await runAuthCli(argv.slice(1));
      }
      case "healthcheck": {
        const { runHealthcheck } = await import("./lib/server/healthcheck.ts");
        return await runHealthcheck(argv.slice(1));
      }
    }
    return await serve(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return 0;
      return 2; // commander already printed one "error: ..." line
    }
    if (err instanceof ConfigError) {
      log("error", err.message);
      return 2;
    }
    log("error", err instanceof Error ? err.message : String(err));
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
