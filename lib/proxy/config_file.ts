/**
 * The proxy's configuration file: `{"mcpServers": {"<name>": {...}}}`, the
 * format Claude Desktop and mcpo use. Each entry is a stdio command or an
 * already running server reached over Streamable HTTP or SSE. Every
 * mistake is reported with the file, the entry and the field.
 *
 * @module
 */
import { ConfigError } from "../config/errors.ts";
import { parseJson } from "../http/json_location.ts";

/** A server the proxy starts as a child process and talks to over stdio. */
export interface StdioServerSpec {
  name: string;
  kind: "stdio";
  command: string;
  args: string[];
  /** Added to the proxy's own environment. */
  env: Record<string, string>;
  /** Working directory, when set. */
  cwd?: string;
}

/** A server that is already running, reached over HTTP. */
export interface RemoteServerSpec {
  name: string;
  kind: "streamable-http" | "sse";
  url: string;
  headers: Record<string, string>;
}

/** One configured MCP server. */
export type ServerSpec = StdioServerSpec | RemoteServerSpec;

/** Path segments the proxy itself answers at the top level. */
export const RESERVED_NAMES: readonly string[] = ["docs", "openapi.json", "health"];

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const STDIO_KEYS = ["type", "command", "args", "env", "cwd"];
const REMOTE_KEYS = ["type", "url", "headers"];

/** Read and check the configuration file at `path`. Throws `ConfigError`. */
export function loadProxyConfig(path: string): ServerSpec[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "no such file"
      : err instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : err instanceof Error
      ? err.message
      : String(err);
    throw new ConfigError(
      `proxy config ${path}: cannot read it (${why}); pass --config with the path of a JSON file ` +
        `like {"mcpServers": {"router": {"command": "mcp-server-router", "args": []}}}`,
    );
  }
  return parseProxyConfig(text, path, true);
}

/**
 * Check the text of a configuration file; `path` only names it in errors.
 * With `checkDirs`, each `cwd` must also be an existing directory.
 */
export function parseProxyConfig(text: string, path: string, checkDirs = false): ServerSpec[] {
  const parsed = parseJson(text.replace(/^\uFEFF/, ""));
  if ("error" in parsed) {
    const e = parsed.error;
    throw new ConfigError(
      `proxy config ${path}: invalid JSON at line ${e.line} column ${e.column}: ${e.message}`,
    );
  }
  const root = parsed.value;
  const fail = (where: string, problem: string): never => {
    throw new ConfigError(`proxy config ${path}: ${where} ${problem}`);
  };
  if (!isObject(root)) fail("the top level", 'must be an object like {"mcpServers": {...}}');
  const servers = (root as Record<string, unknown>).mcpServers;
  if (servers === undefined) fail('"mcpServers"', "is missing; list the servers to proxy there");
  if (!isObject(servers)) fail('"mcpServers"', "must be an object of named server entries");
  const entries = Object.entries(servers as Record<string, unknown>);
  if (entries.length === 0) fail('"mcpServers"', "is empty; add at least one server");
  return entries.map(([name, entry]) => checkEntry(name, entry, fail, checkDirs));
}

function checkEntry(
  name: string,
  entry: unknown,
  fail: (where: string, problem: string) => never,
  checkDirs: boolean,
): ServerSpec {
  const at = `server "${name}"`;
  if (!NAME.test(name)) {
    fail(at, "has a bad name: use 1-64 letters, digits, '_', '.' or '-' (it becomes a URL path)");
  }
  if (RESERVED_NAMES.includes(name)) {
    fail(at, `has a reserved name; pick another than ${RESERVED_NAMES.join(", ")}`);
  }
  if (!isObject(entry)) fail(at, 'must be an object with "command" or "url"');
  const e = entry as Record<string, unknown>;
  const type = e.type ?? (e.url !== undefined && e.command === undefined ? "" : "stdio");
  if (type === "") {
    fail(at, 'has "url" but no "type": set "type" to "streamable-http" or "sse"');
  }
  if (type !== "stdio" && type !== "streamable-http" && type !== "sse") {
    fail(`${at} field "type"`, 'must be "stdio", "streamable-http" or "sse"');
  }
  const known = type === "stdio" ? STDIO_KEYS : REMOTE_KEYS;
  for (const key of Object.keys(e)) {
    if (!known.includes(key)) {
      fail(
        `${at} field "${key}"`,
        `is not allowed for type ${type}; the fields are ${known.map((k) => `"${k}"`).join(", ")}`,
      );
    }
  }
  if (type === "stdio") {
    if (typeof e.command !== "string" || e.command.trim() === "") {
      fail(`${at} field "command"`, "must be a non-empty string: the program to start");
    }
    const args = e.args ?? [];
    if (!Array.isArray(args)) fail(`${at} field "args"`, 'must be a list of strings, e.g. ["--x"]');
    (args as unknown[]).forEach((a, i) => {
      if (typeof a !== "string") {
        fail(`${at} field "args[${i}]"`, "must be a string: put the value in double quotes");
      }
    });
    const env = stringMap(e.env, `${at} field "env"`, fail);
    if (e.cwd !== undefined && (typeof e.cwd !== "string" || e.cwd === "")) {
      fail(`${at} field "cwd"`, "must be a non-empty string: a directory");
    }
    if (typeof e.cwd === "string" && checkDirs && !isDirectory(e.cwd)) {
      fail(
        `${at} field "cwd"`,
        `names ${e.cwd}, which is not a directory; create it or fix "cwd"`,
      );
    }
    return {
      name,
      kind: "stdio",
      command: e.command as string,
      args: args as string[],
      env,
      ...(e.cwd !== undefined ? { cwd: e.cwd as string } : {}),
    };
  }
  if (typeof e.url !== "string") fail(`${at} field "url"`, "must be a string: the server's URL");
  let url: URL;
  try {
    url = new URL(e.url as string);
  } catch {
    return fail(`${at} field "url"`, "is not a valid URL, e.g. http://127.0.0.1:3000/mcp");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(`${at} field "url"`, "must start with http:// or https://");
  }
  const headers = stringMap(e.headers, `${at} field "headers"`, fail);
  return { name, kind: type as "streamable-http" | "sse", url: url.href, headers };
}

function stringMap(
  value: unknown,
  where: string,
  fail: (where: string, problem: string) => never,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) fail(where, 'must be an object of strings, e.g. {"NAME": "value"}');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== "string") {
      fail(`${where.slice(0, -1)}.${k}"`, "must be a string: put the value in double quotes");
    }
    out[k] = v as string;
  }
  return out;
}

/** Whether `path` is an existing directory (a `cwd` must be one). */
export function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function isObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
