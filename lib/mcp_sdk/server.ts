/**
 * The MCP SDK's low-level `Server`, typed: all the product's MCP server
 * needs, and nothing more (the SDK's `McpServer`, stdio and HTTP transport
 * modules are in `mcp_server.ts` and `streamable_http.ts`, so a stdio start
 * does not load them). Under Deno the SDK's `exports` pattern sends `*.js`
 * subpaths to `*.js.d.ts` files that do not exist, so its types silently
 * become `any`; each re-export here names the `.d.ts` that belongs to it.
 * Import the SDK only through `lib/mcp_sdk/`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
