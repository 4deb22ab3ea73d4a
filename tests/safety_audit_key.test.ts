/**
 * The keyed audit chain (`--audit-key-file`, `audit verify --key-file`),
 * through MCP against the simulator and the real CLI: an edited entry
 * re-sealed with its chain and anchor verifies OK on an unkeyed log (the
 * documented limit) and fails on a keyed one; the key file is refused when
 * others may read it, and its content is never shown.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { sealLine, sha256 } from "../lib/server/safety/audit_chain.ts";
import { writeAnchor } from "../lib/server/safety/audit_anchor.ts";
import { auditKeyOf } from "../lib/server/safety/audit_key.ts";
import { callTool, type McpSession, runCli } from "./helpers/mcp.ts";
import { serveInProcess } from "./helpers/in_process.ts";

const KEY = "d2f0c6b1a9e84b7c93a51f0e6d2c8b4a7f19e3d5c0b6a2948e7d1c5f3a0b9e62";

async function keyFile(dir: string, mode = 0o600, text = KEY + "\n"): Promise<string> {
  const path = `${dir}/audit.key`;
  await Deno.writeTextFile(path, text);
  await Deno.chmod(path, mode);
  return path;
}

/** Two writes through a server with these audit flags. */
async function writeLog(
  sim: { host: string; port: number },
  net: number,
  flags: string[],
): Promise<void> {
  const session = await serveInProcess([
    "--host",
    sim.host,
    "--port",
    String(sim.port),
    ...flags,
  ]);
  try {
    for (const address of [`10.${net}.0.1/24`, `10.${net}.1.1/24`]) {
      const r = await callTool(session, "router_add_ip_address", { address, interface: "ether2" });
      assert.equal(r.isError, undefined, r.content[0]?.text);
    }
  } finally {
    await session.close();
  }
}

/**
 * What a forger who can write the log and its anchor, but has no key, does:
 * edit the first entry and re-seal every line after it and the anchor with
 * the public algorithm (SHA-256), or with a key of their own.
 */
async function forge(path: string, sealWith?: Uint8Array): Promise<void> {
  const key = sealWith ? await auditKeyOf(sealWith) : undefined;
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  lines[0].arguments.address = "10.99.99.1/24";
  lines[0].command = lines[0].command.replace(/10\.\d+\.0\.1/, "10.99.99.1");
  let prev = "0".repeat(64);
  let text = "";
  for (const { prev: _p, hash: _h, hmac: _m, ...entry } of lines) {
    const line = await sealLine(entry, prev, key);
    text += line + "\n";
    prev = await sha256(line);
  }
  await Deno.writeTextFile(path, text);
  await writeAnchor(path, { entries: lines.length, head: prev }, key);
}

