/**
 * The inventory's `jump` field and the single-device `--jump`, in process:
 * every form (an entry's title, `user@host[:port]`, a mapping), chains,
 * `bastion_only` entries, an unknown title, a loop naming its entries, a
 * bastion set two ways, and that no error ever shows a password or
 * passphrase, nor `--print-config` either.
 */
import assert from "node:assert/strict";
import { describeConfig } from "../../lib/config/describe.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { parseInventory } from "../../lib/config/inventory.ts";
import { jumpChain, parseJumpText } from "../../lib/config/jump.ts";
import { loadConfig } from "../../lib/config/load.ts";
import { loadYamlParser } from "../../lib/config/yaml_parser.ts";

await loadYamlParser();

const SECRET = "j4mp-S3cret";

function refusal(text: string): string {
  try {
    parseInventory(text, "inline");
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    assert.ok(!err.message.includes(SECRET), `no secret in: ${err.message}`);
    assert.ok(!err.message.includes("\n"), "one line");
    return err.message;
  }
  assert.fail(`accepted: ${text}`);
}

Deno.test("jump: an entry's title makes that entry the bastion, with its own credentials", () => {
  const devices = parseInventory(
    `
- title: jump-1
  host: 10.0.0.9
  username: ops
  password: ${SECRET}
  host_key: SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M
  connect_timeout: 4
- title: R1
  host: 10.1.0.1
  jump: JUMP-1
`,
    "inline",
  );
  assert.deepEqual(
    devices.map((d) => d.title),
    ["jump-1", "R1"],
    "a bastion entry is a device too",
  );
  assert.deepEqual(devices[1].jump, {
    title: "jump-1",
    host: "10.0.0.9",
    port: 22,
    username: "ops",
    password: SECRET,
    hostKey: "SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M",
    connectTimeout: 4,
  });
  assert.equal(devices[0].jump, undefined);
});

Deno.test("jump: bastion_only keeps an entry out of the fleet; chains resolve outward", () => {
  const devices = parseInventory(
    `
- {title: outer, host: 192.0.2.1, username: ops, key_filename: /k/outer, bastion_only: true}
- {title: inner, host: 10.0.0.9, jump: outer, bastion_only: true}
- {title: R1, host: 10.1.0.1, jump: inner}
- {title: R2, host: 10.1.0.2, jump: inner}
`,
    "inline",
  );
  assert.deepEqual(devices.map((d) => d.title), ["R1", "R2"]);
  assert.deepEqual(jumpChain(devices[0].jump), ["outer", "inner"]);
  assert.equal(devices[0].jump?.jump?.keyFilename, "/k/outer");
  assert.deepEqual(devices[0].jump, devices[1].jump);
  assert.match(
    refusal("- {title: b, host: h, bastion_only: true}"),
    /every entry is bastion_only; add at least one device/,
  );
});

Deno.test("jump: user@host[:port] is a bastion outside the inventory, using the device's key", () => {
  const [a, b, c] = parseInventory(
    `
- {title: a, host: 10.1.0.1, key_filename: /k/id, key_passphrase: ${SECRET}, password: ${SECRET}, jump: "ops@10.0.0.9"}
- {title: b, host: 10.1.0.2, jump: "ops@bastion.example.net:2222"}
- {title: c, host: 10.1.0.3, jump: "ops@[2001:db8::9]:2200"}
`,
    "inline",
  );
  // No password: the device's never goes to the bastion.
  assert.deepEqual(a.jump, {
    title: "ops@10.0.0.9:22",
    host: "10.0.0.9",
    port: 22,
    username: "ops",
    keyFilename: "/k/id",
    keyPassphrase: SECRET,
  });
  assert.deepEqual(b.jump, {
    title: "ops@bastion.example.net:2222",
    host: "bastion.example.net",
    port: 2222,
    username: "ops",
  });
  assert.equal(c.jump?.host, "2001:db8::9");
  assert.equal(c.jump?.title, "ops@[2001:db8::9]:2200");
  assert.deepEqual(parseJumpText("u@2001:db8::1"), {
    username: "u",
    host: "2001:db8::1",
    port: 22,
  });
});

Deno.test("jump: a mapping gives a bastion its own credentials and chain", () => {
  const [d] = parseInventory(
    `
- title: R1
  host: 10.1.0.1
  jump:
    host: 10.0.0.9
    port: 2200
    username: ops
    key_filename: /k/bastion
    key_passphrase: ${SECRET}
    host_key: SHA256:2Zc5tU3u0hK1nUQ2A4mW1mXk9VdQ1pQG7v1fW9oQx1M
    connect_timeout: 3
    jump: "edge@192.0.2.1"
`,
    "inline",
  );
  assert.equal(d.jump?.title, "ops@10.0.0.9:2200");
  assert.equal(d.jump?.keyPassphrase, SECRET);
  assert.equal(d.jump?.connectTimeout, 3);
  assert.deepEqual(d.jump?.jump, {
    title: "edge@192.0.2.1:22",
    host: "192.0.2.1",
    port: 22,
    username: "edge",
    keyFilename: "/k/bastion",
    keyPassphrase: SECRET,
  });
});

