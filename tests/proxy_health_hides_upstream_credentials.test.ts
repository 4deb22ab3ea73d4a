/**
 * Hostile re-test 2 (issue 31): the REST proxy's `GET /health` needs no
 * credential on any configuration (load balancers), and tells each child's
 * state with its `lastError` verbatim. For a remote child that error is the
 * fetch failure, which quotes the child's URL whole, query included, and
 * hosted MCP servers take their API key there
 * (`https://.../mcp?api_key=...`). Anyone who reaches the proxy's port, with
 * no key, reads the upstream's credential (the log line has it too).
 *
 * A real proxy process with a keys file and one remote child whose port
 * refuses connections. Fails on main: /health shows the api_key.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { startProxy } from "./proxy_helpers.ts";

const SECRET = "Query-Key-0815";

Deno.test("hostile2: the proxy's public /health does not show a child's URL credentials", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hostile2-health-" });
  await Deno.writeTextFile(
    `${dir}/keys.yaml`,
    `keys:\n  - {name: a, hash: "${hashKey("admin-key-0123456789")}", role: admin}\n`,
  );
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (free.addr as Deno.NetAddr).port;
  free.close();
  const proxy = await startProxy({
    mcpServers: {
      remote: {
        type: "streamable-http",
        url: `http://127.0.0.1:${port}/mcp?api_key=${SECRET}`,
      },
    },
  }, ["--api-keys-file", `${dir}/keys.yaml`]);
  try {
    let text = "";
    for (let i = 0; i < 20 && !text.includes('lastError":"'); i++) {
      await new Promise((ok) => setTimeout(ok, 250));
      text = await (await proxy.fetch("/health")).text();
    }
    assert.match(text, /"state":"down"/, text);
    assert.ok(!text.includes(SECRET), `GET /health (no key) shows the child's api_key: ${text}`);
    assert.ok(!proxy.stderr().includes(SECRET), "the proxy's log shows the child's api_key");
  } finally {
    await proxy.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
