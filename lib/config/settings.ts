/**
 * Every setting, declared once: flag, environment variable, default and
 * parser. The CLI's options and `--help` are generated from this table.
 *
 * @module
 */

/** A parsed setting value. */
export type SettingValue = string | number | boolean | string[];

/** One setting. */
export interface Setting {
  /** Key in the parsed settings record, also the flag without `--`. */
  name: string;
  /** Environment variable. */
  env: string;
  /** Placeholder for the value in help; absent for on/off switches. */
  arg?: string;
  description: string;
  /** Default, applied when neither flag nor environment sets it. */
  default?: SettingValue;
  /** Turn the raw text into a value, or throw an Error that says the fix. */
  parse: (raw: string) => SettingValue;
  /** Never echo the value. */
  secret?: boolean;
}

/** `--mcp.allowed-hosts` → `ROUTER_MCP__ALLOWED_HOSTS`. */
export function envName(name: string): string {
  return "ROUTER_" + name.replaceAll(".", "__").replaceAll("-", "_").toUpperCase();
}

const asText = (raw: string): string => raw;

function integer(min: number, max: number, unit = "") {
  return (raw: string): number => {
    const t = raw.trim();
    if (!/^\d+$/.test(t) || Number(t) < min || Number(t) > max) {
      throw new Error(`expected a whole number from ${min} to ${max}${unit}`);
    }
    return Number(t);
  };
}

function seconds(min: number, max: number) {
  return (raw: string): number => {
    const t = raw.trim();
    const n = Number(t);
    if (t === "" || !Number.isFinite(n) || n < min || n > max) {
      throw new Error(`expected a number of seconds from ${min} to ${max}`);
    }
    return n;
  };
}

function oneOf(values: string[]) {
  return (raw: string): string => {
    const t = raw.trim();
    if (!values.includes(t)) throw new Error(`expected one of: ${values.join(", ")}`);
    return t;
  };
}

/** Parse an on/off value from the environment (`1`, `true`, `yes`, `0`, ...). */
export function parseSwitch(raw: string): boolean {
  const t = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(t)) return true;
  if (["0", "false", "no", "off", ""].includes(t)) return false;
  throw new Error("expected true or false (1/0, yes/no)");
}

const commaList = (raw: string): string[] =>
  raw.split(",").map((s) => s.trim()).filter((s) => s !== "");

/** The transports the server speaks. */
export const TRANSPORTS = ["stdio", "sse", "streamable-http"] as const;

