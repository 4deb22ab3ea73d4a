/**
 * The MCP SDK's client side, typed (see `server.ts` for why this module
 * exists). Used by the REST proxy, the tests and the benchmarks.
 *
 * @module
 */
export { Client, InMemoryTransport, LazySchemaValidator } from "./client_core.ts";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
