/**
 * A client's whole tool list: `tools/list` page by page, following
 * `nextCursor` (a server may cut its list into pages, as this one does
 * with every toolset). Used by the REST proxy, the tests and the
 * benchmarks.
 *
 * @module
 */
import type { Client } from "./client.ts";
import type { Tool } from "./types.ts";

/** The most pages one listing follows before it calls the server's cursors a loop. */
const MAX_PAGES = 1000;

/** Each page of `tools/list`, in order, from the start. `timeout`: per request, in ms. */
export async function listToolPages(client: Client, timeout?: number): Promise<Tool[][]> {
  const pages: Tool[][] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(
      cursor === undefined ? undefined : { cursor },
      timeout === undefined ? undefined : { timeout },
    );
    pages.push(page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined && (seen.has(cursor) || pages.length >= MAX_PAGES)) {
      throw new Error(`tools/list: the server's nextCursor loops (${pages.length} pages)`);
    }
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return pages;
}

/** Every tool the server lists: its pages of `tools/list`, joined. */
export async function listAllTools(client: Client, timeout?: number): Promise<Tool[]> {
  return (await listToolPages(client, timeout)).flat();
}
