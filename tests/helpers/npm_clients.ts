/**
 * Third-party MCP clients from npm, at pinned versions, for the client
 * tests: the MCP Inspector (its headless `--cli` mode) and mcp-remote (the
 * stdio ⇄ HTTP bridge Claude Desktop users run). They are installed once
 * into a cache directory, which `.ci/run` fills before the tests by running
 * this module; a test that finds them missing installs them itself. A test
 * skips, saying why, only when node or npm is missing or the npm registry
 * cannot be reached; any other install failure fails it.
 *
 * @module
 */
import { findProgram } from "./env.ts";

/** The clients, pinned. */
export const PACKAGES = {
  inspector: { name: "@modelcontextprotocol/inspector", version: "2.12.0", bin: "mcp-inspector" },
  mcpRemote: { name: "mcp-remote", version: "0.15.1", bin: "mcp-remote" },
} as const;

/** Where they are installed: `$XDG_CACHE_HOME` (or `~/.cache`)/mcp-server-router/npm-clients. */
export const CLIENTS_DIR = `${
  Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`
}/mcp-server-router/npm-clients`;

/** The installed clients: node, and the script each client's command runs. */
export interface NpmClients {
  node: string;
  inspector: string;
  mcpRemote: string;
  /** `name@version` of each, for the log. */
  versions: string[];
}

/** The script a package's `bin` runs, when the pinned version is installed. */
function installedBin(pkg: { name: string; version: string; bin: string }): string | undefined {
  const dir = `${CLIENTS_DIR}/node_modules/${pkg.name}`;
  try {
    const meta = JSON.parse(Deno.readTextFileSync(`${dir}/package.json`));
    if (meta.version !== pkg.version) return undefined;
    const bin = typeof meta.bin === "string" ? meta.bin : meta.bin?.[pkg.bin];
    return bin ? `${dir}/${bin}` : undefined;
  } catch {
    return undefined;
  }
}

async function npm(args: string[], timeoutMs: number): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command("npm", {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output().catch((err) => ({ success: false, stdout: new Uint8Array(), stderr: err }));
  const text = (b: unknown) => b instanceof Uint8Array ? new TextDecoder().decode(b) : String(b);
  return { ok: out.success, output: `${text(out.stdout)}${text(out.stderr)}`.trim() };
}

/** Install the pinned clients into {@linkcode CLIENTS_DIR} (scripts not run). */
export async function installClients(): Promise<{ ok: boolean; output: string }> {
  await Deno.mkdir(CLIENTS_DIR, { recursive: true });
  return await npm([
    "install",
    "--prefix",
    CLIENTS_DIR,
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--loglevel=error",
    ...Object.values(PACKAGES).map((p) => `${p.name}@${p.version}`),
  ], 300_000);
}

/**
 * The clients, installed if need be, or why a test cannot run them
 * (printed by the caller as its SKIP line). Throws when npm is there and
 * reachable but the install fails.
 */
export async function npmClients(): Promise<NpmClients | { skip: string }> {
  const node = findProgram("node");
  if (!node) return { skip: "node is not installed" };
  if (!findProgram("npm")) return { skip: "npm is not installed" };
  const find = () => ({
    inspector: installedBin(PACKAGES.inspector),
    mcpRemote: installedBin(PACKAGES.mcpRemote),
  });
  let found = find();
  if (!found.inspector || !found.mcpRemote) {
    const installed = await installClients();
    found = find();
    if (!found.inspector || !found.mcpRemote) {
      const ping = await npm(["ping"], 30_000);
      if (!ping.ok) return { skip: `the npm registry is unreachable (npm ping: ${ping.output})` };
      throw new Error(`npm install into ${CLIENTS_DIR} failed:\n${installed.output}`);
    }
  }
  return {
    node,
    inspector: found.inspector,
    mcpRemote: found.mcpRemote,
    versions: Object.values(PACKAGES).map((p) => `${p.name}@${p.version}`),
  };
}

if (import.meta.main) {
  // `.ci/run`: install before the tests, so that no test spends its time on it.
  const clients = await npmClients();
  if ("skip" in clients) console.log(`npm clients not installed: ${clients.skip}`);
  else console.log(`npm clients in ${CLIENTS_DIR}: ${clients.versions.join(", ")}`);
}