Deno.test("jump: an unknown title, a loop and a too long chain are errors naming the entries", () => {
  assert.match(
    refusal("- {title: R1, host: h, jump: bastoin}\n- {title: bastion, host: b}"),
    /entry 1 \("R1"\): field "jump" names "bastoin", which is no entry's title; name an inventory entry, or give user@host\[:port\]/,
  );
  assert.match(
    refusal("- {title: R1, host: h, jump: R1}"),
    /entry 1 \("R1"\): field "jump" makes a loop: R1 → R1; a bastion cannot be reached through itself/,
  );
  assert.match(
    refusal(`
- {title: R1, host: h, jump: j1}
- {title: j1, host: h1, jump: j2, password: ${SECRET}}
- {title: j2, host: h2, jump: j1}
`),
    /entry 1 \("R1"\): field "jump" makes a loop: j1 → j2 → j1/,
  );
  const chain =
    Array.from({ length: 10 }, (_, i) => `- {title: j${i}, host: h${i}, jump: j${i + 1}}`)
      .join("\n") + "\n- {title: j10, host: h10}";
  assert.match(refusal(chain), /field "jump" makes a chain of more than 8 bastions/);
});

Deno.test("jump: bad values are refused without showing a secret", () => {
  const cases: [string, RegExp][] = [
    [
      `jump: "ops:${SECRET}@10.0.0.9"`,
      /field "jump" must not hold a password \(user:password@host\)/,
    ],
    [`jump: "@10.0.0.9"`, /field "jump" must start with a user name/],
    [`jump: "ops@10.0.0.9:0"`, /field "jump" must be a port number from 1 to 65535/],
    [`jump: "ops@bad host"`, /field "jump" must be user@host or user@host:port, without spaces/],
    [`jump: [a, b]`, /field "jump" must be an entry's title, user@host\[:port\], or a mapping/],
    [`jump: {host: b, password: ${SECRET}}`, /field "jump" field "username" is required/],
    [
      `jump: {host: b, username: u, pasword: ${SECRET}}`,
      /field "jump" field "pasword" is unknown; known fields: host, port, username, password/,
    ],
    [
      `jump: {host: b, username: u, password: [${SECRET}]}`,
      /field "jump" field "password" must be text/,
    ],
    [
      `jump: {host: b, username: u, jump: "x:${SECRET}@y"}`,
      /field "jump" must not hold a password/,
    ],
  ];
  for (const [field, expected] of cases) {
    assert.match(refusal(`- title: R1\n  host: h\n  ${field}`), expected, field);
  }
});

Deno.test("jump: one bastion set two ways is refused (one connection serves both)", () => {
  assert.match(
    refusal(`
- {title: a, host: h1, key_filename: /k/a, jump: "ops@10.0.0.9"}
- {title: b, host: h2, key_filename: /k/b, key_passphrase: ${SECRET}, jump: "ops@10.0.0.9"}
`),
    /entry 2 \("b"\): field "jump": bastion "ops@10.0.0.9:22" is set differently than for entry 1 \("a"\).*define the bastion once as an inventory entry/,
  );
  // The same bastion the same way is fine.
  const same = parseInventory(
    `- {title: a, host: h1, jump: "ops@10.0.0.9"}\n- {title: b, host: h2, jump: "ops@10.0.0.9:22"}`,
    "inline",
  );
  assert.deepEqual(same[0].jump, same[1].jump);
});

Deno.test("jump: --print-config shows the chain with every secret masked", () => {
  const config = loadConfig({
    inventory: JSON.stringify([
      { title: "j", host: "b", password: SECRET, key_passphrase: SECRET, bastion_only: "true" },
      { title: "R1", host: "h", jump: { host: "b2", username: "u", password: SECRET, jump: "j" } },
    ]),
  }, {});
  const shown = JSON.stringify(describeConfig(config));
  assert.ok(!shown.includes(SECRET), shown);
  const [device] = describeConfig(config).devices as { jump: Record<string, unknown> }[];
  assert.equal(device.jump.title, "u@b2:22");
  assert.equal(device.jump.password, "********");
  assert.deepEqual(
    { ...(device.jump.jump as Record<string, unknown>) },
    {
      title: "j",
      host: "b",
      port: 22,
      username: "admin",
      password: "********",
      keyPassphrase: "********",
    },
  );
});

Deno.test("jump: single-device --jump, with the router's key or its own", () => {
  const one = loadConfig({ host: "10.1.0.1", jump: "ops@10.0.0.9:2222", "key-filename": "/k/id" }, {
    ROUTER_PASSWORD: SECRET,
  });
  assert.deepEqual(one.devices[0].jump, {
    title: "ops@10.0.0.9:2222",
    host: "10.0.0.9",
    port: 2222,
    username: "ops",
    keyFilename: "/k/id",
  });
  const own = loadConfig({
    host: "10.1.0.1",
    jump: "ops@10.0.0.9",
    "key-filename": "/k/id",
    "key-passphrase": "device-pass",
    "jump-key-filename": "/k/bastion",
  }, { ROUTER_JUMP_KEY_PASSPHRASE: SECRET });
  assert.equal(one.settings.jump, "ops@10.0.0.9:2222");
  assert.deepEqual(own.devices[0].jump, {
    title: "ops@10.0.0.9:22",
    host: "10.0.0.9",
    port: 22,
    username: "ops",
    keyFilename: "/k/bastion",
    keyPassphrase: SECRET,
  });
  assert.ok(!JSON.stringify(describeConfig(own)).includes(SECRET));
  assert.throws(
    () => loadConfig({ host: "h", jump: `ops:${SECRET}@10.0.0.9` }, {}),
    (err: Error) =>
      err instanceof ConfigError && !err.message.includes(SECRET) &&
      /invalid value "ops:\*+@10\.0\.0\.9" for --jump: must not hold a password/.test(err.message),
  );
  const fleet = loadConfig({ inventory: "[{title: a, host: h}]" }, { ROUTER_JUMP: "ops@b" });
  assert.match(fleet.notices.join("\n"), /single-device settings are ignored: --jump/);
});
