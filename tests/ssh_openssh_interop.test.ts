/**
 * Interop with a real OpenSSH `sshd` on loopback, whose `ForceCommand` is
 * the simulator's `--stdio-cli` over a state file: host key recording, key
 * auth with every key type (OpenSSH and PEM, with a passphrase) and password
 * auth, reads and writes, and parallel channels, all through MCP calls.
 *
 * Password auth needs a local user with a password, so the test creates a
 * throw-away user (and removes it after); that needs root. Without root or
 * without `sshd` (Debian: `apt-get install openssh-server`) the test is
 * ignored; CI runs as root and installs it.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { fingerprintOf, knownHostName } from "../lib/ssh/known_hosts.ts";
import { parseKey } from "../lib/ssh/ssh2.ts";
import { makeKey, type TestKey, writeKey } from "./helpers/keys.ts";
import { callTool, DENO, MAIN, spawnServer } from "./helpers/mcp.ts";

const SSHD = "/usr/sbin/sshd";
const USER = "mcp-interop";
const LIST = "router_list_ip_addresses";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const isRoot = Deno.uid() === 0;
const canRun = isRoot && exists(SSHD);

async function run(cmd: string, args: string[], stdin?: string): Promise<string> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed: ${text}`);
  return text;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conn.close();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`sshd did not listen on port ${port}`);
}

/** The deno module cache, hard-linked where the throw-away user can read it. */
async function readableDenoDir(dir: string): Promise<string> {
  const source = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const target = `${dir}/deno_dir`;
  await Deno.mkdir(target);
  try {
    await run("cp", ["-al", `${source}/npm`, `${target}/npm`]);
  } catch {
    await run("cp", ["-a", `${source}/npm`, `${target}/npm`]);
  }
  await run("chmod", ["-R", "a+rX", target]);
  await run("chown", [USER, target]);
  return target;
}

