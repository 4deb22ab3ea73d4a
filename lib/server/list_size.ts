/**
 * What a `tools/list` answer costs an agent, in bytes of JSON: the figure
 * the docs and the benchmark print, for what a single-device server lists
 * by default and with `--toolsets all`, and the pages `tools/list` sends
 * the latter in. Computed from the same entries a session sends (tests
 * check it against an SDK client's answer).
 *
 * @module
 */
import { markedEntry } from "./request_principal.ts";
import type { Tool } from "../mcp_sdk/types.ts";
import type { ToolDef } from "../tools/tool.ts";
import { ToolList } from "./tool_list.ts";
import { toolPage } from "./tool_pages.ts";
import { type SelectionSettings, selectTools } from "./tool_selection.ts";

/** The size of one `tools/list` answer. */
export interface ListSize {
  tools: number;
  /** Bytes of `{"tools":[...]}` as JSON without whitespace. */
  bytes: number;
  /** Bytes per tool, rounded. */
  average: number;
  /** The largest tool entry. */
  largest: { name: string; bytes: number };
}

/** Budgets the project holds itself to (tests fail above them). */
export const LIST_BUDGET = {
  /** The default (core) list, in bytes. */
  defaultBytes: 100_000,
  /** Bytes per tool over `--toolsets all`. */
  allAverage: 1600,
};

const bytesOf = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

/** Measure a `tools/list` answer. */
export function measureList(tools: readonly Tool[]): ListSize {
  let largest = { name: "", bytes: 0 };
  for (const t of tools) {
    const bytes = bytesOf(t);
    if (bytes > largest.bytes) largest = { name: t.name, bytes };
  }
  const bytes = bytesOf({ tools });
  return {
    tools: tools.length,
    bytes,
    average: tools.length ? Math.round(bytes / tools.length) : 0,
    largest,
  };
}

/** What a new session of a single-device server lists with these toolsets, and its entries. */
function listed(toolsets: string[]): { tools: ToolDef[]; list: ToolList } {
  const settings: SelectionSettings = {
    toolsets,
    "read-only": false,
    "allow-raw-commands": false,
    "dynamic-toolsets": false,
  };
  const selection = selectTools({ settings });
  return {
    tools: selection.all.filter((t) => selection.initial.has(t.name)),
    list: new ToolList([]),
  };
}

/** The entries a new session of a single-device server lists with these toolsets. */
export function listedEntries(toolsets: string[]): Tool[] {
  const { tools, list } = listed(toolsets);
  // As the wire carries them: admin tools with their role marker (request_principal.ts).
  return tools.map((t) => markedEntry(list.entry(t), t));
}

/**
 * Bytes of each `tools/list` answer (`{"tools":[...],"nextCursor":...}`)
 * of these toolsets, page by page (lib/server/tool_pages.ts).
 */
export function pageSizes(toolsets: string[]): number[] {
  const { tools, list } = listed(toolsets);
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = toolPage(tools, () => true, (t) => markedEntry(list.entry(t), t), cursor);
    sizes.push(bytesOf(page));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return sizes;
}

/**
 * The sizes of the default list and of `--toolsets all` (single device, no
 * raw commands), and the bytes of each page `--toolsets all` is sent in.
 */
export function catalogueSizes(): { default: ListSize; all: ListSize; pages: number[] } {
  return {
    default: measureList(listedEntries(["default"])),
    all: measureList(listedEntries(["all"])),
    pages: pageSizes(["all"]),
  };
}
