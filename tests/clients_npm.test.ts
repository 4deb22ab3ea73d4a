/**
 * The demo server (`main.ts --simulate --toolsets all`) as third-party
 * clients from npm see it (tests/helpers/npm_clients.ts pins them):
 *
 * - the MCP Inspector's headless CLI over stdio (it starts the server for
 *   each request): it lists every tool, following `nextCursor` and
 *   checking the schemas' portability with `--strict`;
 * - over streamable HTTP, one server: the Inspector CLI and mcp-remote, the
 *   stdio ⇄ HTTP bridge driven over its stdio by a raw JSON-RPC client, each
 *   list every tool, call a read and a write with `dry_run: true` (which
 *   leaves the server's router unchanged), read a resource and get a
 *   prompt; each tools/list page is measured.
 * Skipped, with the reason printed, only where node or
 * npm is missing or the npm registry is unreachable.
 */
import assert from "node:assert/strict";
import { listedEntries } from "../lib/server/list_size.ts";
import { childEnv, denoDir } from "./helpers/env.ts";
import { JsonRpcStdio, type RawMessage } from "./helpers/jsonrpc_stdio.ts";
import { DENO, MAIN } from "./helpers/mcp.ts";
import { npmClients } from "./helpers/npm_clients.ts";
import { spawnHttp } from "./http_helpers.ts";

const clients = await npmClients();
const skip = "skip" in clients ? clients.skip : undefined;
if (skip) console.log(`SKIP the npm client tests: ${skip}`);
else console.log(`npm clients: ${(clients as { versions: string[] }).versions.join(", ")}`);

const DEMO = ["--simulate", "--toolsets", "all"];
const EVERY_TOOL = listedEntries(["all"]).map((t) => t.name);
const WRITE = { address: "10.99.0.1/24", interface: "ether2", dry_run: true };

