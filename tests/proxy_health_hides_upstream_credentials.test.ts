/**
 * Hostile re-test 2 (issue 31): the REST proxy's `GET /health` needs no
 * credential on any configuration (load balancers), and told each child's
 * state with its `lastError` verbatim. For a remote child that error is the
 * fetch failure, which quotes the child's URL whole, query included, and
 * hosted MCP servers take their API key there
 * (`https://.../mcp?api_key=...`). Anyone who reached the proxy's port, with
 * no key, read the upstream's credential (the log line had it too).
 *
 * Now every URL in a child's error is cut to its origin, and `lastError` is
 * shown only to a caller with a credential.
 *
 * Hostile re-test 3: hosted MCP servers also take their credential in the
 * path (Zapier's `https://mcp.zapier.com/api/mcp/s/<secret>/mcp`), which
 * the cut to origin and path kept: every key holder, a `read` key included,
 * read it in /health, and the log had it. The path is now cut too: the
 * error comes with the child's name, which with the origin says which
 * server failed, and no rule tells a token segment from a word.
 *
 * A real proxy process with a keys file (an admin and a read key) and two
 * remote children whose port refuses connections. Failed before the fixes:
 * /health showed the api_key, then the path token.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { redactUrls } from "../lib/proxy/url_redact.ts";
import { startProxy } from "./proxy_helpers.ts";

const SECRET = "Query-Key-0815";
const PATH_TOKEN = "PathToken0815sk4711secret";
const ADMIN_KEY = "admin-key-0123456789";
const READ_KEY = "read-key-0123456789";

Deno.test("hostile2: the proxy's public /health does not show a child's URL credentials", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hostile2-health-" });
  await Deno.writeTextFile(
    `${dir}/keys.yaml`,
    `keys:\n  - {name: a, hash: "${hashKey(ADMIN_KEY)}", role: admin}\n` +
      `  - {name: r, hash: "${hashKey(READ_KEY)}", role: read}\n`,
  );
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (free.addr as Deno.NetAddr).port;
  free.close();
  const proxy = await startProxy({
    mcpServers: {
      remote: {
        type: "streamable-http",
        url: `http://user:Userinfo-Pass@127.0.0.1:${port}/mcp?api_key=${SECRET}`,
      },
      zap: { type: "streamable-http", url: `http://127.0.0.1:${port}/api/mcp/s/${PATH_TOKEN}/mcp` },
    },
  }, ["--api-keys-file", `${dir}/keys.yaml`]);
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  try {
    let detailed = "";
    for (let i = 0; i < 40 && detailed.split('lastError":"').length < 3; i++) {
      await new Promise((ok) => setTimeout(ok, 250));
      detailed = await (await proxy.fetch("/health", { headers: auth })).text();
    }
    const read = await (await proxy.fetch("/health", {
      headers: { authorization: `Bearer ${READ_KEY}` },
    })).text();
    assert.match(read, /lastError/, read);
    const text = await (await proxy.fetch("/health")).text();
    assert.match(text, /"state":"down"/, text);
    assert.ok(!text.includes(SECRET), `GET /health (no key) shows the child's api_key: ${text}`);
    assert.ok(!text.includes("lastError"), `GET /health (no key) shows the last error: ${text}`);
    assert.match(
      detailed,
      new RegExp(`"lastError":"[^"]*http://127\\.0\\.0\\.1:${port}\\b(?!/)`),
      "with a key, the last error names the child's origin",
    );
    for (const secret of [SECRET, "Userinfo-Pass", "api_key", PATH_TOKEN]) {
      for (const health of [detailed, read]) {
        assert.ok(!health.includes(secret), `GET /health (with a key) shows ${secret}: ${health}`);
      }
      assert.ok(!proxy.stderr().includes(secret), `the proxy's log shows ${secret}`);
    }
  } finally {
    await proxy.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("redactUrls cuts each URL in a text to its origin", () => {
  const cases: [string, string][] = [
    [
      "error sending request for url (http://127.0.0.1:5/mcp?api_key=Q-1): client error (Connect)",
      "error sending request for url (http://127.0.0.1:5): client error (Connect)",
    ],
    ["fetch failed: https://u:p@h.example/x/y#frag.", "fetch failed: https://h.example."],
    [
      "see http://host:8080 and https://a.b/c?x=1, ok",
      "see http://host:8080 and https://a.b, ok",
    ],
    ["https://mcp.zapier.com/api/mcp/s/Tok-3/mcp: 401", "https://mcp.zapier.com: 401"],
    ["unparsable http://u:p@[bad/x?k=1 end", "unparsable http://[bad end"],
    ["unparsable http://u:p/w@[bad/x end", "unparsable http://[bad end"],
    ["no URL here: a:b@c?d", "no URL here: a:b@c?d"],
  ];
  for (const [text, want] of cases) assert.equal(redactUrls(text), want);
});