/** Every setting of the server. */
export const SETTINGS: readonly Setting[] = [
  {
    name: "host",
    env: "ROUTER_HOST",
    arg: "<address>",
    description: "Router address (host name or IP); required without an inventory",
    parse: asText,
  },
  {
    name: "username",
    env: "ROUTER_USERNAME",
    arg: "<user>",
    description: "SSH user",
    default: "admin",
    parse: asText,
  },
  {
    name: "password",
    env: "ROUTER_PASSWORD",
    arg: "<password>",
    description: "SSH password",
    default: "",
    parse: asText,
    secret: true,
  },
  {
    name: "key-filename",
    env: "ROUTER_KEY_FILENAME",
    arg: "<file>",
    description: "Private key file (ed25519, ecdsa or rsa; OpenSSH or PEM)",
    parse: asText,
  },
  {
    name: "key-passphrase",
    env: "ROUTER_KEY_PASSPHRASE",
    arg: "<passphrase>",
    description: "Passphrase of the private key",
    parse: asText,
    secret: true,
  },
  {
    name: "port",
    env: "ROUTER_PORT",
    arg: "<port>",
    description: "SSH port",
    default: 22,
    parse: integer(1, 65535),
  },
  {
    name: "mcp.transport",
    env: "ROUTER_MCP__TRANSPORT",
    arg: "<transport>",
    description: "MCP transport: stdio, sse or streamable-http",
    default: "stdio",
    parse: oneOf([...TRANSPORTS]),
  },
  {
    name: "mcp.host",
    env: "ROUTER_MCP__HOST",
    arg: "<address>",
    description: "HTTP listen address",
    default: "0.0.0.0",
    parse: asText,
  },
  {
    name: "mcp.port",
    env: "ROUTER_MCP__PORT",
    arg: "<port>",
    description: "HTTP listen port",
    default: 8000,
    parse: integer(0, 65535),
  },
  {
    name: "mcp.allowed-hosts",
    env: "ROUTER_MCP__ALLOWED_HOSTS",
    arg: "<list>",
    description:
      "Allowed Host header values, comma-separated (host, host:port, host:*, or * for any)",
    default: [],
    parse: commaList,
  },
  {
    name: "mcp.allowed-origins",
    env: "ROUTER_MCP__ALLOWED_ORIGINS",
    arg: "<list>",
    description:
      "Allowed Origin header values, comma-separated (https://app.example.com, port * allowed)",
    default: [],
    parse: commaList,
  },
  {
    name: "mcp.stateless",
    env: "ROUTER_MCP__STATELESS",
    description: "streamable-http without sessions (for replicas behind a load balancer)",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "mcp.session-timeout",
    env: "ROUTER_MCP__SESSION_TIMEOUT",
    arg: "<seconds>",
    description: "Idle HTTP sessions expire after this many seconds",
    default: 1800,
    parse: seconds(1, 604800),
  },
  {
    name: "mcp.max-sessions",
    env: "ROUTER_MCP__MAX_SESSIONS",
    arg: "<n>",
    description: "Most HTTP sessions open at once; more get 503",
    default: 256,
    parse: integer(1, 100000),
  },
  {
    name: "inventory",
    env: "ROUTER_INVENTORY",
    arg: "<yaml>",
    description: "Inline inventory: YAML or JSON list of devices",
    parse: asText,
    secret: true,
  },
  {
    name: "inventory-file",
    env: "ROUTER_INVENTORY_FILE",
    arg: "<file>",
    description: "Inventory file (YAML)",
    parse: asText,
  },
  {
    name: "connect-timeout",
    env: "ROUTER_CONNECT_TIMEOUT",
    arg: "<seconds>",
    description: "SSH connect timeout",
    default: 10,
    parse: seconds(0.1, 600),
  },
  {
    name: "command-timeout",
    env: "ROUTER_COMMAND_TIMEOUT",
    arg: "<seconds>",
    description: "Per-command timeout",
    default: 30,
    parse: seconds(0.1, 3600),
  },
  {
    name: "known-hosts",
    env: "ROUTER_KNOWN_HOSTS",
    arg: "<file>",
    description: "OpenSSH known_hosts file for host key checks",
    default: "~/.config/mcp-server-router/known_hosts",
    parse: asText,
  },
  {
    name: "host-key-policy",
    env: "ROUTER_HOST_KEY_POLICY",
    arg: "<policy>",
    description: "Host key policy: strict, accept-new or off",
    default: "accept-new",
    parse: oneOf(["strict", "accept-new", "off"]),
  },
  {
    name: "max-channels",
    env: "ROUTER_MAX_CHANNELS",
    arg: "<n>",
    description: "Concurrent commands per device connection",
    default: 4,
    parse: integer(1, 64),
  },
  {
    name: "keepalive",
    env: "ROUTER_KEEPALIVE",
    arg: "<seconds>",
    description: "SSH keepalive interval (0 turns it off)",
    default: 15,
    parse: seconds(0, 3600),
  },
  {
    name: "idle-timeout",
    env: "ROUTER_IDLE_TIMEOUT",
    arg: "<seconds>",
    description: "Close a device connection idle this long",
    default: 300,
    parse: seconds(1, 86400),
  },
  {
    name: "max-dialing",
    env: "ROUTER_MAX_DIALING",
    arg: "<n>",
    description: "SSH connections being opened at once",
    default: 32,
    parse: integer(1, 1024),
  },
  {
    name: "max-output",
    env: "ROUTER_MAX_OUTPUT",
    arg: "<bytes>",
    description: "Largest command output accepted",
    default: 16 * 1024 * 1024,
    parse: integer(1024, 1024 * 1024 * 1024),
  },
  {
    name: "toolsets",
    env: "ROUTER_TOOLSETS",
    arg: "<list>",
    description: "Toolsets to expose, comma-separated, or all",
    default: ["all"],
    parse: commaList,
  },
  {
    name: "dynamic-toolsets",
    env: "ROUTER_DYNAMIC_TOOLSETS",
    description: "Start with only the toolset discovery tools",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "allow-raw-commands",
    env: "ROUTER_ALLOW_RAW_COMMANDS",
    description: "Register router_run_command (raw RouterOS commands)",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "read-only",
    env: "ROUTER_READ_ONLY",
    description: "Register read-only tools only",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "audit-log",
    env: "ROUTER_AUDIT_LOG",
    arg: "<file>",
    description: "Append a JSON line per write attempt to this file",
    parse: asText,
  },
  {
    name: "container",
    env: "ROUTER_CONTAINER",
    description: "Container entrypoint rules (default host 192.168.88.1)",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "simulate",
    env: "ROUTER_SIMULATE",
    description: "Run against an embedded simulated router (demo)",
    default: false,
    parse: parseSwitch,
  },
  {
    name: "log-level",
    env: "ROUTER_LOG_LEVEL",
    arg: "<level>",
    description: "stderr log level: debug, info, warning or error",
    default: "info",
    parse: oneOf(["debug", "info", "warning", "error"]),
  },
];

/** The four single-device settings an inventory replaces. */
export const SINGLE_DEVICE = ["host", "username", "password", "port"] as const;
