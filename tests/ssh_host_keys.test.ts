/**
 * Host key checking through MCP calls against the simulator: first contact
 * under accept-new records the key, a rotated key is refused with both
 * fingerprints, strict refuses unknown keys, a pinned fingerprint is
 * honoured, hashed and `[host]:port` known_hosts entries are read, and `off`
 * warns at start-up.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHmac, randomBytes } from "node:crypto";
import { startSimulator } from "../lib/sim/mod.ts";
import {
  entriesFor,
  fingerprintOf,
  hostsFieldMatches,
  knownHostName,
  parseKnownHosts,
} from "../lib/ssh/known_hosts.ts";
import { callTool, spawnServer } from "./helpers/mcp.ts";

const LIST = "router_list_ip_addresses";

function hashedName(name: string): string {
  const salt = randomBytes(20);
  const hash = createHmac("sha1", salt).update(name).digest();
  return `|1|${salt.toString("base64")}|${hash.toString("base64")}`;
}

Deno.test("host keys: accept-new, rotation, pinning (one server, several devices)", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ssh-hostkeys-" });
  const sim = await startSimulator();
  const knownHosts = `${dir}/sub/dir/known_hosts`;
  const at = { host: sim.host, port: sim.port };
  const firstFingerprint = sim.hostKeyFingerprint();
  const wrong = "SHA256:" + Buffer.alloc(32, 7).toString("base64").replace(/=+$/, "");
  const inventory = [
    { title: "first", ...at },
    { title: "again", ...at },
    { title: "after-rotation", ...at },
    { title: "pinned", ...at, host_key: firstFingerprint },
    { title: "wrong-pin", ...at, host_key: wrong },
  ];
  const s = await spawnServer([
    "--inventory",
    JSON.stringify(inventory),
    "--known-hosts",
    knownHosts,
  ]);
  const list = (device: string) => callTool(s, LIST, { device });
  try {
    await t.step("accept-new: first contact records the key (creating directories)", async () => {
      const r = await list("first");
      assert.equal(r.isError, undefined, r.content[0]?.text);
      const text = await Deno.readTextFile(knownHosts);
      const entries = entriesFor(parseKnownHosts(text, knownHosts), sim.host, sim.port);
      assert.equal(entries.length, 1);
      assert.equal(entries[0].hosts, `[${sim.host}]:${sim.port}`);
      assert.equal(fingerprintOf(entries[0].key), firstFingerprint);
      assert.match(s.stderr(), /first contact, recorded ssh-ed25519 host key SHA256:/);
      assert.equal((await Deno.stat(knownHosts)).mode! & 0o777, 0o600);
    });

    await t.step("a known, unchanged key connects without adding a line", async () => {
      const r = await list("again");
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal((await Deno.readTextFile(knownHosts)).trim().split("\n").length, 1);
    });

    await t.step("a pinned host_key is honoured, and a wrong pin is refused", async () => {
      const ok = await list("pinned");
      assert.equal(ok.isError, undefined, ok.content[0]?.text);
      const bad = await list("wrong-pin");
      assert.equal(bad.isError, true);
      const text = bad.content[0].text;
      assert.match(text, /host key mismatch/);
      assert.ok(text.includes(wrong), text);
      assert.ok(text.includes(firstFingerprint), text);
    });

    await t.step("a rotated key is refused, naming both fingerprints", async () => {
      sim.rotateHostKey();
      const rotated = sim.hostKeyFingerprint();
      assert.notEqual(rotated, firstFingerprint);
      const r = await list("after-rotation");
      assert.equal(r.isError, true);
      const text = r.content[0].text;
      assert.match(text, /host key mismatch/);
      assert.ok(text.includes(rotated), text);
      assert.ok(text.includes(firstFingerprint), text);
      assert.ok(text.includes(`device "after-rotation" (${sim.host}:${sim.port})`), text);
      assert.match(text, /ssh-keygen -R/);
      assert.equal((await Deno.readTextFile(knownHosts)).trim().split("\n").length, 1);
    });
  } finally {
    await s.close();
    await sim.close();
  }

  await t.step("strict: hashed |1| and [host]:port entries pass, unknown keys fail", async () => {
    // Three routers with the simulator's shared host key (the one recorded above).
    const [type, b64] = (await Deno.readTextFile(knownHosts)).trim().split(" ").slice(1);
    const sims = await Promise.all([0, 1, 2].map(() => startSimulator()));
    const [hashed, plain, unknown] = sims;
    const file = `${dir}/strict_known_hosts`;
    await Deno.writeTextFile(
      file,
      [
        "# comment",
        "",
        `${hashedName(knownHostName(hashed.host, hashed.port))} ${type} ${b64}`,
        `other.example,${knownHostName(plain.host, plain.port)} ${type} ${b64}`,
      ].join("\n"),
    );
    const devices = [
      { title: "hashed", host: hashed.host, port: hashed.port },
      { title: "plain", host: plain.host, port: plain.port },
      { title: "unknown", host: unknown.host, port: unknown.port },
    ];
    const strict = await spawnServer([
      "--inventory",
      JSON.stringify(devices),
      "--known-hosts",
      file,
      "--host-key-policy",
      "strict",
    ]);
    try {
      for (const device of ["hashed", "plain"]) {
        const r = await callTool(strict, LIST, { device });
        assert.equal(r.isError, undefined, `${device}: ${r.content[0]?.text}`);
      }
      const r = await callTool(strict, LIST, { device: "unknown" });
      assert.equal(r.isError, true);
      const text = r.content[0].text;
      assert.match(text, /host key unknown/);
      assert.match(text, /strict/);
      assert.ok(text.includes(unknown.hostKeyFingerprint()), text);
      assert.equal((await Deno.readTextFile(file)).split("\n").length, 4, "strict writes nothing");
    } finally {
      await strict.close();
      await Promise.all(sims.map((x) => x.close()));
    }
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("host keys: off warns at start-up; accept-new defaults to ~/.config", async (t) => {
  const sim = await startSimulator();
  const args = ["--host", sim.host, "--port", String(sim.port)];
  try {
    await t.step("off: connects and warns at start-up", async () => {
      const s = await spawnServer([...args, "--host-key-policy", "off"]);
      try {
        const r = await callTool(s, LIST);
        assert.equal(r.isError, undefined, r.content[0]?.text);
        assert.match(s.stderr(), /warning: --host-key-policy off: host keys are not checked/);
        assert.doesNotMatch(s.stderr(), /recorded/);
      } finally {
        await s.close();
      }
    });

    await t.step("default file: ~/.config/mcp-server-router/known_hosts", async () => {
      const s = await spawnServer(args);
      try {
        const r = await callTool(s, LIST);
        assert.equal(r.isError, undefined, r.content[0]?.text);
        const file = s.stderr().match(/recorded ssh-ed25519 host key \S+ in (\S+)/)?.[1] ?? "";
        assert.match(file, /\/\.config\/mcp-server-router\/known_hosts$/);
        const text = await Deno.readTextFile(file);
        assert.ok(text.startsWith(`[${sim.host}]:${sim.port} ssh-ed25519 `), text);
      } finally {
        await s.close();
      }
    });
  } finally {
    await sim.close();
  }
});

Deno.test("known_hosts parsing: patterns, negation, hashed names, markers, bad lines", () => {
  assert.equal(knownHostName("Router.Example", 22), "router.example");
  assert.equal(knownHostName("10.0.0.1", 2222), "[10.0.0.1]:2222");
  assert.ok(hostsFieldMatches("a.example,10.0.0.1", "10.0.0.1"));
  assert.ok(hostsFieldMatches("*.example", "r1.example"));
  assert.ok(!hostsFieldMatches("*.example,!r2.example", "r2.example"));
  assert.ok(hostsFieldMatches("[10.0.0.?]:2222", "[10.0.0.5]:2222"));
  assert.ok(!hostsFieldMatches("10.0.0.1", "[10.0.0.1]:2222"), "a port entry needs the port");
  const name = "[192.0.2.9]:2200";
  assert.ok(hostsFieldMatches(hashedName(name), name));
  assert.ok(!hostsFieldMatches(hashedName(name), "[192.0.2.9]:22"));
  const blob = Buffer.concat([
    Buffer.from([0, 0, 0, 11]),
    Buffer.from("ssh-ed25519"),
    Buffer.from([0, 0, 0, 32]),
    Buffer.alloc(32, 1),
  ]).toString("base64");
  const parsed = parseKnownHosts(
    [
      "# comment",
      `@revoked ${name} ssh-ed25519 ${blob}`,
      `@cert-authority *.example ssh-ed25519 ${blob}`,
      "garbage line",
      `${name} ssh-rsa ${blob}`, // type does not match the blob: skipped
      `${name} ssh-ed25519 ${blob} comment words`,
    ].join("\r\n"),
    "kh",
  );
  assert.deepEqual(
    parsed.entries.map((e) => [e.line, e.marker ?? "", e.keyType]),
    [[2, "revoked", "ssh-ed25519"], [3, "cert-authority", "ssh-ed25519"], [6, "", "ssh-ed25519"]],
  );
});
