/**
 * SSH authentication through MCP calls against the simulator: good and bad
 * passwords, every key type in OpenSSH and PEM format, encrypted keys with
 * and without their passphrase, and the key tried before the password.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { type KeyFormat, type KeyType, makeKey, type TestKey, writeKey } from "./helpers/keys.ts";
import { callTool, spawnServer } from "./helpers/mcp.ts";

const PASSWORD = "s3cret-Pw-91";
const PASSPHRASE = "open-sesame-77";

Deno.test("ssh auth: passwords, every key type and format, passphrases", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ssh-auth-" });
  const combos: [KeyType, KeyFormat][] = [
    ["ed25519", "openssh"],
    ["ecdsa", "openssh"],
    ["rsa", "openssh"],
    ["ed25519", "pem"],
    ["ecdsa", "pem"],
    ["rsa", "pem"],
  ];
  const keys = new Map<string, TestKey>();
  for (const [type, format] of combos) keys.set(`${type}-${format}`, makeKey(type, format));
  const encOpenSsh = makeKey("ed25519", "openssh", PASSPHRASE);
  const encPem = makeKey("rsa", "pem", PASSPHRASE);
  const encPkcs8 = makeKey("ed25519", "pem", PASSPHRASE);
  const both = makeKey("ecdsa", "openssh");
  const users = [
    { name: "admin", password: PASSWORD, group: "full" as const },
    ...[...keys].map(([name, k]) => ({
      name: `k-${name}`,
      group: "full" as const,
      publicKeys: [k.publicKey],
    })),
    { name: "enc-openssh", group: "full" as const, publicKeys: [encOpenSsh.publicKey] },
    { name: "enc-pem", group: "full" as const, publicKeys: [encPem.publicKey] },
    { name: "enc-pkcs8", group: "full" as const, publicKeys: [encPkcs8.publicKey] },
    { name: "both", password: "unused", group: "full" as const, publicKeys: [both.publicKey] },
  ];
  const sim = await startSimulator({ users });
  const base = { host: sim.host, port: sim.port };
  const inventory: Record<string, unknown>[] = [
    { title: "pw-good", ...base, username: "admin", password: PASSWORD },
    { title: "pw-bad", ...base, username: "admin", password: "wrong-Pw-55" },
  ];
  for (const [name, k] of keys) {
    inventory.push({
      title: `key-${name}`,
      ...base,
      username: `k-${name}`,
      key_filename: await writeKey(dir, k),
    });
  }
  const encOpenSshPath = await writeKey(dir, encOpenSsh, "enc_openssh");
  const encPemPath = await writeKey(dir, encPem, "enc_pem");
  const encPkcs8Path = await writeKey(dir, encPkcs8, "enc_pkcs8");
  inventory.push(
    {
      title: "enc-openssh",
      ...base,
      username: "enc-openssh",
      key_filename: encOpenSshPath,
      key_passphrase: PASSPHRASE,
    },
    {
      title: "enc-pem",
      ...base,
      username: "enc-pem",
      key_filename: encPemPath,
      key_passphrase: PASSPHRASE,
    },
    {
      title: "enc-pkcs8",
      ...base,
      username: "enc-pkcs8",
      key_filename: encPkcs8Path,
      key_passphrase: PASSPHRASE,
    },
    { title: "enc-nopass", ...base, username: "enc-openssh", key_filename: encOpenSshPath },
    { title: "enc-pem-nopass", ...base, username: "enc-pem", key_filename: encPemPath },
    {
      title: "enc-wrongpass",
      ...base,
      username: "enc-openssh",
      key_filename: encOpenSshPath,
      key_passphrase: "not-the-Passphrase-3",
    },
    {
      title: "key-first",
      ...base,
      username: "both",
      password: "wrong-Pw-for-both",
      key_filename: await writeKey(dir, both, "both"),
    },
    { title: "no-key-file", ...base, username: "admin", key_filename: `${dir}/missing` },
  );
  const session = await spawnServer(["--inventory", JSON.stringify(inventory)]);
  const list = (device: string) => callTool(session, "router_list_ip_addresses", { device });
  try {
    await t.step("good password", async () => {
      const r = await list("pw-good");
      assert.equal(r.isError, undefined, r.content[0]?.text);
    });

    await t.step("bad password: auth error naming device and endpoint, no secret", async () => {
      const r = await list("pw-bad");
      assert.equal(r.isError, true);
      const text = r.content[0].text;
      assert.match(text, /authentication failed for user "admin"/);
      assert.ok(text.includes(`device "pw-bad" (${sim.host}:${sim.port})`), text);
      assert.ok(!text.includes("wrong-Pw-55"), "the password never appears");
    });

    for (const name of keys.keys()) {
      await t.step(`key ${name}`, async () => {
        const r = await list(`key-${name}`);
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.ok((r.structuredContent?.items as unknown[]).length > 0);
      });
    }

    for (const title of ["enc-openssh", "enc-pem", "enc-pkcs8"]) {
      await t.step(`encrypted key with its passphrase (${title})`, async () => {
        const r = await list(title);
        assert.equal(r.isError, undefined, r.content[0]?.text);
      });
    }

    for (const title of ["enc-nopass", "enc-pem-nopass"]) {
      await t.step(`encrypted key without passphrase (${title}): clear error`, async () => {
        const r = await list(title);
        assert.equal(r.isError, true);
        const text = r.content[0].text;
        assert.match(text, /encrypted with a passphrase, and none was given/);
        assert.match(text, /key_passphrase/);
        assert.ok(text.includes(`device "${title}"`), text);
      });
    }

    await t.step("wrong passphrase: clear error without the passphrase", async () => {
      const r = await list("enc-wrongpass");
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /passphrase does not decrypt the key/);
      assert.ok(!r.content[0].text.includes("not-the-Passphrase-3"));
      assert.ok(!r.content[0].text.includes(PASSPHRASE));
    });

    await t.step("key and password given: the key is tried first", async () => {
      const failures = sim.counters.authFailures;
      const r = await list("key-first");
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal(sim.counters.authFailures, failures, "the wrong password was never tried");
    });

    await t.step("missing key file: names the file and the field", async () => {
      const r = await list("no-key-file");
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /key file .*missing does not exist; check key_filename/);
    });

    await t.step("stderr never shows a secret", () => {
      const err = session.stderr();
      for (const secret of [PASSWORD, PASSPHRASE, "wrong-Pw-55", "not-the-Passphrase-3"]) {
        assert.ok(!err.includes(secret), `stderr leaks ${secret}`);
      }
    });
  } finally {
    await session.close();
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});