Deno.test({
  name: "openssh interop: sshd with ForceCommand sim --stdio-cli, keys and passwords",
  ignore: !canRun,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "ssh-interop-" });
    await Deno.chmod(dir, 0o755);
    const password = `Pw-${randomBytes(12).toString("hex")}`;
    let userCreated = false;
    let sshd: Deno.ChildProcess | null = null;
    try {
      // The throw-away user, with a password for password auth.
      try {
        await run("useradd", ["-M", "-d", dir, "-s", "/bin/sh", USER]);
      } catch (err) {
        if (!/already exists/.test((err as Error).message)) throw err;
      }
      userCreated = true;
      await run("chpasswd", [], `${USER}:${password}\n`);
      await Deno.mkdir("/run/sshd", { recursive: true });

      // Host key, authorized keys for every key type, state directory.
      const hostKey = makeKey("ed25519", "openssh");
      const hostKeyPath = await writeKey(dir, hostKey, "host_ed25519");
      const parsedHostKey = parseKey(hostKey.publicKey);
      if (parsedHostKey instanceof Error) throw parsedHostKey;
      const hostFingerprint = fingerprintOf(new Uint8Array(parsedHostKey.getPublicSSH()));
      const clientKeys: [string, TestKey, string?][] = [
        ["ed25519-openssh", makeKey("ed25519", "openssh")],
        ["ecdsa-pem", makeKey("ecdsa", "pem")],
        ["rsa-openssh", makeKey("rsa", "openssh")],
        ["ed25519-pem-enc", makeKey("ed25519", "pem", "interop-pass-1"), "interop-pass-1"],
        ["ecdsa-openssh-enc", makeKey("ecdsa", "openssh", "interop-pass-2"), "interop-pass-2"],
      ];
      await Deno.mkdir(`${dir}/authorized_keys`);
      await Deno.writeTextFile(
        `${dir}/authorized_keys/${USER}`,
        clientKeys.map(([, k]) => k.publicKey).join("\n") + "\n",
        { mode: 0o644 },
      );
      await Deno.mkdir(`${dir}/state`, { mode: 0o777 });
      await Deno.chmod(`${dir}/state`, 0o777);
      const denoDir = await readableDenoDir(dir);

      const port = await freePort();
      const force = [
        "env",
        `DENO_DIR=${denoDir}`,
        `HOME=${dir}/state`,
        "NO_COLOR=1",
        DENO,
        "run",
        "--allow-all",
        "--quiet",
        MAIN,
        "sim",
        "--stdio-cli",
        "--state-file",
        `${dir}/state/router.json`,
      ].join(" ");
      const config = `${dir}/sshd_config`;
      await Deno.writeTextFile(
        config,
        [
          `Port ${port}`,
          "ListenAddress 127.0.0.1",
          `HostKey ${hostKeyPath}`,
          `PidFile ${dir}/sshd.pid`,
          `AuthorizedKeysFile ${dir}/authorized_keys/%u`,
          "StrictModes no",
          "UsePAM no",
          "PasswordAuthentication yes",
          "KbdInteractiveAuthentication no",
          "PubkeyAuthentication yes",
          "PermitRootLogin no",
          `AllowUsers ${USER}`,
          "MaxSessions 2", // fewer than our 4 channels: the limit is learnt
          "LogLevel ERROR",
          `ForceCommand ${force}`,
          "",
        ].join("\n"),
      );
      sshd = new Deno.Command(SSHD, {
        args: ["-D", "-e", "-f", config],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      await waitForPort(port);

      const at = { host: "127.0.0.1", port, username: USER };
      const inventory: Record<string, unknown>[] = [
        { title: "password", ...at, password },
        { title: "bad-password", ...at, password: "not-the-password-9" },
      ];
      for (const [name, key, passphrase] of clientKeys) {
        inventory.push({
          title: `key-${name}`,
          ...at,
          key_filename: await writeKey(dir, key, `id_${name}`),
          ...(passphrase ? { key_passphrase: passphrase } : {}),
        });
      }
      const knownHosts = `${dir}/known_hosts`;
      const session = await spawnServer([
        "--inventory",
        JSON.stringify(inventory),
        "--known-hosts",
        knownHosts,
      ]);
      try {
        await t.step("first contact records sshd's host key under accept-new", async () => {
          const r = await callTool(session, LIST, { device: "key-ed25519-openssh" });
          assert.equal(r.isError, undefined, r.content[0]?.text);
          assert.ok((r.structuredContent?.items as unknown[]).length > 0);
          const line = (await Deno.readTextFile(knownHosts)).trim();
          assert.ok(line.startsWith(`${knownHostName("127.0.0.1", port)} ssh-ed25519 `), line);
          assert.match(session.stderr(), new RegExp(hostFingerprint.replace(/[+/]/g, "\\$&")));
          if (exists("/usr/bin/ssh-keygen")) {
            // OpenSSH's own tools find the line we wrote.
            const found = await run("ssh-keygen", ["-F", `[127.0.0.1]:${port}`, "-f", knownHosts]);
            assert.match(found, /ssh-ed25519/);
          }
        });

        for (const [name] of clientKeys) {
          await t.step(`key auth: ${name}`, async () => {
            const r = await callTool(session, LIST, { device: `key-${name}` });
            assert.equal(r.isError, undefined, r.content[0]?.text);
          });
        }

        await t.step("password auth: good and bad", async () => {
          const ok = await callTool(session, LIST, { device: "password" });
          assert.equal(ok.isError, undefined, ok.content[0]?.text);
          const bad = await callTool(session, LIST, { device: "bad-password" });
          assert.equal(bad.isError, true);
          assert.match(bad.content[0].text, /authentication failed for user "mcp-interop"/);
          assert.ok(!bad.content[0].text.includes("not-the-password-9"));
        });

        await t.step("a write, then parallel reads beyond sshd's MaxSessions", async () => {
          const add = await callTool(session, "router_add_ip_address", {
            device: "password",
            address: "10.77.0.1/24",
            interface: "ether2",
          });
          assert.equal(add.isError, undefined, add.content[0]?.text);
          const reads = await Promise.all(
            Array.from(
              { length: 6 },
              () => callTool(session, LIST, { device: "password", where: { interface: "ether2" } }),
            ),
          );
          for (const r of reads) {
            assert.equal(r.isError, undefined, r.content[0]?.text);
            const items = r.structuredContent?.items as { address: string }[];
            assert.deepEqual(items.map((i) => i.address), ["10.77.0.1/24"]);
          }
          assert.match(session.stderr(), /refuses more than \d channel\(s\) at once/);
        });

        await t.step("no secret in the server's stderr", () => {
          const err = session.stderr();
          for (const secret of [password, "interop-pass-1", "interop-pass-2"]) {
            assert.ok(!err.includes(secret));
          }
        });
      } finally {
        await session.close();
      }
    } finally {
      if (sshd) {
        sshd.kill("SIGTERM");
        await sshd.output();
      }
      if (userCreated) await run("userdel", [USER]).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
