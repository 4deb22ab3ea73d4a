/**
 * What "the server works" means for a documented command or client
 * configuration: an MCP client initializes, lists every tool (following
 * `nextCursor`) and calls one read tool, which answers without error. Over
 * stdio through the SDK's client; over streamable HTTP with raw requests,
 * so the `Host` and `Authorization` headers are the ones a real client of
 * that setup sends.
 *
 * @module
 */
import { Client, LazySchemaValidator, StdioClientTransport } from "../../lib/mcp_sdk/client.ts";
import { listAllTools } from "../../lib/mcp_sdk/list_all_tools.ts";
import type { Tool } from "../../lib/mcp_sdk/types.ts";
import { rawRequest } from "../http_helpers.ts";

/** The read tool to call, and its arguments (a device when the list is a fleet's). */
export function readCall(
  tools: readonly Tool[],
): { name: string; arguments: Record<string, unknown> } {
  const pick = tools.find((t) => t.name === "router_list_ip_addresses") ??
    tools.find((t) => t.name === "router_list_devices");
  if (!pick) throw new Error(`no read tool to call among ${tools.length} tools`);
  const device = (pick.inputSchema.properties as Record<string, { enum?: string[] }> | undefined)
    ?.device;
  const required = (pick.inputSchema.required ?? []) as string[];
  return {
    name: pick.name,
    arguments: required.includes("device") && device?.enum ? { device: device.enum[0] } : {},
  };
}

/** Start a stdio server as a client configuration does, and use it. Resolves to a summary. */
export async function checkStdio(params: {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}): Promise<string> {
  const transport = new StdioClientTransport({ ...params, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Uint8Array) => stderr += new TextDecoder().decode(d));
  const client = new Client({ name: "docs-examples", version: "1" }, {
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  try {
    await client.connect(transport);
    const tools = await listAllTools(client);
    const call = readCall(tools);
    const result = await client.callTool(call) as {
      isError?: boolean;
      content: { text: string }[];
    };
    if (result.isError) throw new Error(`${call.name}: ${result.content[0]?.text}`);
    return `${tools.length} tools, ${call.name} answered`;
  } catch (err) {
    throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr.slice(-2000)}`);
  } finally {
    await client.close().catch(() => {});
  }
}

/** One JSON-RPC answer from a POST's body (JSON, or the `data:` lines of an event stream). */
function answer(body: string, id: number): Record<string, unknown> {
  const messages = body.trimStart().startsWith("{")
    ? [JSON.parse(body)]
    : body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
  const found = messages.find((m) => m.id === id);
  if (!found) throw new Error(`no answer to request ${id} in: ${body.slice(0, 500)}`);
  if (found.error) throw new Error(`request ${id}: ${JSON.stringify(found.error)}`);
  return found.result;
}

/** An MCP session over streamable HTTP, spoken with raw requests. */
export async function checkHttp(port: number, opts: {
  host?: string;
  bearer?: string;
  path?: string;
} = {}): Promise<string> {
  const path = opts.path ?? "/mcp";
  const headers: [string, string][] = [
    ["Host", opts.host ?? `127.0.0.1:${port}`],
    ["Content-Type", "application/json"],
    ["Accept", "application/json, text/event-stream"],
    ...(opts.bearer ? [["Authorization", `Bearer ${opts.bearer}`] as [string, string]] : []),
  ];
  let id = 0;
  let session: string | undefined;
  const post = async (method: string, params?: unknown, notification = false) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      ...(notification ? {} : { id: ++id }),
      method,
      ...(params === undefined ? {} : { params }),
    });
    const res = await rawRequest(port, "POST", path, [
      ...headers,
      ...(session ? [["Mcp-Session-Id", session] as [string, string]] : []),
    ], body);
    if (res.status >= 300) {
      throw new Error(`${method}: HTTP ${res.status}: ${res.body.slice(0, 500)}`);
    }
    session ??= res.headers.get("mcp-session-id") ?? undefined;
    return notification ? {} : answer(res.body, id);
  };
  await post("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "docs-examples", version: "1" },
  });
  await post("notifications/initialized", undefined, true);
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await post("tools/list", cursor ? { cursor } : {}) as {
      tools: Tool[];
      nextCursor?: string;
    };
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const call = readCall(tools);
  const result = await post("tools/call", call) as {
    isError?: boolean;
    content: { text: string }[];
  };
  if (result.isError) throw new Error(`${call.name}: ${result.content[0]?.text}`);
  if (session) {
    await rawRequest(port, "DELETE", path, [...headers, ["Mcp-Session-Id", session]]);
  }
  return `${tools.length} tools over HTTP, ${call.name} answered`;
}
