/**
 * Every setting, declared once: flag, environment variable, default and
 * parser. The CLI's options, `--help`, the README's options table and the
 * typed {@linkcode Settings} object are all derived from this table.
 *
 * @module
 */
import {
  BadPart,
  checkedList,
  document,
  httpUrl,
  integer,
  nonEmpty,
  oneOf,
  type Parser,
  roleScopes,
  routerRelease,
  seconds,
  text,
  toolsetList,
  urlList,
} from "./parsers.ts";
import { jumpText, maskJumpText, parseJumpText } from "./jump.ts";
import { given, onOff, optional, type Setting } from "./setting.ts";

/**
 * `--jump`: `user@host[:port]`, normalised (`ops@10.0.0.9:22`). A value that
 * holds a password is refused with the password masked.
 */
const jumpAddress: Parser<string> = (raw) => {
  try {
    return jumpText(parseJumpText(raw));
  } catch (err) {
    throw new BadPart(maskJumpText(raw.trim()), (err as Error).message);
  }
};

/** The transports the server speaks. */
export const TRANSPORTS = ["stdio", "sse", "streamable-http"] as const;

/** The host key policies (the same words as lib/ssh's). */
export const HOST_KEY_POLICIES = ["strict", "accept-new", "off"] as const;

/** The stderr log levels (the same words as lib/log's). */
export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;

