/**
 * `tools/list` in pages: with every toolset, each message a client reads
 * stays under 512 KiB on stdio (raw bytes of the process's stdout) and on
 * streamable HTTP (raw bytes of the response body), and following
 * `nextCursor` yields the whole catalogue once, in order, exactly as
 * `ToolList` makes it. A client that ignores cursors gets the default list
 * whole on the first page; a bad cursor is a -32602 error that says so;
 * a cursor survives the session's toolsets changing between two pages.
 */
import assert from "node:assert/strict";
import type { Tool } from "../lib/mcp_sdk/types.ts";
import { listedEntries } from "../lib/server/list_size.ts";
import { PAGE_BYTES } from "../lib/server/tool_pages.ts";
import { startSimulator } from "../lib/sim/mod.ts";
import { catalogue } from "../lib/tools/catalogue.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";
import { childEnv } from "./helpers/env.ts";
import { serveInProcess } from "./helpers/in_process.ts";
import { JsonRpcStdio, type RawMessage } from "./helpers/jsonrpc_stdio.ts";
import { callTool, DENO, listAllTools, listToolPages, MAIN } from "./helpers/mcp.ts";
import { INITIALIZE, MCP_POST, startInProcess } from "./http_helpers.ts";

const LIMIT = 512 * 1024;

/** Every page of `tools/list` through `list`, from the start. */
async function walk(list: (cursor?: string) => Promise<RawMessage>): Promise<RawMessage[]> {
  const pages: RawMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    assert.ok(page.message.result, JSON.stringify(page.message.error));
    pages.push(page);
    cursor = page.message.result.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

/** Each page under the limit, several pages, and the catalogue exactly once. */
function checkPages(transport: string, pages: RawMessage[]): void {
  const sizes = pages.map((p) => p.bytes);
  const counts = pages.map((p) => p.message.result.tools.length);
  console.log(`${transport}: ${pages.length} pages, ${sizes.join(" + ")} bytes, ${counts} tools`);
  for (const size of sizes) {
    assert.ok(size < LIMIT, `a ${size}-byte tools/list message`);
    assert.ok(size <= PAGE_BYTES, `a ${size}-byte tools/list message, over the page size`);
  }
  assert.ok(pages.length > 1, "--toolsets all is more than one page");
  const tools = pages.flatMap((p) => p.message.result.tools as Tool[]);
  const expected = JSON.parse(JSON.stringify(listedEntries(["all"])));
  assert.equal(new Set(tools.map((t) => t.name)).size, tools.length, "no tool twice");
  assert.deepEqual(tools, expected);
}

Deno.test("stdio, --toolsets all: every tools/list message < 512 KiB; cursors walk it once", async () => {
  const sim = await startSimulator();
  const home = await Deno.makeTempDir({ prefix: "pages-" });
  const server = new JsonRpcStdio(
    DENO,
    ["run", "--allow-all", MAIN, "--toolsets", "all", "--host", sim.host, "--port", `${sim.port}`],
    childEnv({}, home),
  );
  try {
    await server.initialize();
    checkPages(
      "stdio",
      await walk((cursor) => server.request("tools/list", cursor ? { cursor } : undefined)),
    );
    for (const cursor of ["nonsense", btoa("after:router_no_such_tool"), ""]) {
      const bad = await server.request("tools/list", { cursor });
      assert.equal(bad.message.error?.code, -32602, JSON.stringify(bad.message));
      assert.match(
        bad.message.error.message,
        /^invalid cursor .*: tools\/list takes the nextCursor/,
      );
    }
  } finally {
    await server.close();
    await sim.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});

Deno.test("streamable-http, --toolsets all: every response < 512 KiB; cursors walk it once", async () => {
  const sim = await startSimulator();
  const server = await startInProcess(sim, {}, { toolsets: "all" });
  const url = `${server.base}/mcp`;
  try {
    const init = await fetch(url, {
      method: "POST",
      headers: Object.fromEntries(MCP_POST),
      body: INITIALIZE,
    });
    await init.text();
    const headers = {
      ...Object.fromEntries(MCP_POST),
      "Mcp-Session-Id": init.headers.get("mcp-session-id")!,
      "Mcp-Protocol-Version": "2025-06-18",
    };
    const send = async (body: Record<string, unknown>) =>
      await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    await (await send({ jsonrpc: "2.0", method: "notifications/initialized" })).body?.cancel();
    let id = 2;
    const list = async (cursor?: string): Promise<RawMessage> => {
      const res = await send({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/list",
        ...(cursor ? { params: { cursor } } : {}),
      });
      const body = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(body);
      // An SSE event ("event: message", "data: <the message>") or the JSON itself.
      const json = res.headers.get("content-type")?.startsWith("text/event-stream")
        ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("")
        : text;
      return { message: JSON.parse(json), bytes: body.length };
    };
    checkPages("streamable-http", await walk(list));
  } finally {
    await server.close();
    await sim.close();
  }
});

Deno.test("a client that ignores cursors gets the default list whole, in one page", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    `${sim.port}`,
    "--toolsets",
    "default",
  ]);
  try {
    const first = await session.client.listTools();
    assert.equal(first.nextCursor, undefined);
    assert.deepEqual(first.tools, JSON.parse(JSON.stringify(listedEntries(["default"]))));
    assert.ok(first.tools.some((t) => t.name === "router_enable_toolsets"));
  } finally {
    await session.close();
    await sim.close();
  }
});

Deno.test("a cursor stays valid while the session's toolsets change between pages", async () => {
  const sim = await startSimulator();
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    `${sim.port}`,
    "--dynamic-toolsets",
  ]);
  try {
    const enabled = await callTool(session, "router_enable_toolsets", { toolsets: [...TOOLSETS] });
    assert.ok(!enabled.isError, enabled.content[0]?.text);
    const pages = await listToolPages(session.client);
    assert.ok(pages.length > 2, `${pages.length} pages`);
    const everything = pages.flat().map((t) => t.name);
    const first = await session.client.listTools();
    assert.deepEqual(first.tools.map((t) => t.name), pages[0].map((t) => t.name));
    // The last toolset of the first page goes away, and one whose tools all come later too.
    const gone = [toolsetOf(first.tools.at(-1)!.name), toolsetOf(pages.at(-1)!.at(-1)!.name)];
    const off = await callTool(session, "router_disable_toolsets", { toolsets: gone });
    assert.ok(!off.isError, off.content[0]?.text);
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await session.client.listTools({ cursor });
      rest.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    }
    const now = new Set((await listAllTools(session.client)).map((t) => t.name));
    const after = everything.slice(pages[0].length);
    assert.deepEqual(rest, after.filter((n) => now.has(n)), "the walk goes on where it was");
    assert.ok(rest.length < after.length, "the disabled toolsets' later tools are not listed");
  } finally {
    await session.close();
    await sim.close();
  }
});

/** A tool's toolset, from the catalogue. */
function toolsetOf(name: string): string {
  return catalogue().find((t) => t.name === name)!.toolset;
}
