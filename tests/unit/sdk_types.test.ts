/**
 * The MCP SDK is type-checked: a deliberate type error against its classes
 * fails `deno check`. Under Deno the SDK's own `exports` map would make every
 * SDK type `any`; `lib/mcp_sdk/` names the declaration files.
 */
import assert from "node:assert/strict";
import { DENO } from "../helpers/env.ts";

Deno.test("deno check fails on a deliberate type error against McpServer, Client and Tool", async () => {
  const dir = await Deno.makeTempDir({ dir: new URL("../..", import.meta.url).pathname });
  try {
    const file = `${dir}/wrong.ts`;
    await Deno.writeTextFile(
      file,
      `import { McpServer } from "../lib/mcp_sdk/mcp_server.ts";
import { Client } from "../lib/mcp_sdk/client.ts";
import type { Tool } from "../lib/mcp_sdk/types.ts";
export const n: number = new McpServer({ name: "x", version: "1" });
export const c: number = new Client({ name: "x", version: "1" });
export const t: Tool = { name: 1, inputSchema: { type: "object" } };
`,
    );
    const out = await new Deno.Command(DENO, {
      args: ["check", "--quiet", file],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stderr);
    assert.notEqual(out.code, 0, "deno check accepted a type error: the SDK types are any");
    assert.equal((text.match(/TS2322/g) ?? []).length, 3, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
