/**
 * Hostile re-test (issue 31): `--mcp.max-sessions` was one pool for every
 * principal, so the weakest key locked out the strongest. A `read` key that
 * opens sessions and never ends them (a crashed or hostile agent) filled
 * the pool; every other principal, `admin` included, then got `503 Too
 * many sessions` until the read key's sessions idled out, and a read key
 * that sent a `ping` now and then kept them forever.
 *
 * Now one principal holds at most its share (`--mcp.max-sessions-per-principal`,
 * three quarters of the places by default; past it, its own least recently
 * used idle session gives way), and a full server takes an idle place from
 * whoever holds the most (`lib/server/http/sessions.ts`; the rules one by
 * one: `tests/unit/http_sessions.test.ts`).
 *
 * The process itself (`main.ts --simulate` over streamable-http, a keys
 * file, `--mcp.max-sessions 4`). Failed before the fix: the admin key's
 * initialize was refused with 503.
 */
import assert from "node:assert/strict";
import { hashKey } from "../lib/auth/api_keys.ts";
import { INITIALIZE, spawnHttp } from "./http_helpers.ts";

const READER = "reader-key-0123456789";
const ADMIN = "admin-key-0123456789";

Deno.test("hostile: a read key cannot take every session from an admin", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hostile-sessions-" });
  await Deno.writeTextFile(
    `${dir}/keys.yaml`,
    [
      "keys:",
      `  - {name: reader, hash: "${hashKey(READER)}", role: read}`,
      `  - {name: admin, hash: "${hashKey(ADMIN)}", role: admin}`,
    ].join("\n") + "\n",
  );
  const server = await spawnHttp("streamable-http", [
    "--simulate",
    "--mcp.api-keys-file",
    `${dir}/keys.yaml`,
    "--mcp.max-sessions",
    "4",
  ]);
  const open = async (key: string) => {
    const res = await fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${key}`,
      },
      body: INITIALIZE,
    });
    await res.body?.cancel();
    return res.status;
  };
  try {
    const taken: number[] = [];
    for (let i = 0; i < 4; i++) taken.push(await open(READER));
    assert.deepEqual(taken, [200, 200, 200, 200]);
    assert.equal(
      await open(ADMIN),
      200,
      "the admin key was refused a session because a read key holds them all",
    );
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