/** Every setting of the server. */
export const SETTINGS = [
  optional({
    name: "host",
    env: "ROUTER_HOST",
    arg: "<address>",
    description: "Router address (host name or IP); required without an inventory",
    parse: nonEmpty("a host name or IP address", 253),
  }),
  given({
    name: "username",
    env: "ROUTER_USERNAME",
    arg: "<user>",
    description: "SSH user",
    default: "admin",
    parse: nonEmpty("a user name", 128),
  }),
  given({
    name: "password",
    env: "ROUTER_PASSWORD",
    arg: "<password>",
    description: "SSH password",
    default: "",
    parse: text,
    secret: true,
  }),
  optional({
    name: "key-filename",
    env: "ROUTER_KEY_FILENAME",
    arg: "<file>",
    description: "Private key file (ed25519, ecdsa or rsa; OpenSSH or PEM)",
    parse: nonEmpty("a file path"),
  }),
  optional({
    name: "key-passphrase",
    env: "ROUTER_KEY_PASSPHRASE",
    arg: "<passphrase>",
    description: "Passphrase of the private key",
    parse: text,
    secret: true,
  }),
  given({
    name: "port",
    env: "ROUTER_PORT",
    arg: "<port>",
    description: "SSH port",
    default: 22,
    parse: integer(1, 65535),
  }),
  optional({
    name: "jump",
    env: "ROUTER_JUMP",
    arg: "<user@host:port>",
    description: "Reach the router through this SSH bastion (jump host); see docs/jump-hosts.md",
    parse: jumpAddress,
  }),
  optional({
    name: "jump-key-filename",
    env: "ROUTER_JUMP_KEY_FILENAME",
    arg: "<file>",
    description: "Private key for the bastion (default: --key-filename)",
    parse: nonEmpty("a file path"),
  }),
  optional({
    name: "jump-key-passphrase",
    env: "ROUTER_JUMP_KEY_PASSPHRASE",
    arg: "<pass>",
    description: "Passphrase of --jump-key-filename",
    parse: text,
    secret: true,
  }),
  given({
    name: "mcp.transport",
    env: "ROUTER_MCP__TRANSPORT",
    arg: "<transport>",
    description: "MCP transport: stdio, sse or streamable-http",
    default: "stdio",
    parse: oneOf(TRANSPORTS),
  }),
  given({
    name: "mcp.host",
    env: "ROUTER_MCP__HOST",
    arg: "<address>",
    description: "HTTP listen address",
    default: "0.0.0.0",
    parse: nonEmpty("a listen address such as 127.0.0.1 or ::", 253),
  }),
  given({
    name: "mcp.port",
    env: "ROUTER_MCP__PORT",
    arg: "<port>",
    description: "HTTP listen port",
    default: 8000,
    parse: integer(0, 65535),
  }),
  given({
    name: "mcp.allowed-hosts",
    env: "ROUTER_MCP__ALLOWED_HOSTS",
    arg: "<list>",
    description:
      "Allowed Host header values, comma-separated (host, host:port, host:*, or * for any)",
    default: [],
    parse: checkedList((known) => known.checkAllowedHosts),
  }),
  given({
    name: "mcp.allowed-origins",
    env: "ROUTER_MCP__ALLOWED_ORIGINS",
    arg: "<list>",
    description:
      "Allowed Origin header values, comma-separated (https://app.example.com, port * allowed)",
    default: [],
    parse: checkedList((known) => known.checkAllowedOrigins),
  }),
  onOff({
    name: "mcp.stateless",
    env: "ROUTER_MCP__STATELESS",
    description: "streamable-http without sessions (for replicas behind a load balancer)",
  }),
  given({
    name: "mcp.session-timeout",
    env: "ROUTER_MCP__SESSION_TIMEOUT",
    arg: "<seconds>",
    description: "Idle HTTP sessions expire after this many seconds",
    default: 1800,
    parse: seconds(1, 604800),
  }),
  given({
    name: "mcp.max-sessions",
    env: "ROUTER_MCP__MAX_SESSIONS",
    arg: "<n>",
    description: "Most HTTP sessions open at once; more get 503",
    default: 256,
    parse: integer(1, 100000),
  }),
  optional({
    name: "mcp.max-sessions-per-principal",
    env: "ROUTER_MCP__MAX_SESSIONS_PER_PRINCIPAL",
    arg: "<n>",
    description: "Most HTTP sessions of one client principal (default: three quarters of " +
      "--mcp.max-sessions); past it, its own least recently used idle session is closed",
    parse: integer(1, 100000),
  }),
  optional({
    name: "mcp.api-keys-file",
    env: "ROUTER_MCP__API_KEYS_FILE",
    arg: "<file>",
    description:
      "HTTP clients' API keys (YAML: name, sha256 hash, role, optional devices/tags); reloaded on change or SIGHUP",
    parse: nonEmpty("a file path"),
  }),
  given({
    name: "mcp.oauth-issuer",
    env: "ROUTER_MCP__OAUTH_ISSUER",
    arg: "<urls>",
    description:
      "Accept OAuth access tokens (JWT) from these authorization servers, comma-separated",
    default: [],
    parse: urlList,
  }),
  optional({
    name: "mcp.oauth-resource",
    env: "ROUTER_MCP__OAUTH_RESOURCE",
    arg: "<url>",
    description:
      "This server's resource URL as clients reach it (the tokens' audience), e.g. https://mcp.example.com/mcp",
    parse: httpUrl,
  }),
  optional({
    name: "mcp.oauth-jwks-url",
    env: "ROUTER_MCP__OAUTH_JWKS_URL",
    arg: "<url>",
    description: "The issuer's key set (JWKS) URL; default: found in the issuer's metadata",
    parse: httpUrl,
  }),
  given({
    name: "mcp.oauth-scopes",
    env: "ROUTER_MCP__OAUTH_SCOPES",
    arg: "<list>",
    description: "The token scopes of the roles read, operate and admin, comma-separated",
    default: ["routers:read", "routers:operate", "routers:admin"],
    parse: roleScopes,
  }),
  onOff({
    name: "mcp.allow-unauthenticated",
    env: "ROUTER_MCP__ALLOW_UNAUTHENTICATED",
    description:
      "Without API keys or OAuth, serve other machines too (anyone reaching the port gets every tool)",
  }),
  given({
    name: "mcp.header-timeout",
    env: "ROUTER_MCP__HEADER_TIMEOUT",
    arg: "<seconds>",
    description: "Close HTTP connections whose request headers take longer than this",
    default: 15,
    parse: seconds(0.5, 600),
  }),
  given({
    name: "mcp.body-timeout",
    env: "ROUTER_MCP__BODY_TIMEOUT",
    arg: "<seconds>",
    description: "Refuse (408) and close HTTP requests whose body takes longer than this to arrive",
    default: 30,
    parse: seconds(0.5, 3600),
  }),
  given({
    name: "mcp.max-connections-per-peer",
    env: "ROUTER_MCP__MAX_CONNECTIONS_PER_PEER",
    arg: "<n>",
    description:
      "Most HTTP connections open at once from one address (raise it behind a reverse proxy)",
    default: 256,
    parse: integer(1, 100000),
  }),
  onOff({
    name: "metrics",
    env: "ROUTER_METRICS",
    description:
      "Serve Prometheus metrics at /metrics on the HTTP transports' port, behind the same authentication as /mcp",
  }),
  optional({
    name: "metrics-port",
    env: "ROUTER_METRICS_PORT",
    arg: "<port>",
    description:
      "Serve Prometheus metrics at /metrics on this port too, over any transport (stdio included)",
    parse: integer(0, 65535),
  }),
  given({
    name: "metrics-host",
    env: "ROUTER_METRICS_HOST",
    arg: "<address>",
    description: "Listen address of --metrics-port",
    default: "127.0.0.1",
    parse: nonEmpty("a listen address such as 127.0.0.1 or ::", 253),
  }),
  onOff({
    name: "metrics-no-device-label",
    env: "ROUTER_METRICS_NO_DEVICE_LABEL",
    description:
      "SSH metrics as fleet totals, without a device label (for inventories of thousands of devices)",
  }),
  optional({
    name: "inventory",
    env: "ROUTER_INVENTORY",
    arg: "<yaml>",
    description: "Inline inventory: YAML or JSON list of devices",
    parse: document("a YAML or JSON list of devices", 4 * 1024 * 1024),
    secret: true,
  }),
  optional({
    name: "inventory-file",
    env: "ROUTER_INVENTORY_FILE",
    arg: "<file>",
    description: "Inventory file (YAML)",
    parse: nonEmpty("a file path"),
  }),
  given({
    name: "connect-timeout",
    env: "ROUTER_CONNECT_TIMEOUT",
    arg: "<seconds>",
    description: "SSH connect timeout",
    default: 10,
    parse: seconds(0.1, 600),
  }),
  given({
    name: "command-timeout",
    env: "ROUTER_COMMAND_TIMEOUT",
    arg: "<seconds>",
    description: "Per-command timeout (a file transfer: the longest the router may stay silent)",
    default: 30,
    parse: seconds(0.1, 3600),
  }),
  given({
    name: "known-hosts",
    env: "ROUTER_KNOWN_HOSTS",
    arg: "<file>",
    description: "OpenSSH known_hosts file for host key checks",
    default: "~/.config/mcp-server-router/known_hosts",
    parse: nonEmpty("a file path"),
  }),
  given({
    name: "host-key-policy",
    env: "ROUTER_HOST_KEY_POLICY",
    arg: "<policy>",
    description: "Host key policy: strict, accept-new or off",
    default: "accept-new",
    parse: oneOf(HOST_KEY_POLICIES),
  }),
  given({
    name: "max-channels",
    env: "ROUTER_MAX_CHANNELS",
    arg: "<n>",
    description: "Concurrent commands per device connection (one kept for commits; n-2 per caller)",
    default: 4,
    parse: integer(1, 64),
  }),
  given({
    name: "keepalive",
    env: "ROUTER_KEEPALIVE",
    arg: "<seconds>",
    description: "SSH keepalive interval (0 turns it off)",
    default: 15,
    parse: seconds(0, 3600),
  }),
  given({
    name: "idle-timeout",
    env: "ROUTER_IDLE_TIMEOUT",
    arg: "<seconds>",
    description: "Close a device connection idle this long",
    default: 300,
    parse: seconds(1, 86400),
  }),
  given({
    name: "max-dialing",
    env: "ROUTER_MAX_DIALING",
    arg: "<n>",
    description: "SSH connections being opened at once",
    default: 32,
    parse: integer(1, 1024),
  }),
  given({
    name: "max-output",
    env: "ROUTER_MAX_OUTPUT",
    arg: "<bytes>",
    description: "Largest command output accepted",
    default: 16 * 1024 * 1024,
    parse: integer(1024, 1024 * 1024 * 1024),
  }),
  given({
    name: "toolsets",
    env: "ROUTER_TOOLSETS",
    arg: "<list>",
    description:
      "Toolsets to list: default (a small core; the rest on request), all, or a comma list",
    default: ["default"],
    parse: toolsetList,
  }),
  onOff({
    name: "dynamic-toolsets",
    env: "ROUTER_DYNAMIC_TOOLSETS",
    description: "Start with only the toolset discovery tools",
  }),
  onOff({
    name: "allow-raw-commands",
    env: "ROUTER_ALLOW_RAW_COMMANDS",
    description: "Register router_run_command (raw RouterOS commands)",
  }),
  onOff({
    name: "read-only",
    env: "ROUTER_READ_ONLY",
    description: "Register read-only tools only",
  }),
  onOff({
    name: "reveal-secrets",
    env: "ROUTER_REVEAL_SECRETS",
    description: "Allow tools to show secrets held on routers (exports with show_sensitive)",
  }),
  optional({
    name: "audit-log",
    env: "ROUTER_AUDIT_LOG",
    arg: "<file>",
    description: "Append a JSON line per write attempt to this file",
    parse: nonEmpty("a file path"),
  }),
  optional({
    name: "audit-key-file",
    env: "ROUTER_AUDIT_KEY_FILE",
    arg: "<file>",
    description: "Seal the audit log with HMAC-SHA256, keyed by this file (mode 600)",
    parse: nonEmpty("a file path"),
  }),
  given({
    name: "state-dir",
    env: "ROUTER_STATE_DIR",
    arg: "<dir>",
    description: "Local directory for snapshots and downloaded backups (operations toolset)",
    default: "~/.local/state/mcp-server-router",
    parse: nonEmpty("a directory path"),
  }),
  optional({
    name: "files-dir",
    env: "ROUTER_FILES_DIR",
    arg: "<dir>",
    description:
      "The only local directory file transfers read from and write to (default <state-dir>/files)",
    parse: nonEmpty("a directory path"),
  }),
  onOff({
    name: "container",
    env: "ROUTER_CONTAINER",
    description: "Container entrypoint rules (default host 192.168.88.1)",
  }),
  onOff({
    name: "simulate",
    env: "ROUTER_SIMULATE",
    description: "Run against an embedded simulated router (demo)",
  }),
  given({
    name: "simulate-version",
    env: "ROUTER_SIMULATE_VERSION",
    arg: "<release>",
    description: "RouterOS release the embedded simulated router imitates, e.g. 6.49.13 or 7.24",
    default: "7.16.2",
    parse: routerRelease,
  }),
  given({
    name: "log-level",
    env: "ROUTER_LOG_LEVEL",
    arg: "<level>",
    description: "stderr log level: debug, info, warning or error",
    default: "info",
    parse: oneOf(LOG_LEVELS),
  }),
] as const;

/** The name of a setting: its flag without `--`. */
export type SettingName = (typeof SETTINGS)[number]["name"];

/** Every setting, parsed and typed: `settings["mcp.port"]` is a number. */
export type Settings = {
  readonly [S in (typeof SETTINGS)[number] as S["name"]]: S["default"];
};

/** Any row of the table, for code that walks all of them. */
export type AnySetting = Setting<SettingName, unknown>;

/** The four single-device settings an inventory replaces. */
export const SINGLE_DEVICE = ["host", "username", "password", "port"] as const;
