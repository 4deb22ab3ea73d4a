/**
 * Interop with real OpenSSH: the `ssh` client against the simulator, and a
 * real `sshd` serving the simulator's `--stdio-cli` through `ForceCommand`.
 * Tests are skipped (with a printed reason) only when a binary is missing.
 */
import assert from "node:assert/strict";
import { startSimulator } from "../lib/sim/mod.ts";
import { findProgram } from "./helpers/env.ts";

const SSH = findProgram("ssh");
const SSHD = findProgram("sshd");
const KEYGEN = findProgram("ssh-keygen");
const KEYSCAN = findProgram("ssh-keyscan");
if (!SSH || !KEYGEN) {
  console.log("SKIP sim_openssh: OpenSSH client (ssh, ssh-keygen) not installed");
}
if (!SSHD) {
  console.log("SKIP sim_openssh sshd test: sshd not installed (apt-get install openssh-server)");
}

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

async function run(cmd: string, args: string[], stdin?: string) {
  const p = new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
    stdin: stdin === undefined ? "null" : "piped",
  })
    .spawn();
  if (stdin !== undefined) {
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const r = await p.output();
  return {
    code: r.code,
    stdout: new TextDecoder().decode(r.stdout),
    stderr: new TextDecoder().decode(r.stderr),
  };
}

async function keypair(dir: string): Promise<{ key: string; pub: string }> {
  const key = `${dir}/id_ed25519`;
  const r = await run(KEYGEN!, ["-q", "-t", "ed25519", "-N", "", "-C", "test@sim", "-f", key]);
  assert.equal(r.code, 0, r.stderr);
  return { key, pub: (await Deno.readTextFile(key + ".pub")).trim() };
}

function sshArgs(port: number, key: string, user: string, command: string): string[] {
  return [
    "-p",
    String(port),
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "BatchMode=yes",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "ConnectTimeout=10",
    "-i",
    key,
    `${user}@127.0.0.1`,
    command,
  ];
}

Deno.test({
  name: "sim openssh: real ssh client runs commands against the simulator",
  ignore: !SSH || !KEYGEN,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const { key, pub } = await keypair(dir);
    const r = await startSimulator({
      users: [{ name: "admin", group: "full", publicKeys: [pub] }],
    });
    try {
      const a = await run(SSH!, sshArgs(r.port, key, "admin", "/ip address print"));
      assert.equal(a.code, 0, a.stderr);
      assert.equal(
        a.stdout,
        "Columns: ADDRESS, NETWORK, INTERFACE\r\n# ADDRESS          NETWORK       INTERFACE\r\n" +
          ";;; defconf\r\n0 192.168.88.1/24  192.168.88.0  bridge\r\n",
      );
      const b = await run(
        SSH!,
        sshArgs(
          r.port,
          key,
          "admin+ct",
          ':put [/ip address add address=10.0.0.1/24 interface=ether1 comment="a b"]',
        ),
      );
      assert.match(b.stdout, /^\*[0-9A-F]+\r\n$/);
      const c = await run(SSH!, sshArgs(r.port, key, "admin", "/ip address foo"));
      assert.equal(c.stdout, "bad command name foo (line 1 column 13)\r\n");
      assert.equal(r.items("/ip/address").at(-1)!.comment, "a b");
      if (KEYSCAN) {
        const scan = await run(KEYSCAN, ["-p", String(r.port), "-t", "ed25519", "127.0.0.1"]);
        const fp = await run(KEYGEN!, ["-lf", "-"], scan.stdout);
        assert.ok(
          fp.stdout.includes(r.hostKeyFingerprint()),
          fp.stdout + " vs " + r.hostKeyFingerprint(),
        );
      }
    } finally {
      await r.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test({
  name: "sim openssh: real sshd serves the simulator's --stdio-cli through ForceCommand",
  ignore: !SSH || !SSHD || !KEYGEN,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    await Deno.chmod(dir, 0o755);
    const { key, pub } = await keypair(dir);
    const hostKey = `${dir}/host_ed25519`;
    assert.equal((await run(KEYGEN!, ["-q", "-t", "ed25519", "-N", "", "-f", hostKey])).code, 0);
    await Deno.writeTextFile(`${dir}/authorized_keys`, pub + "\n");
    await Deno.chmod(`${dir}/authorized_keys`, 0o600);
    const user = (await run("id", ["-un"])).stdout.trim();
    if (Deno.uid() === 0) await Deno.mkdir("/run/sshd", { recursive: true });
    const port = freePort();
    const state = `${dir}/state.json`;
    const force =
      `${Deno.execPath()} run -A --config ${REPO}/deno.json ${REPO}/lib/sim/main.ts --stdio-cli --state-file ${state}`;
    await Deno.writeTextFile(
      `${dir}/sshd_config`,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${hostKey}`,
        `PidFile ${dir}/sshd.pid`,
        `AuthorizedKeysFile ${dir}/authorized_keys`,
        "StrictModes no",
        "UsePAM no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin yes",
        `AllowUsers ${user}`,
        `ForceCommand ${force}`,
        "",
      ].join("\n"),
    );
    const sshd = new Deno.Command(SSHD!, {
      args: ["-D", "-e", "-f", `${dir}/sshd_config`],
      stdout: "null",
      stderr: "piped",
    })
      .spawn();
    try {
      // wait until sshd accepts connections
      for (let i = 0; i < 100; i++) {
        try {
          (await Deno.connect({ hostname: "127.0.0.1", port })).close();
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const a = await run(
        SSH!,
        sshArgs(port, key, user, ":put [/ip address add address=10.9.0.1/24 interface=ether2]"),
      );
      assert.match(a.stdout, /^\*[0-9A-F]+\r\n$/, a.stderr);
      const b = await run(
        SSH!,
        sshArgs(port, key, user, '/ip address print count-only where address="10.9.0.1/24"'),
      );
      assert.equal(b.stdout, "1\r\n", b.stderr);
      const c = await run(SSH!, sshArgs(port, key, user, "/ip address foo"));
      assert.equal(c.stdout, "bad command name foo (line 1 column 13)\r\n");
      assert.equal(c.code, 1);
    } finally {
      sshd.kill("SIGTERM");
      await sshd.status;
      await sshd.stderr.cancel();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
