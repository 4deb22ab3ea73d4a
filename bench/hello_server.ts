/**
 * The hello-world MCP server the benchmark compares start-up and memory
 * with: the same MCP SDK and Deno, the SDK's own `McpServer` and stdio
 * transport, one tool that answers without any I/O. Whatever it costs to
 * start and to idle is the price of the runtime and the SDK alone.
 *
 * Run: `deno run --allow-all bench/hello_server.ts` (speaks MCP on stdio).
 *
 * @module
 */
import * as z from "zod";
import { McpServer, StdioServerTransport } from "../lib/mcp_sdk/mcp_server.ts";

/** Start the hello-world server on stdio. */
export async function serveHello(): Promise<void> {
  const server = new McpServer({ name: "hello-world", version: "1.0.0" });
  server.registerTool(
    "hello",
    {
      description: "Say hello",
      inputSchema: { name: z.string().optional() },
      outputSchema: { greeting: z.string() },
    },
    ({ name }) => {
      const greeting = `Hello, ${name ?? "world"}!`;
      return { content: [{ type: "text", text: greeting }], structuredContent: { greeting } };
    },
  );
  await server.connect(new StdioServerTransport());
}

if (import.meta.main) await serveHello();
