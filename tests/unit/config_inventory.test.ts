/**
 * Inventory parsing and validation, in process: accepted forms, every error
 * case, length limits, values read as written, and that no error ever shows
 * a password.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  MAX_INVENTORY_BYTES,
  MAX_TAGS,
  MAX_TITLE,
  parseInventory,
  readInventoryFile,
} from "../../lib/config/inventory.ts";
import { loadYamlParser } from "../../lib/config/yaml_parser.ts";

// Inventories are YAML; the server loads the parser only when it needs it.
await loadYamlParser();

const SECRET = "s3cr3t-Pa55";

function refusal(text: string): string {
  try {
    parseInventory(text, "inline");
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    assert.ok(!err.message.includes(SECRET), `no password in: ${err.message}`);
    assert.ok(!err.message.includes("\n"), "one line");
    return err.message;
  }
  assert.fail(`accepted: ${text}`);
}

Deno.test("inventory: a list, a mapping with an inventory key, flow syntax and JSON", () => {
  for (
    const text of [
      "- title: a\n  host: h1\n- title: b\n  host: h2\n  tags: [x, y]",
      "inventory:\n  - {title: a, host: h1}\n  - {title: b, host: h2, tags: [x, y]}",
      '[{"title":"a","host":"h1"},{"title":"b","host":"h2","tags":["x","y"]}]',
    ]
  ) {
    const devices = parseInventory(text, "inline");
    assert.deepEqual(devices.map((d) => d.title), ["a", "b"]);
    assert.deepEqual(devices[1].tags, ["x", "y"]);
  }
});

Deno.test("inventory: defaults, every field, and trimmed titles", () => {
  const [d] = parseInventory(
    `- title: "  R1  "
  host: 10.0.0.1
  port: 2222
  username: ops
  password: ${SECRET}
  key_filename: /k
  key_passphrase: pp
  region: eu
  tags: [core]
  host_key: SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M=
  connect_timeout: 2.5
  command_timeout: 60
  read_only: true`,
    "inline",
  );
  assert.deepEqual(d, {
    title: "R1",
    host: "10.0.0.1",
    port: 2222,
    username: "ops",
    password: SECRET,
    keyFilename: "/k",
    keyPassphrase: "pp",
    region: "eu",
    tags: ["core"],
    hostKey: "SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M",
    connectTimeout: 2.5,
    commandTimeout: 60,
    readOnly: true,
  });
  const [min] = parseInventory("[{title: a, host: h}]", "inline");
  assert.deepEqual(min, {
    title: "a",
    host: "h",
    port: 22,
    username: "admin",
    password: "",
    tags: [],
    readOnly: false,
  });
});

Deno.test("inventory: values are read as written, not as YAML numbers", () => {
  const [d] = parseInventory("[{title: 1e3, host: 10, password: 0123, tags: [1, true]}]", "inline");
  assert.equal(d.title, "1e3");
  assert.equal(d.host, "10");
  assert.equal(d.password, "0123", "a leading zero is kept");
  assert.deepEqual(d.tags, ["1", "true"]);
  assert.match(refusal("[{title: a, host: h, port: 0x16}]"), /"port" must be a port number/);
  assert.match(refusal("[{title: a, host: h, port: 1e3}]"), /in plain decimal digits/);
  assert.match(refusal("[{title: a, host: h, connect_timeout: .inf}]"), /"connect_timeout"/);
  assert.match(
    refusal("[{title: a, host: h, read_only: yes}]"),
    /"read_only" must be true or false/,
  );
});

const CASES: [string, string, RegExp][] = [
  [
    "malformed YAML",
    `- title: a\n  host: [h\n- title: b`,
    /YAML syntax error at line \d+, column \d+/,
  ],
  ["not a list", `title: a\nhost: h`, /expected a list of devices/],
  ["empty list", `[]`, /the device list is empty; add at least one device/],
  ["other keys", `inventory: []\nextra: 1`, /may only hold the key "inventory"/],
  ["missing title", `- host: h\n  password: ${SECRET}`, /entry 1: field "title" is required/],
  [
    "missing host",
    `- title: R9\n  password: ${SECRET}`,
    /entry 1 \("R9"\): field "host" is required/,
  ],
  [
    "duplicate title, ignoring case",
    `- {title: R1, host: a, password: ${SECRET}}\n- {title: r1, host: b}`,
    /entry 2 \("r1"\): title duplicates entry 1 \("R1"\)/,
  ],
  [
    "bad port",
    `- {title: R1, host: a, port: 70000, password: ${SECRET}}`,
    /entry 1 \("R1"\): field "port" must be a port number from 1 to 65535/,
  ],
  [
    "unknown field",
    `- {title: R1, hostname: a, password: ${SECRET}}`,
    /entry 1 \("R1"\): unknown field "hostname" \(did you mean "host"\?\)/,
  ],
  ["empty title", `- {title: "  ", host: a}`, /entry 1: field "title" must not be empty/],
  ["no value", `- {title: a, host: h, password: }`, /field "password" has no value/],
  [
    "tags not a list",
    `- {title: R1, host: a, tags: core}`,
    /field "tags" must be a list of strings/,
  ],
  ["entry not a mapping", `- just-a-string`, /entry 1: expected a mapping with title and host/],
  ["password a list", `- {title: a, host: h, password: [${SECRET}]}`, /"password" must be text/],
  ["bad host key", `- {title: a, host: h, host_key: md5:abc}`, /OpenSSH fingerprint/],
  ["title with a line break", `- {title: "a\\nb", host: h}`, /must not contain control characters/],
];

for (const [name, text, message] of CASES) {
  Deno.test(`inventory error: ${name}`, () => {
    assert.match(refusal(text), message);
  });
}

Deno.test("inventory: titles, hosts, tags and secrets have length limits", () => {
  const long = (n: number) => "x".repeat(n);
  assert.equal(
    parseInventory(`[{title: ${long(MAX_TITLE)}, host: h}]`, "inline")[0].title.length,
    64,
  );
  const message = refusal(`[{title: ${long(100_000)}, host: h, password: ${SECRET}}]`);
  assert.match(message, /field "title" must be at most 64 characters \(found 100000\)/);
  assert.ok(message.length < 400, "the error does not echo the whole title");
  assert.match(refusal(`[{title: a, host: ${long(254)}}]`), /"host" must be at most 253/);
  assert.match(
    refusal(`[{title: a, host: h, region: ${long(65)}}]`),
    /"region" must be at most 64/,
  );
  assert.match(
    refusal(`[{title: a, host: h, tags: [${long(65)}]}]`),
    /"tags" item 1 must be at most/,
  );
  const many = Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`).join(", ");
  assert.match(refusal(`[{title: a, host: h, tags: [${many}]}]`), /at most 32 tags/);
  assert.match(
    refusal(`[{title: a, host: h, password: ${long(1025)}}]`),
    /"password" must be at most/,
  );
  assert.match(refusal(`# ${long(MAX_INVENTORY_BYTES)}\n[]`), /larger than 4194304 bytes/);
});

Deno.test("inventory file: missing, a directory, or too large, each with the fix", async () => {
  assert.throws(
    () => readInventoryFile("/nonexistent/inventory.yaml", false),
    /inventory file \/nonexistent\/inventory.yaml does not exist. Check --inventory-file/,
  );
  const dir = await Deno.makeTempDir();
  try {
    assert.throws(() => readInventoryFile(dir, false), /is a directory, not a file/);
    assert.throws(() => readInventoryFile(dir, true), /Docker creates an empty directory/);
    const big = `${dir}/big.yaml`;
    await Deno.writeTextFile(big, "#".repeat(MAX_INVENTORY_BYTES + 1));
    assert.throws(() => readInventoryFile(big, false), /is larger than 4194304 bytes/);
    const ok = `${dir}/ok.yaml`;
    await Deno.writeTextFile(ok, "- {title: a, host: h}\n");
    assert.deepEqual(readInventoryFile(ok, false).map((d) => d.host), ["h"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
