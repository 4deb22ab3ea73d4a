/**
 * `tools/list` pages (lib/server/tool_pages.ts): cut by bytes, at least one
 * tool each, a cursor that names a position in the server's order of tools
 * and survives the listed set changing, and a clear error for any other.
 */
import assert from "node:assert/strict";
import type { Tool } from "../../lib/mcp_sdk/types.ts";
import { RequestError } from "../../lib/server/reads.ts";
import { cursorAfter, toolPage } from "../../lib/server/tool_pages.ts";
import type { ToolDef } from "../../lib/tools/tool.ts";

/** Ten tools whose entries are about `size` bytes of JSON each. */
const offered = Array.from({ length: 10 }, (_, i) => ({ name: `t${i}` }) as ToolDef);
const entries = new Map(offered.map((t) => [t, { name: t.name, description: "x".repeat(80) }]));
const entry = (t: ToolDef) => entries.get(t) as unknown as Tool;
const SIZE = JSON.stringify(entry(offered[0])).length;

function walk(lists: (t: ToolDef) => boolean, pageBytes: number): string[][] {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = toolPage(offered, lists, entry, cursor, pageBytes);
    pages.push(page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

Deno.test("pages hold as many entries as fit their bytes, commas counted", () => {
  const all = () => true;
  assert.deepEqual(walk(all, 10 * SIZE + 9), [offered.map((t) => t.name)]);
  assert.deepEqual(walk(all, 10 * SIZE + 8).map((p) => p.length), [9, 1]);
  assert.deepEqual(walk(all, 3 * SIZE + 2).map((p) => p.length), [3, 3, 3, 1]);
  // An entry larger than a page still goes, alone.
  assert.deepEqual(walk(all, 10).map((p) => p.length), Array(10).fill(1));
  assert.deepEqual(walk((t) => t.name === "t4" || t.name === "t9", 1), [["t4"], ["t9"]]);
  assert.deepEqual(walk(() => false, 1), [[]]);
});

Deno.test("a cursor is a position: the listed set may change between pages", () => {
  const listed = new Set(offered.map((t) => t.name));
  const first = toolPage(offered, (t) => listed.has(t.name), entry, undefined, 3 * SIZE + 2);
  assert.deepEqual(first.tools.map((t) => t.name), ["t0", "t1", "t2"]);
  // t2 (the cursor's own tool), t5 and t1 go; the walk goes on after t2.
  for (const n of ["t1", "t2", "t5"]) listed.delete(n);
  const next = toolPage(offered, (t) => listed.has(t.name), entry, first.nextCursor, 3 * SIZE + 2);
  assert.deepEqual(next.tools.map((t) => t.name), ["t3", "t4", "t6"]);
  // The last tool's cursor gives an empty last page.
  assert.deepEqual(toolPage(offered, () => true, entry, cursorAfter("t9")), { tools: [] });
});

Deno.test("a cursor this server did not make is invalid params (-32602), said plainly", () => {
  for (const cursor of ["", "x", "%%%", btoa("after:nope"), btoa("t3"), "t3"]) {
    assert.throws(() => toolPage(offered, () => true, entry, cursor), (err: unknown) => {
      assert.ok(err instanceof RequestError, String(err));
      assert.equal(err.code, -32602);
      assert.match(err.message, /^invalid cursor ".*": tools\/list takes the nextCursor/);
      return true;
    });
  }
});
