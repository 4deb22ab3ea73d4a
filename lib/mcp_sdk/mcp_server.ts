/**
 * The MCP SDK's high-level `McpServer` and its stdio transport, typed (see
 * `server.ts` for why each re-export names its `.d.ts`). The product's own
 * server is built on the low-level `Server`; this is for the benchmark's
 * hello-world server and the tests' stand-in MCP servers.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
export {
  McpServer,
  type RegisteredPrompt,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  ResourceTemplate,
} from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