/** Run a client's command with node; its exit code, stdout and stderr. */
async function node(script: string, args: string[], home: string) {
  const { node } = clients as { node: string };
  const out = await new Deno.Command(node, {
    args: [script, ...args],
    env: childEnv({}, home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** The five checks, over any way of sending one MCP request and reading its result. */
interface Surface {
  listTools(): Promise<{ name: string }[]>;
  call(tool: string, args: Record<string, unknown>): Promise<Record<string, any>>;
  readResource(uri: string): Promise<Record<string, any>>;
  getPrompt(name: string, args: Record<string, string>): Promise<Record<string, any>>;
}

/**
 * List every tool, call a read, a write with `dry_run`, read a resource,
 * get a prompt, every request to the same server, which the dry run must
 * have left unchanged.
 */
async function exercise(t: Deno.TestContext, surface: Surface): Promise<void> {
  await t.step("lists every tool of --toolsets all", async () => {
    assert.deepEqual((await surface.listTools()).map((x) => x.name), EVERY_TOOL);
  });
  await t.step("calls a read", async () => {
    const r = await surface.call("router_list_ip_addresses", {});
    assert.ok(!r.isError, JSON.stringify(r.content));
    const addresses = r.structuredContent.items.map((i: { address: string }) => i.address);
    assert.ok(addresses.includes("192.168.88.1/24"), JSON.stringify(addresses));
  });
  await t.step("calls a write with dry_run: true, which changes nothing", async () => {
    const r = await surface.call("router_add_ip_address", WRITE);
    assert.ok(!r.isError, JSON.stringify(r.content));
    assert.match(
      r.structuredContent.dry_run.commands[0],
      /\/ip address add address="10\.99\.0\.1\/24"/,
    );
    const after = await surface.call("router_list_ip_addresses", {});
    const addresses = after.structuredContent.items.map((i: { address: string }) => i.address);
    assert.ok(!addresses.includes("10.99.0.1/24"), "the dry run added nothing");
  });
  await t.step("reads a resource", async () => {
    const r = await surface.readResource("routeros://sim/overview");
    assert.equal(r.contents[0].mimeType, "application/json");
    assert.equal(JSON.parse(r.contents[0].text).device, "sim");
  });
  await t.step("gets a prompt", async () => {
    const r = await surface.getPrompt("troubleshoot_link", { interface: "ether1" });
    assert.match(r.messages[0].content.text, /interface "ether1"/);
  });
}

/** The Inspector CLI against `target` (a command after `--`, or a URL): one call per request. */
function inspectorSurface(target: string[], home: string): Surface {
  const { inspector } = clients as { inspector: string };
  const run = async (args: string[]) => {
    const r = await node(inspector, ["--cli", ...args, ...target], home);
    assert.equal(r.code, 0, `inspector ${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
    return { json: JSON.parse(r.stdout), stderr: r.stderr };
  };
  const pairs = (args: Record<string, unknown>) =>
    Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return {
    async listTools() {
      // --strict: the Inspector's schema portability check; any error exits 6.
      const { json, stderr } = await run(["--method", "tools/list", "--strict"]);
      assert.doesNotMatch(stderr, /^(Warning|Error): tool /m, "no portability problem");
      return json.tools;
    },
    async call(tool, args) {
      const argv = Object.keys(args).length ? ["--tool-arg", ...pairs(args)] : [];
      return (await run(["--method", "tools/call", "--tool-name", tool, ...argv])).json;
    },
    async readResource(uri) {
      return (await run(["--method", "resources/read", "--uri", uri])).json;
    },
    async getPrompt(name, args) {
      const argv = ["--prompt-name", name, "--prompt-args", ...pairs(args)];
      return (await run(["--method", "prompts/get", ...argv])).json;
    },
  };
}

/** A raw JSON-RPC client over mcp-remote's stdio; every tools/list page is kept. */
function rawSurface(remote: JsonRpcStdio, pages: RawMessage[]): Surface {
  const result = async (method: string, params: Record<string, unknown>) => {
    const r = await remote.request(method, params);
    assert.ok(r.message.result, `${method}: ${JSON.stringify(r.message.error)}`);
    return r.message.result;
  };
  return {
    async listTools() {
      const tools: { name: string }[] = [];
      let cursor: string | undefined;
      do {
        const page = await remote.request("tools/list", cursor ? { cursor } : {});
        assert.ok(page.message.result, JSON.stringify(page.message.error));
        pages.push(page);
        tools.push(...page.message.result.tools);
        cursor = page.message.result.nextCursor;
      } while (cursor !== undefined && pages.length < 100);
      return tools;
    },
    call: (name, args) => result("tools/call", { name, arguments: args }),
    readResource: (uri) => result("resources/read", { uri }),
    getPrompt: (name, args) => result("prompts/get", { name, arguments: args }),
  };
}

Deno.test({
  name: "MCP Inspector CLI over stdio: the demo with every toolset",
  ignore: skip !== undefined,
  fn: async (t) => {
    const home = await Deno.makeTempDir({ prefix: "inspector-" });
    try {
      // The Inspector hands the server a minimal environment: DENO_DIR keeps the tests' cache.
      const target = [
        "-e",
        `DENO_DIR=${denoDir()}`,
        "--",
        DENO,
        "run",
        "--allow-all",
        MAIN,
        ...DEMO,
      ];
      // One server start per Inspector run: the list here, the calls over HTTP below.
      await t.step("lists every tool of --toolsets all", async () => {
        const tools = await inspectorSurface(target, home).listTools();
        assert.deepEqual(tools.map((x) => x.name), EVERY_TOOL);
      });
    } finally {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "MCP Inspector CLI and mcp-remote over streamable HTTP: the demo with every toolset",
  ignore: skip !== undefined,
  fn: async (t) => {
    const home = await Deno.makeTempDir({ prefix: "npm-clients-" });
    const server = await spawnHttp("streamable-http", DEMO);
    const url = `${server.base}/mcp`;
    try {
      await t.step("the Inspector CLI", async (t) => {
        await exercise(t, inspectorSurface(["--transport", "http", url], home));
      });
      await t.step("mcp-remote, driven over its stdio", async (t) => {
        const { node, mcpRemote } = clients as { node: string; mcpRemote: string };
        const remote = new JsonRpcStdio(
          node,
          [mcpRemote, url],
          childEnv({ MCP_REMOTE_CONFIG_DIR: `${home}/mcp-auth` }, home),
        );
        const pages: RawMessage[] = [];
        try {
          await remote.initialize();
          await exercise(t, rawSurface(remote, pages));
          const sizes = pages.map((p) => p.bytes);
          console.log(`through mcp-remote: tools/list in ${pages.length} pages of ${sizes} bytes`);
          for (const size of sizes) assert.ok(size < 512 * 1024, `a ${size}-byte message`);
        } finally {
          await remote.close();
        }
      });
    } finally {
      await server.stop();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
});
