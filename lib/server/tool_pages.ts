/**
 * `tools/list` in pages (the MCP `cursor` and `nextCursor`), cut by bytes:
 * every toolset at once is over a megabyte of JSON, more than some clients
 * take in one message (the Python SDK drops an HTTP event over 1 MiB), so
 * a page takes at most {@linkcode PAGE_BYTES} on the wire, and always
 * holds at least one tool. What a session lists by default (the core
 * tools, far below a page) is one page, unchanged, so a client that ignores
 * `nextCursor` misses nothing there.
 *
 * A cursor is a position in the server's fixed order of tools: "after
 * this tool". It holds no session state, so it stays valid whatever the
 * session does between two pages, across HTTP sessions and across
 * restarts of the same configuration. When a session enables or disables
 * toolsets between two pages, the next page lists the tools after the
 * cursor as they are listed now: no tool comes twice in one walk, and a
 * tool enabled before the cursor's position is not in this walk; the
 * change also sends `notifications/tools/list_changed`, on which a client
 * lists again from the start. A cursor that is not one this server made
 * is a JSON-RPC invalid-params error (-32602) that says so.
 *
 * @module
 */
import type { Tool } from "../mcp_sdk/types.ts";
import type { ToolDef } from "../tools/tool.ts";
import { INVALID_PARAMS, RequestError } from "./reads.ts";

/**
 * The most bytes a `tools/list` message takes, as JSON-RPC on stdio or as
 * an event on HTTP: half of the 512 KiB a message must stay well under.
 */
export const PAGE_BYTES = 256 * 1024;

/**
 * What a page's tool entries leave for the rest: the JSON-RPC envelope and
 * its id, `nextCursor` (a tool name is at most 64 characters) and an SSE
 * event's framing take under 300 bytes.
 */
const FRAME_BYTES = 512;

/** One `tools/list` answer (a type, not an interface: the SDK wants an index signature). */
export type ToolPage = {
  tools: Tool[];
  nextCursor?: string;
};

const PREFIX = "after:";
const encoder = new TextEncoder();
/** Bytes of each entry's JSON (entries are made once per process and shared). */
const sizes = new WeakMap<Tool, number>();

function bytesOf(entry: Tool): number {
  let n = sizes.get(entry);
  if (n === undefined) sizes.set(entry, n = encoder.encode(JSON.stringify(entry)).length);
  return n;
}

/** The cursor that continues after `tool`: opaque to clients. */
export function cursorAfter(tool: string): string {
  return btoa(PREFIX + tool).replace(/=+$/, "");
}

/** The position a cursor names in `offered`, or an invalid-params error. */
function startOf(offered: readonly ToolDef[], cursor: string): number {
  let text: string | undefined;
  try {
    text = atob(cursor);
  } catch {
    text = undefined;
  }
  const name = text?.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
  const at = name === undefined ? -1 : offered.findIndex((t) => t.name === name);
  if (at < 0) {
    throw new RequestError(
      INVALID_PARAMS,
      `invalid cursor ${JSON.stringify(cursor.slice(0, 100))}: tools/list takes the ` +
        "nextCursor of this server's previous tools/list answer, or no cursor to start over",
    );
  }
  return at + 1;
}

/**
 * The page of `tools/list` that starts after `cursor` (at the start
 * without one): the tools of `offered` (the server's tools, in their fixed
 * order) that the session `lists`, as their `entry`, up to `pageBytes` of
 * entries (their JSON and the commas between).
 */
export function toolPage(
  offered: readonly ToolDef[],
  lists: (tool: ToolDef) => boolean,
  entry: (tool: ToolDef) => Tool,
  cursor: string | undefined,
  pageBytes: number = PAGE_BYTES - FRAME_BYTES,
): ToolPage {
  const tools: Tool[] = [];
  let bytes = 0;
  for (let i = cursor === undefined ? 0 : startOf(offered, cursor); i < offered.length; i++) {
    if (!lists(offered[i])) continue;
    const e = entry(offered[i]);
    const size = bytesOf(e) + (tools.length ? 1 : 0);
    if (tools.length && bytes + size > pageBytes) {
      return { tools, nextCursor: cursorAfter(tools[tools.length - 1].name) };
    }
    tools.push(e);
    bytes += size;
  }
  return { tools };
}