Deno.test("audit key: a re-sealed forgery verifies OK unkeyed (the limit) and fails keyed", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir();
  const key = await keyFile(dir);
  try {
    const plain = `${dir}/plain.jsonl`;
    await writeLog(sim, 21, ["--audit-log", plain]);
    await forge(plain);
    const unkeyed = await runCli(["audit", "verify", plain]);
    assert.equal(unkeyed.code, 0, "an unkeyed chain cannot tell a re-sealed forgery");
    assert.match(unkeyed.stdout, /: OK, 4 entries, chain intact \(unkeyed\)/);
    assert.match(unkeyed.stdout, /: unkeyed: an entry edited and re-sealed .* would verify too/);

    const keyed = `${dir}/keyed.jsonl`;
    await writeLog(sim, 23, ["--audit-log", keyed, "--audit-key-file", key]);
    const good = await runCli(["audit", "verify", "--key-file", key, keyed]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(
      good.stdout,
      /: OK, 4 entries, chain intact \(keyed, HMAC-SHA256 key [0-9a-f]{16}\)/,
    );
    assert.ok((await Deno.readTextFile(keyed)).includes('"hmac":'));
    const without = await runCli(["audit", "verify", keyed]);
    assert.equal(without.code, 1);
    assert.match(without.stdout, /: KEYED: entries from #1 are sealed with a key/);

    for (
      const [name, sealWith, message] of [
        [
          "re-sealed unkeyed",
          undefined,
          /BROKEN at entry #1: it is not sealed with the key|NOT KEYED/,
        ],
        ["re-sealed with another key", new Uint8Array(32).fill(7), /WRONG KEY/],
      ] as const
    ) {
      const copy = `${dir}/${name.replaceAll(" ", "-")}.jsonl`;
      await Deno.copyFile(keyed, copy);
      await Deno.copyFile(`${keyed}.anchor`, `${copy}.anchor`);
      await forge(copy, sealWith);
      const r = await runCli(["audit", "verify", "--key-file", key, copy]);
      assert.equal(r.code, 1, `${name}: ${r.stdout}`);
      assert.match(r.stdout, message, `${name}: ${r.stdout}`);
    }
    // The forger's own key on the lines, the true anchor kept: the first line breaks.
    const lines = `${dir}/lines-only.jsonl`;
    await Deno.copyFile(keyed, lines);
    const anchor = await Deno.readTextFile(`${keyed}.anchor`);
    await forge(lines, new Uint8Array(32).fill(9));
    await Deno.writeTextFile(`${lines}.anchor`, anchor);
    const r = await runCli(["audit", "verify", "--key-file", key, lines]);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /BROKEN at entry #1: its content was edited, or it was sealed with another key/,
    );
  } finally {
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit key: a keyed log refuses writes without its key; an unkeyed one until accepted", async () => {
  const sim = await startSimulator();
  const dir = await Deno.makeTempDir();
  const key = await keyFile(dir);
  const audit = `${dir}/audit.jsonl`;
  const add = async (flags: string[], address: string) => {
    let s: McpSession | undefined;
    try {
      s = await serveInProcess(["--host", sim.host, "--port", String(sim.port), ...flags]);
      return await callTool(s, "router_add_ip_address", { address, interface: "ether2" });
    } finally {
      await s?.close();
    }
  };
  try {
    // Written before the key was set: refused with the key until accepted.
    assert.equal((await add(["--audit-log", audit], "10.22.0.1/24")).isError, undefined);
    const withKey = ["--audit-log", audit, "--audit-key-file", key];
    const refused = await add(withKey, "10.22.1.1/24");
    assert.equal(refused.isError, true);
    assert.match(
      refused.content[0].text,
      /writes are refused: NOT KEYED: .*audit anchor --key-file/,
    );
    const accepted = await runCli(["audit", "anchor", "--key-file", key, audit]);
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stdout, /anchored 2 entries .*, sealed with key [0-9a-f]{16}/);
    assert.equal((await add(withKey, "10.22.1.1/24")).isError, undefined);
    const v = await runCli(["audit", "verify", "--key-file", key, audit]);
    assert.equal(v.code, 0, v.stdout);
    assert.match(v.stdout, /: unkeyed part: entries #1 to #2 were written before the key was set/);

    // Keyed now: without the key, or with another, writes are refused.
    const noKey = await add(["--audit-log", audit], "10.22.2.1/24");
    assert.match(noKey.content[0].text, /writes are refused: KEYED/);
    const other = await keyFile(`${dir}`, 0o600, "x".repeat(40));
    const wrong = await add(["--audit-log", audit, "--audit-key-file", other], "10.22.2.1/24");
    assert.match(wrong.content[0].text, /writes are refused: .*(WRONG KEY|another key)/);
    assert.ok(!sim.items("/ip/address").some((a) => a.address === "10.22.2.1/24"));
  } finally {
    await sim.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit key: a key file others may read is refused, and the key is never shown", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const log = `${dir}/audit.jsonl`;
    await Deno.writeTextFile(log, "");
    const open = await keyFile(dir, 0o644);
    const verify = await runCli(["audit", "verify", "--key-file", open, log]);
    assert.equal(verify.code, 2);
    assert.match(verify.stderr, /may be read or written by other users \(mode 0644\).*chmod 600/);
    const server = await runCli([
      "--host",
      "127.0.0.1",
      "--audit-log",
      log,
      "--audit-key-file",
      open,
    ]);
    assert.equal(server.code, 1, server.stderr);
    assert.match(server.stderr, /audit key file .* may be read or written by other users/);
    const short = await keyFile(dir, 0o600, "short\n");
    const tooShort = await runCli(["audit", "verify", "--key-file", short, log]);
    assert.equal(tooShort.code, 2);
    assert.match(tooShort.stderr, /holds 5 bytes; a key needs at least 32/);
    const noLog = await runCli([
      "--host",
      "127.0.0.1",
      "--audit-key-file",
      short,
      "--print-config",
    ]);
    assert.equal(noLog.code, 2);
    assert.match(noLog.stderr, /--audit-key-file .* but no audit log is set/);
    for (const r of [verify, server, tooShort, noLog]) {
      assert.ok(!(r.stdout + r.stderr).includes(KEY) && !(r.stdout + r.stderr).includes("short\n"));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
