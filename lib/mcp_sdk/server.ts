/**
 * The MCP SDK's server side, typed. Under Deno the SDK's `exports` pattern
 * sends `*.js` subpaths to `*.js.d.ts` files that do not exist, so its types
 * silently become `any`; each re-export here names the `.d.ts` that belongs
 * to it. Import the SDK only through `lib/mcp_sdk/`.
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
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
