/**
 * The real OpenSSH client (`ssh`) against a simulated router: one key pair
 * per test process, made with `ssh-keygen`, and a user that holds it.
 *
 * @module
 */
import type { SimRouter } from "../../lib/sim/mod.ts";
import { findProgram } from "./env.ts";

const SSH = findProgram("ssh");
const KEYGEN = findProgram("ssh-keygen");

/** True when `ssh` and `ssh-keygen` are installed; prints why not otherwise. */
export function opensshAvailable(): boolean {
  if (SSH && KEYGEN) return true;
  console.log("SKIP: the OpenSSH client (ssh, ssh-keygen) is not installed");
  return false;
}

let keyPair: Promise<{ key: string; pub: string }> | undefined;

function keys(): Promise<{ key: string; pub: string }> {
  keyPair ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "openssh-" });
    // RSA: RouterOS 6 takes no ed25519 user keys (they came in 7.12).
    const key = `${dir}/id_rsa`;
    const r = await new Deno.Command(KEYGEN!, {
      args: ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-C", "test@sim", "-f", key],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (r.code !== 0) throw new Error(new TextDecoder().decode(r.stderr));
    return { key, pub: (await Deno.readTextFile(`${key}.pub`)).trim() };
  })();
  return keyPair;
}

/** Run `command` on `sim` through one OpenSSH exec as a full-rights user; stdout. */
export async function opensshExec(sim: SimRouter, command: string): Promise<string> {
  const { key, pub } = await keys();
  sim.addUser({ name: "openssh", group: "full", publicKeys: [pub] });
  const out = await new Deno.Command(SSH!, {
    args: [
      "-p",
      String(sim.port),
      "-o",
      "StrictHostKeyChecking=no",
      "-o",
      "UserKnownHostsFile=/dev/null",
      "-o",
      "BatchMode=yes",
      "-o",
      "LogLevel=ERROR",
      "-i",
      key,
      "openssh@127.0.0.1",
      command,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (stderr.trim() !== "") throw new Error(`ssh: ${stderr}`);
  return new TextDecoder().decode(out.stdout);
}
