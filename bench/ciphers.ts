/**
 * `deno run -A bench/ciphers.ts [rounds]`: a bare ssh2 client's CPU and
 * wall time per exec on a warm connection for each cipher a RouterOS
 * `/ip ssh` may allow (`aes-gcm`, `aes-ctr`; with strong-crypto, 256-bit),
 * one connection each to one simulator, interleaved in rounds of 50 execs.
 * It answers whether offering another cipher first would make a call
 * cheaper (ssh2's AES-GCM builds a Node cipher object per packet).
 *
 * @module
 */
import net from "node:net";
import { Client, type ClientChannel } from "../lib/ssh/ssh2.ts";
import { READ_COMMAND } from "./commands.ts";
import { ownCpuMs } from "./proc.ts";
import { startSimProcess } from "./sim_process.ts";

/** ssh2 `algorithms` settings to compare, by name. */
const CHOICES: Record<string, { cipher: string[]; hmac?: string[] }> = {
  "aes128-gcm": { cipher: ["aes128-gcm@openssh.com"] },
  "aes256-gcm": { cipher: ["aes256-gcm@openssh.com"] },
  "aes128-ctr + hmac-sha2-256-etm": {
    cipher: ["aes128-ctr"],
    hmac: ["hmac-sha2-256-etm@openssh.com"],
  },
  "aes256-ctr + hmac-sha2-256-etm": {
    cipher: ["aes256-ctr"],
    hmac: ["hmac-sha2-256-etm@openssh.com"],
  },
};

/** Connect with `algorithms` as `admin` (the simulator's default user); returns an exec. */
function connect(
  host: string,
  port: number,
  algorithms: (typeof CHOICES)[string],
): Promise<{ exec: (command: string) => Promise<void>; end: () => void }> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    sock.setNoDelay(true);
    const client = new Client();
    client.once("error", reject);
    client.once("ready", () =>
      resolve({
        exec: (command) =>
          new Promise((done, fail) => {
            client.exec(command, (err: Error | undefined, ch: ClientChannel) => {
              if (err) return fail(err);
              ch.on("data", () => {});
              ch.stderr.on("data", () => {});
              ch.on("close", () => done());
            });
          }),
        end: () => client.end(),
      }));
    // deno-lint-ignore no-explicit-any
    client.connect({ sock, username: "admin", password: "", algorithms } as any);
  });
}

if (import.meta.main) {
  const rounds = Number(Deno.args[0] ?? 40);
  const sim = await startSimProcess();
  try {
    const conns = new Map<string, Awaited<ReturnType<typeof connect>>>();
    for (const [name, algorithms] of Object.entries(CHOICES)) {
      conns.set(name, await connect(sim.host, sim.port, algorithms));
    }
    const sums = new Map<string, { cpu: number; wall: number }>();
    for (let round = 0; round < rounds; round++) {
      for (const [name, conn] of conns) {
        const c0 = await ownCpuMs();
        const t0 = performance.now();
        for (let i = 0; i < 50; i++) await conn.exec(READ_COMMAND);
        const s = sums.get(name) ?? { cpu: 0, wall: 0 };
        s.wall += performance.now() - t0;
        s.cpu += (await ownCpuMs()) - c0;
        sums.set(name, s);
      }
    }
    const execs = rounds * 50;
    console.log("| cipher | client CPU ms per exec | wall ms per exec |\n| --- | --- | --- |");
    for (const [name, s] of sums) {
      console.log(`| ${name} | ${(s.cpu / execs).toFixed(3)} | ${(s.wall / execs).toFixed(3)} |`);
    }
    for (const conn of conns.values()) conn.end();
  } finally {
    await sim.close();
  }
}
