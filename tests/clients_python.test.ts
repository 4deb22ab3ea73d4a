/**
 * The demo server (`main.ts --simulate --toolsets all`) as a Python agent
 * sees it through the `mcp` SDK, over streamable HTTP and over SSE: every
 * tool, page by page (the SDK drops an HTTP event over 1 MiB, which one
 * unpaged list was), a read, a write with `dry_run: true`, a resource and
 * a prompt. Runs where `python3 -c 'import mcp'` works; skips, saying so,
 * elsewhere (PyPI is out of reach on some machines: `pip install mcp`).
 */
import assert from "node:assert/strict";
import { listedEntries } from "../lib/server/list_size.ts";
import { childEnv, findProgram } from "./helpers/env.ts";
import { spawnHttp } from "./http_helpers.ts";

/** Why the Python client cannot run here, if it cannot. */
async function pythonMissing(): Promise<string | undefined> {
  if (!findProgram("python3")) return "python3 is not installed";
  const r = await new Deno.Command("python3", {
    args: ["-c", "import mcp"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  return r.success ? undefined : "the Python mcp package is not installed (pip install mcp)";
}

const skip = await pythonMissing();
if (skip) console.log(`SKIP the Python client test: ${skip}`);

/**
 * The agent: connects to argv[2] over argv[1] ("streamable-http" or
 * "sse"), does the five things and prints one JSON line of what it saw.
 * Written for the SDK's 1.x API and the names later releases gave it.
 */
const AGENT = `
import asyncio, json, sys
from mcp import ClientSession
from mcp.client.sse import sse_client
try:
    from mcp.client.streamable_http import streamable_http_client as http_client
except ImportError:
    from mcp.client.streamable_http import streamablehttp_client as http_client
try:
    from mcp.types import PaginatedRequestParams
except ImportError:
    PaginatedRequestParams = None

async def list_page(session, cursor):
    if PaginatedRequestParams is not None:
        try:
            return await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
        except TypeError:
            pass
    return await session.list_tools(cursor=cursor)

async def main(transport, url):
    connect = sse_client(url) if transport == "sse" else http_client(url)
    async with connect as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            names, pages, cursor = [], 0, None
            while True:
                page = await list_page(session, cursor)
                pages += 1
                names += [t.name for t in page.tools]
                cursor = page.nextCursor
                if cursor is None or pages > 100:
                    break
            read = await session.call_tool("router_list_ip_addresses", {})
            write = await session.call_tool("router_add_ip_address", {
                "address": "10.99.0.1/24", "interface": "ether2", "dry_run": True})
            after = await session.call_tool("router_list_ip_addresses", {})
            resource = await session.read_resource("routeros://sim/overview")
            prompt = await session.get_prompt("troubleshoot_link", {"interface": "ether1"})
            print(json.dumps({
                "names": names,
                "pages": pages,
                "read": [i["address"] for i in read.structuredContent["items"]],
                "write": write.structuredContent["dry_run"]["commands"],
                "write_error": bool(write.isError),
                "after": [i["address"] for i in after.structuredContent["items"]],
                "resource": json.loads(resource.contents[0].text)["device"],
                "prompt": prompt.messages[0].content.text,
            }))

asyncio.run(main(sys.argv[1], sys.argv[2]))
`;

for (const transport of ["streamable-http", "sse"] as const) {
  Deno.test({
    name:
      `Python mcp SDK over ${transport}: every tool in pages, a read, a dry run, a resource, a prompt`,
    ignore: skip !== undefined,
    fn: async () => {
      const server = await spawnHttp(transport, ["--simulate", "--toolsets", "all"]);
      try {
        const url = `${server.base}${transport === "sse" ? "/sse" : "/mcp"}`;
        const r = await new Deno.Command("python3", {
          args: ["-c", AGENT, transport, url],
          env: childEnv(),
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(120_000),
        }).output();
        const stderr = new TextDecoder().decode(r.stderr);
        assert.equal(r.code, 0, stderr);
        const seen = JSON.parse(new TextDecoder().decode(r.stdout).trim().split("\n").at(-1)!);
        assert.deepEqual(seen.names, listedEntries(["all"]).map((t) => t.name));
        assert.ok(seen.pages > 1, `${seen.pages} pages`);
        assert.ok(seen.read.includes("192.168.88.1/24"), JSON.stringify(seen.read));
        assert.equal(seen.write_error, false);
        assert.match(seen.write[0], /\/ip address add address="10\.99\.0\.1\/24"/);
        assert.ok(!seen.after.includes("10.99.0.1/24"), "the dry run added nothing");
        assert.equal(seen.resource, "sim");
        assert.match(seen.prompt, /interface "ether1"/);
      } finally {
        await server.stop();
      }
    },
  });
}
