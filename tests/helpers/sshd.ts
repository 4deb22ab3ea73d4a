/**
 * A real OpenSSH `sshd` (Debian's openssh-server) as a bastion on loopback:
 * started by the test on a free port with its own configuration (host key,
 * an authorized key for the test's key, TCP forwarding on or off, pid file,
 * `StrictModes no`), running as the current user, logging at VERBOSE to a
 * file so that a test can count the logins it accepted. It can be killed
 * with every session it serves (its per-connection processes too) and
 * started again on the same port with the same host key.
 *
 * @module
 */
import net from "node:net";
import { fingerprintOf } from "../../lib/ssh/known_hosts.ts";
import { parseKey } from "../../lib/ssh/ssh2.ts";
import { findProgram } from "./env.ts";
import { makeKey, writeKey } from "./keys.ts";

/** Where Debian's openssh-server puts sshd (found on PATH or in the system directories). */
export const SSHD: string | undefined = findProgram("sshd");

/** True when sshd is installed; prints why the test is skipped otherwise. */
export function sshdAvailable(what: string): boolean {
  if (SSHD) return true;
  console.log(
    `SKIP ${what}: sshd is not installed (Debian: apt-get install openssh-server; .ci/run does)`,
  );
  return false;
}

/** Options of one bastion. */
export interface BastionOptions {
  /** `AllowTcpForwarding` (default true). */
  forwarding?: boolean;
}

/** A running sshd bastion. */
export interface SshdBastion {
  readonly host: "127.0.0.1";
  readonly port: number;
  /** The user it lets in (the one running the tests). */
  readonly user: string;
  /** Private key file of that user's authorized key. */
  readonly keyFile: string;
  /** Its host key fingerprint, `SHA256:...`. */
  readonly hostKey: string;
  /** Logins it accepted since it first started (from its VERBOSE log). */
  accepted(): Promise<number>;
  /** Refused forwardings it logged. */
  refusedForwards(): Promise<number>;
  /** Kill it with every session it serves (as a machine that dies). */
  kill(): Promise<void>;
  /** Start it again on the same port with the same host key. */
  start(): Promise<void>;
  /** Stop it and remove its files. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`sshd did not listen on port ${port}`);
}

/** The process ids under `pid` (its children, theirs, ...), from /proc. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`).trim();
      if (text) children = children.concat(text.split(/\s+/).map(Number));
    }
  } catch { /* gone */ }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Start an sshd bastion on a free loopback port. */
export async function startBastion(options: BastionOptions = {}): Promise<SshdBastion> {
  if (!SSHD) throw new Error("sshd is not installed");
  const dir = await Deno.makeTempDir({ prefix: "bastion-" });
  await Deno.chmod(dir, 0o755);
  const user = new TextDecoder().decode(
    (await new Deno.Command("id", { args: ["-un"], stdout: "piped" }).output()).stdout,
  ).trim();
  const hostKey = makeKey("ed25519", "openssh");
  const hostKeyFile = await writeKey(dir, hostKey, "host_ed25519");
  const parsed = parseKey(hostKey.publicKey);
  if (parsed instanceof Error) throw parsed;
  const fingerprint = fingerprintOf(new Uint8Array(parsed.getPublicSSH()));
  const clientKey = makeKey("ed25519", "openssh");
  const keyFile = await writeKey(dir, clientKey, "id_ed25519");
  await Deno.writeTextFile(`${dir}/authorized_keys`, clientKey.publicKey + "\n", { mode: 0o600 });
  if (Deno.uid() === 0) await Deno.mkdir("/run/sshd", { recursive: true });
  const port = await freePort();
  const logFile = `${dir}/sshd.log`;
  const config = `${dir}/sshd_config`;
  await Deno.writeTextFile(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKeyFile}`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication yes",
      "PermitRootLogin prohibit-password",
      `AllowUsers ${user}`,
      `AllowTcpForwarding ${options.forwarding === false ? "no" : "yes"}`,
      "LogLevel VERBOSE",
      "",
    ].join("\n"),
  );
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command(SSHD!, {
      args: ["-D", "-f", config, "-E", logFile],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitForPort(port);
  };
  const kill = async () => {
    const c = child as Deno.ChildProcess | null;
    if (!c) return;
    child = null;
    const all = [...descendants(c.pid).reverse(), c.pid];
    for (const pid of all) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone already */ }
    }
    await c.status;
  };
  const count = async (pattern: RegExp) => {
    try {
      return (await Deno.readTextFile(logFile)).split("\n").filter((l) => pattern.test(l)).length;
    } catch {
      return 0;
    }
  };
  await start();
  return {
    host: "127.0.0.1",
    port,
    user,
    keyFile,
    hostKey: fingerprint,
    accepted: () => count(/Accepted publickey for /),
    refusedForwards: () => count(/refused local port forward/),
    kill,
    start,
    close: async () => {
      await kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
