/**
 * The documented placeholders and what the examples' test puts in their
 * place: each stands for something of the reader's own (their router,
 * their checkout, their inventory file, a free port), so an example with
 * them replaced is still what a reader types against a real router.
 *
 * | in the docs                                           | in the test                              |
 * | ----------------------------------------------------- | ---------------------------------------- |
 * | `npx -y deno@X.Y.Z` (`X.Y.Z` this Deno's release)     | `deno` (the same release, already here)  |
 * | `/path/to/mcp-server-router`                          | this checkout                            |
 * | `/usr/local/bin/mcp-server-router` (the binary)       | the `mcp-server-router` command          |
 * | `/etc/mcp-server-router/inventory.yaml`, `inventory.yaml` | an inventory of simulated core-1, edge-1, edge-2 |
 * | `/etc/mcp-server-router/keys.yaml`                    | a keys file with one admin key           |
 * | a router address (`192.168.88.1`, `10.0.0.1`) given to `--host` / `ROUTER_HOST` | a simulated router with the example's user and password (its port in `ROUTER_PORT`, its key in known_hosts) |
 * | port `8000` of a server the example starts            | a free port                              |
 * | `http://10.0.0.5:3000/mcp` (a remote MCP server)      | the demo on streamable HTTP              |
 * | a snapshot id (`core-1/20261125T003656123Z`)          | a snapshot this run took                 |
 *
 * @module
 */
import type { DocWorld } from "./doc_world.ts";

/** Router addresses the docs use for "your router". */
export const ROUTER_ADDRESSES = ["192.168.88.1", "10.0.0.1"];

/** The remote MCP server a proxy configuration names. */
export const REMOTE_SERVER = "http://10.0.0.5:3000/mcp";

/** Paths and commands of the reader's own, replaced in any text of an example. */
export function substitutePaths(text: string, world: DocWorld): string {
  const root = world.root.replace(/\/$/, "");
  return text
    .replace(/npx -y deno@(\d+\.\d+\.\d+)/g, (_, v) => {
      if (v !== Deno.version.deno) {
        console.log(`note: the docs name deno@${v}; this test runs Deno ${Deno.version.deno}`);
      }
      return "deno";
    })
    .replaceAll("/path/to/mcp-server-router", root)
    .replaceAll("/usr/local/bin/mcp-server-router", "mcp-server-router")
    .replaceAll("/etc/mcp-server-router/inventory.yaml", world.inventoryFile)
    .replaceAll("/etc/mcp-server-router/keys.yaml", world.keysFile);
}

/** A server entry of an `mcpServers` (or VS Code `servers`) configuration. */
export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
  cwd?: string;
}

/** The value after `flag` in `args`. */
function after(args: readonly string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * A configuration entry with the placeholders replaced: paths, and a router
 * address given with `--host` or `ROUTER_HOST` pointed at a simulated router
 * that takes the entry's user and password.
 */
export async function substituteEntry(entry: ServerEntry, world: DocWorld): Promise<ServerEntry> {
  const out: ServerEntry = JSON.parse(substitutePaths(JSON.stringify(entry), world));
  if (out.url === REMOTE_SERVER) out.url = await world.httpDemo();
  const args = out.args ?? [];
  const env = { ...(out.env ?? {}) };
  const host = after(args, "--host") ?? env.ROUTER_HOST;
  if (host !== undefined && ROUTER_ADDRESSES.includes(host)) {
    const user = after(args, "--username") ?? env.ROUTER_USERNAME ?? "admin";
    const password = after(args, "--password") ?? env.ROUTER_PASSWORD ?? "";
    const router = await world.routerFor(user, password);
    const at = args.indexOf("--host");
    if (at >= 0) args[at + 1] = router.host;
    else env.ROUTER_HOST = router.host;
    const port = args.indexOf("--port");
    if (port >= 0) args[port + 1] = String(router.port);
    else env.ROUTER_PORT = String(router.port);
  }
  return { ...out, ...(out.args ? { args } : {}), ...(Object.keys(env).length ? { env } : {}) };
}

/** A snapshot id of the docs: `<device>/<UTC time>`. */
export const SNAPSHOT_ID = /\b([\w.-]+)\/(\d{8}T\d{9}Z)\b/g;

/**
 * The docs' snapshot ids replaced by real ones of the same device, matched
 * newest to newest (the docs' ids sorted by their time).
 */
export function substituteSnapshots(
  text: string,
  docIds: readonly string[],
  realIds: (device: string) => string[],
): string {
  return text.replace(SNAPSHOT_ID, (id, device) => {
    const mine = [...new Set(docIds.filter((d) => d.startsWith(`${device}/`)))].sort();
    const real = realIds(device).sort();
    const fromNewest = mine.length - 1 - mine.indexOf(id);
    const pick = real[real.length - 1 - fromNewest];
    if (!pick) throw new Error(`${id}: the run has no snapshot of ${device} to stand for it`);
    return pick;
  });
}
