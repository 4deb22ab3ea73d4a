import assert from "node:assert/strict";
import { parse } from "yaml";
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
