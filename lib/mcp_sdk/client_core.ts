/**
 * The MCP SDK's `Client` and its in-memory transport, typed, without the
 * stdio, SSE and streamable HTTP transports that `client.ts` adds (their
 * modules, `cross-spawn` among them, cost every importer about 20 ms to
 * load): what an in-process client needs, such as the tests' in-process
 * harness.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
export { LazySchemaValidator } from "./lazy_validator.ts";
