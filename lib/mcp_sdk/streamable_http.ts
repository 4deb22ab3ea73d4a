/**
 * The MCP SDK's Streamable HTTP server transport (web-standard requests),
 * typed (see `server.ts` for why each re-export names its `.d.ts`). Loaded
 * only by the HTTP transports.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
