/**
 * The API keys file: each mistake names the file, the entry, the field and
 * the fix; keys are found by their hash; `auth hash-key` prints that hash.
 */
import assert from "node:assert/strict";
import { findKey, hashKey, keyPrincipal, parseApiKeys } from "../../lib/auth/api_keys.ts";
import { narrow, principalFromMeta } from "../../lib/auth/principal.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { DENO, MAIN } from "../helpers/mcp.ts";

const H = hashKey("k1");

function refusal(doc: unknown): string {
  try {
    parseApiKeys(doc, "keys.yaml");
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  assert.fail("accepted");
}

Deno.test("api keys: errors name the entry, the field and the fix", () => {
  const rows: [unknown, RegExp][] = [
    [[], /expected a mapping with a "keys:" list/],
    [
      { keys: [{ name: "a", key: "plain", role: "read" }] },
      /entry 1 \("a"\): field "key" would hold the key in clear; store its hash/,
    ],
    [
      { keys: [{ name: "a", hash: "abc", role: "read" }] },
      /entry 1 \("a"\): field "hash" must be sha256: followed by 64 hex digits/,
    ],
    [
      { keys: [{ name: "a", hash: H, role: "root" }] },
      /field "role" must be one of metrics, read, operate, admin, not "root"/,
    ],
    [
      { keys: [{ name: "prom", hash: H, role: "metrics", tags: ["lab"] }] },
      /entry 1 \("prom"\): a key with the metrics role reads the metrics of the whole fleet, so it takes no "devices" or "tags"/,
    ],
    [{ keys: [{ name: "a", hash: H }] }, /field "role" is required/],
    [{ keys: [{ hash: H, role: "read" }] }, /entry 1: field "name" is required/],
    [
      { keys: [{ name: "a", hash: H, role: "read", devices: [] }] },
      /field "devices" must be a non-empty list/,
    ],
    [{ keys: [{ name: "a", hash: H, role: "read", colour: 1 }] }, /unknown field "colour"/],
    [{
      keys: [{ name: "a", hash: H, role: "read" }, {
        name: "A",
        hash: hashKey("k2"),
        role: "read",
      }],
    }, /entry 2 \("A"\): name duplicates entry 1/],
    [
      { keys: [{ name: "a", hash: H, role: "read" }, { name: "b", hash: H, role: "read" }] },
      /entry 2 \("b"\): field "hash" is the same key as entry 1/,
    ],
  ];
  for (const [doc, re] of rows) {
    const message = refusal(doc);
    assert.match(message, /^API keys file keys\.yaml: /);
    assert.match(message, re);
  }
});

Deno.test("api keys: a key is found by its hash, with its role and scope", () => {
  const keys = parseApiKeys({
    keys: [
      { name: "ops", hash: H, role: "operate", tags: ["lab"] },
      { name: "ro", hash: hashKey("k2"), role: "read" },
    ],
  }, "keys.yaml");
  assert.equal(findKey(keys, "k3"), undefined);
  assert.deepEqual(keyPrincipal(findKey(keys, "k1")!), {
    name: "key:ops",
    role: "operate",
    scopes: [{ devices: [], tags: ["lab"] }],
  });
  assert.deepEqual(keyPrincipal(findKey(keys, "k2")!), { name: "key:ro", role: "read" });
});

Deno.test("principal: a _meta principal can only narrow", () => {
  const outer = { name: "proxy", role: "operate" as const };
  const inner = principalFromMeta({ name: "ci", role: "admin" })!;
  // The transport's principal stays who the call is; the named one is a label.
  assert.deepEqual(narrow(outer, inner), {
    name: "proxy",
    role: "operate",
    scopes: [],
    onBehalfOf: "ci",
  });
  const local = { name: "anonymous:127.0.0.1", role: "admin" as const, anonymous: true };
  assert.equal(narrow(local, inner).anonymous, true);
  // A name shaped like an anonymous peer's is only a name: no anonymous mark from _meta.
  assert.equal(
    principalFromMeta({ name: "anonymous:x", role: "read", anonymous: true })!.anonymous,
    undefined,
  );
  assert.equal(principalFromMeta({ name: "x", role: "root" }), undefined);
  assert.equal(principalFromMeta("admin"), undefined);
});

Deno.test("auth hash-key prints the sha256 of the key on stdin", async () => {
  const child = new Deno.Command(DENO, {
    args: ["run", "--allow-all", MAIN, "auth", "hash-key"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode("secret-key-1\n"));
  await w.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), hashKey("secret-key-1"));
});
