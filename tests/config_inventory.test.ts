/**
 * Inventory through the real CLI: precedence over single-device settings,
 * and one run per way an error reaches the user (file, inline, missing,
 * unreadable), never showing a password. Every validation case is
 * unit-tested in tests/unit/config_inventory.test.ts.
 */
import assert from "node:assert/strict";
import { runCli } from "./helpers/mcp.ts";

const SECRET = "s3cr3t-Pa55";

async function tempFile(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".yaml" });
  await Deno.writeTextFile(path, text);
  return path;
}

async function resolved(args: string[], env: Record<string, string> = {}) {
  const r = await runCli([...args, "--print-config"], env);
  assert.equal(r.code, 0, r.stderr);
  return { ...r, json: JSON.parse(r.stdout) };
}

const FILE_INVENTORY = `
- title: core-1
  host: 10.1.0.1
  password: ${SECRET}
  region: eu
  tags: [core]
- title: edge-1
  host: 10.1.0.2
  port: 2222
  username: ops
`;

Deno.test("precedence 1: an inline inventory wins over an inventory file", async () => {
  const file = await tempFile(FILE_INVENTORY);
  const { json, stderr } = await resolved(["--inventory-file", file], {
    ROUTER_INVENTORY: '[{"title": "inline-1", "host": "192.0.2.1"}]',
  });
  assert.deepEqual(json.devices.map((d: { title: string }) => d.title), ["inline-1"]);
  assert.equal(json.fleet, true);
  assert.match(stderr, /--inventory-file is ignored/);
  await Deno.remove(file);
});

Deno.test("precedence 2 and 3: an inventory file wins over single-device settings, with one info line", async () => {
  const file = await tempFile(FILE_INVENTORY);
  const { json, stderr } = await resolved(
    ["--inventory-file", file, "--host", "198.51.100.9", "--port", "2022"],
    { ROUTER_USERNAME: "someone", ROUTER_PASSWORD: "other-secret" },
  );
  assert.deepEqual(json.devices.map((d: { host: string }) => d.host), ["10.1.0.1", "10.1.0.2"]);
  assert.deepEqual(json.devices[0], {
    title: "core-1",
    host: "10.1.0.1",
    port: 22,
    username: "admin",
    password: "********",
    region: "eu",
    tags: ["core"],
    readOnly: false,
  });
  assert.equal(json.devices[1].port, 2222);
  assert.equal(json.devices[1].username, "ops");
  const info = stderr.split("\n").filter((l) => l.includes("single-device settings are ignored"));
  assert.equal(info.length, 1, stderr);
  assert.match(info[0], /--host, --username, --password, --port/);
  assert.ok(!stderr.includes(SECRET) && !stderr.includes("other-secret"));
  await Deno.remove(file);
});

Deno.test("single-device mode without an inventory", async () => {
  const { json, stderr } = await resolved(["--host", "203.0.113.5"], { ROUTER_PORT: "8022" });
  assert.equal(json.fleet, false);
  assert.equal(json.devices.length, 1);
  assert.equal(json.devices[0].host, "203.0.113.5");
  assert.equal(json.devices[0].port, 8022);
  assert.ok(!stderr.includes("ignored"), stderr);
});

Deno.test("--print-config shows each device's bastion chain with its secrets masked", async () => {
  const file = await tempFile(`
- {title: outer, host: 198.51.100.1, username: ops, password: ${SECRET}, bastion_only: true}
- title: R1
  host: 10.2.0.1
  jump: {host: 10.0.0.9, username: ops, key_filename: /k/b, key_passphrase: ${SECRET}, jump: outer}
`);
  const { json, stdout } = await resolved(["--inventory-file", file]);
  assert.ok(!stdout.includes(SECRET), "no secret anywhere");
  assert.deepEqual(json.devices.map((d: { title: string }) => d.title), ["R1"]);
  assert.deepEqual(json.devices[0].jump, {
    title: "ops@10.0.0.9:22",
    host: "10.0.0.9",
    port: 22,
    username: "ops",
    keyFilename: "/k/b",
    keyPassphrase: "********",
    jump: {
      title: "outer",
      host: "198.51.100.1",
      port: 22,
      username: "ops",
      password: "********",
    },
  });
  await Deno.remove(file);
});

/**
 * One real run per way an inventory arrives (every error case is
 * unit-tested in tests/unit/config_inventory.test.ts).
 */
for (
  const [name, text, message] of [
    [
      "duplicate title",
      `- {title: R1, host: a, password: ${SECRET}}\n- {title: r1, host: b}`,
      /entry 2 \("r1"\): title duplicates entry 1 \("R1"\)/,
    ],
    [
      "a jump loop",
      `- {title: R1, host: a, jump: j1, password: ${SECRET}}\n- {title: j1, host: b, jump: R1}`,
      /entry 1 \("R1"\): field "jump" makes a loop: R1 → j1 → R1/,
    ],
    [
      "a title longer than 64 characters",
      `- {title: ${"t".repeat(100_000)}, host: a, password: ${SECRET}}`,
      /entry 1 \("t{64}\.\.\."\): field "title" must be at most 64 characters \(found 100000\)/,
    ],
  ] as const
) {
  Deno.test(`inventory error exits 2 with one line: ${name} (file and inline)`, async () => {
    const file = await tempFile(text);
    for (
      const [args, env] of [
        [["--inventory-file", file, "--print-config"], {}],
        [[], { ROUTER_INVENTORY: text }],
      ] as [string[], Record<string, string>][]
    ) {
      const r = await runCli(args, { ...env, ROUTER_PASSWORD: SECRET });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(r.stderr.length < 500, "the message does not echo the whole inventory");
      assert.ok(!r.stderr.includes(SECRET), "no password in the message");
      assert.equal(r.stdout, "", "no server started");
    }
    await Deno.remove(file);
  });
}

Deno.test("inventory error: file missing", async () => {
  const r = await runCli(["--inventory-file", "/nonexistent/inventory.yaml"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /inventory file \/nonexistent\/inventory.yaml does not exist/);
});

/** A path this process cannot read: a mode-000 file, or (as root) /proc/1/mem. */
async function unreadablePath(): Promise<string> {
  const file = await tempFile("- {title: a, host: b}");
  await Deno.chmod(file, 0o000);
  for (const candidate of [file, "/proc/1/mem"]) {
    try {
      await Deno.readFile(candidate);
    } catch (err) {
      if (err instanceof Deno.errors.PermissionDenied) return candidate;
    }
  }
  throw new Error("found no unreadable file to test with");
}

Deno.test("inventory error: file unreadable", async () => {
  const path = await unreadablePath();
  const r = await runCli(["--inventory-file", path]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot be read \(permission denied\)/);
});
