import assert from "node:assert/strict";
import { parse } from "yaml";
import type { SshError } from "../lib/ssh/errors.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";
import { sshExec } from "./sim_helpers.ts";

const MAIN = new URL("../lib/sim/main.ts", import.meta.url).pathname;

async function stdio(
  cmd: string,
  stateFile: string,
  extra: string[] = [],
): Promise<{ out: string; code: number }> {
  const p = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--stdio-cli", "--state-file", stateFile, ...extra],
    env: { SSH_ORIGINAL_COMMAND: cmd },
    stdout: "piped",
    stderr: "piped",
  });
  const r = await p.output();
  return { out: new TextDecoder().decode(r.stdout), code: r.code };
}

Deno.test("sim cli: --stdio-cli keeps state in the state file between invocations", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const f = `${dir}/state.json`;
    const a = await stdio(":put [/ip address add address=10.7.7.1/24 interface=ether1]", f);
    assert.match(a.out, /^\*[0-9A-F]+\r\n$/);
    assert.equal(a.code, 0);
    const b = await stdio('/ip address print count-only where address="10.7.7.1/24"', f);
    assert.equal(b.out, "1\r\n");
    const c = await stdio("/ip address foo", f);
    assert.equal(c.out, "bad command name foo (line 1 column 13)\r\n");
    assert.equal(c.code, 1);
    const d = await stdio("/ip/address/print", `${dir}/v6.json`, ["--version", "6.49"]);
    assert.equal(d.out, "expected command name (line 1 column 4)\r\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "sim cli: fleet prints an inventory and serves SSH until SIGTERM",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const p = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "--devices", "2", "--password", "pw", "--latency-ms", "1"],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = p.stdout.getReader();
    let text = "";
    while (!/port: \d+[\s\S]*port: \d+/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const inv = parse(text) as {
      title: string;
      host: string;
      port: number;
      username: string;
      password: string;
    }[];
    assert.equal(inv.length, 2);
    assert.equal(inv[1].port, inv[0].port + 1);
    assert.equal(inv[0].username, "admin");
    const out = await sshExec({ ...inv[1] } as never, "/system identity print", { password: "pw" });
    assert.equal(out.stdout, "  name: MikroTik-2\r\n");
    p.kill("SIGTERM");
    reader.releaseLock();
    await p.stdout.cancel();
    const st = await p.status;
    assert.equal(st.code, 0);
    const err = new TextDecoder().decode(await new Response(p.stderr).arrayBuffer());
    assert.match(err, /ssh -p \d+ admin@127\.0\.0\.1/);
  },
});

/** The output, stderr and exit code of one `sim` run that ends by itself. */
async function simRun(
  args: string[],
  entry = MAIN,
): Promise<{ out: string; err: string; code: number }> {
  const extra = entry === PRODUCT_MAIN ? ["sim"] : [];
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", entry, ...extra, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.code };
}

const PRODUCT_MAIN = new URL("../main.ts", import.meta.url).pathname;

/** One line of stderr, no stack trace. */
function assertOneSentence(err: string): void {
  const lines = err.trimEnd().split("\n");
  assert.equal(lines.length, 1, `expected one line on stderr, got:\n${err}`);
  assert.doesNotMatch(err, /\n\s+at |Error:|TypeError|RangeError/);
}

Deno.test("sim cli: --help goes to stdout with exit 0", async () => {
  const r = await simRun(["--help"], PRODUCT_MAIN);
  assert.equal(r.code, 0);
  assert.match(r.out, /Usage: mcp-server-router sim/);
  assert.match(r.out, /--host-key-file/);
  assert.equal(r.err, "");
});

Deno.test("sim cli: a port out of range is one sentence naming --port and the range, exit 2", async () => {
  const r = await simRun(["--port", "99999"]);
  assert.equal(r.code, 2);
  assertOneSentence(r.err);
  assert.match(r.err, /--port/);
  assert.match(r.err, /0 to 65535/);
  assert.equal(r.out, "");
  const past = await simRun(["--port", "65535", "--devices", "2"]);
  assert.equal(past.code, 2);
  assertOneSentence(past.err);
  assert.match(past.err, /--port 65535 with --devices 2/);
});

Deno.test("sim cli: a busy port is one sentence naming the port and --port", async () => {
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (busy.addr as Deno.NetAddr).port;
    const r = await simRun(["--port", String(port)]);
    assert.equal(r.code, 1);
    assertOneSentence(r.err);
    assert.match(r.err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.match(r.err, /--port/);
    assert.equal(r.out, "");
  } finally {
    busy.close();
  }
});

interface InventoryEntry {
  title: string;
  host: string;
  port: number;
  username: string;
  password: string;
  host_key: string;
}

/** Start `sim`, read its inventory (one router), run `fn` against it, then stop it. */
async function withSim(args: string[], fn: (inv: InventoryEntry) => Promise<void>) {
  const p = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = p.stdout.getReader();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ done: true; value: undefined }>((resolve) => {
    timer = setTimeout(() => resolve({ done: true, value: undefined }), 30_000);
  });
  try {
    while (!/host_key: \S+\n/.test(text)) {
      const { value, done } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    clearTimeout(timer);
    const inv = parse(text) as InventoryEntry[];
    assert.equal(inv?.length, 1, `no inventory on stdout: ${text}`);
    await fn(inv[0]);
  } finally {
    clearTimeout(timer);
    p.kill("SIGTERM");
    reader.releaseLock();
    await p.stdout.cancel();
    await p.stderr.cancel();
    assert.equal((await p.status).code, 0);
  }
}

Deno.test({
  name: "sim cli: the host key survives a restart with the same state file; pinned clients connect",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const state = `${dir}/state.json`;
    const pool = new SshPool({ hostKeyPolicy: "strict", knownHostsFile: `${dir}/known_hosts` });
    const target = (inv: InventoryEntry, hostKey: string): SshTarget => ({
      title: inv.title,
      host: inv.host,
      port: inv.port,
      username: inv.username,
      password: inv.password,
      hostKey,
      connectTimeoutMs: 10_000,
      commandTimeoutMs: 10_000,
    });
    try {
      let pin = "";
      await withSim(["--state-file", state], (inv) => {
        assert.match(inv.host_key, /^SHA256:[A-Za-z0-9+/]{43}$/);
        pin = inv.host_key;
        return Promise.resolve();
      });
      const keyFile = await Deno.stat(`${state}.host_key`);
      assert.equal(keyFile.mode! & 0o777, 0o600);
      await withSim(["--state-file", state], async (inv) => {
        assert.equal(inv.host_key, pin, "a restart with the same state file changed the host key");
        const r = await pool.exec(target(inv, pin), "/system identity print", {
          idempotent: true,
          what: "/system/identity",
        });
        assert.equal(r.output, "  name: MikroTik-1\n");
        const other = "SHA256:" + "A".repeat(43);
        await assert.rejects(
          pool.probe(target({ ...inv, title: "other" }, other)),
          (e: SshError) => e.kind === "host-key-mismatch",
        );
      });
      // The key file alone keeps the identity too.
      await withSim(["--host-key-file", `${state}.host_key`], (inv) => {
        assert.equal(inv.host_key, pin);
        return Promise.resolve();
      });
    } finally {
      await pool.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
