/**
 * `deno run -A bench/jump.ts`: what a bastion costs, on loopback. A warm
 * call (`:put 1` through `SshPool.exec`) direct, through a real sshd bastion
 * (when sshd is installed, as in `tests/ssh_jump_openssh.test.ts`) and
 * through a simulated router that forwards; then how many logins the sshd
 * bastion sees when ten devices behind it are opened at once by a fresh
 * pool. Prints the figures; writes nothing. The figures of
 * docs/jump-hosts.md come from one run of it.
 *
 * @module
 */
import { startSimulator } from "../lib/sim/mod.ts";
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";
import { SSHD, startBastion } from "../tests/helpers/sshd.ts";
import { benchTarget } from "./connect_per_call.ts";

const WARMUP = 50;
const ROUNDS = 300;
const DEVICES = 10;
const COMMAND = ":put 1";

/** Median and 90th percentile of warm calls to `target`, and its first (cold) call, in ms. */
async function measure(pool: SshPool, target: SshTarget): Promise<string> {
  const run = () => pool.exec(target, COMMAND, { idempotent: true, what: "the bench command" });
  let start = performance.now();
  await run();
  const cold = performance.now() - start;
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))].toFixed(3);
  return `cold ${cold.toFixed(1)} ms, warm median ${at(0.5)} ms, p90 ${at(0.9)} ms`;
}

const routers = await Promise.all(
  Array.from({ length: DEVICES }, () => startSimulator({ port: 0 })),
);
const edge = await startSimulator({ port: 0 });
edge.run("/ip ssh set forwarding-enabled=local");
const sshd = SSHD ? await startBastion() : undefined;
const pool = new SshPool({ hostKeyPolicy: "off" });
try {
  const device = (i: number, title: string, via?: SshTarget): SshTarget => ({
    ...benchTarget(routers[i].host, routers[i].port, title),
    ...(via ? { via } : {}),
  });
  const edgeVia = { ...benchTarget(edge.host, edge.port, "edge"), role: "bastion" as const };
  console.log(`direct: ${await measure(pool, device(0, "direct"))}`);
  console.log(`via a simulated router: ${await measure(pool, device(1, "r", edgeVia))}`);
  if (sshd) {
    const sshdVia: SshTarget = {
      ...benchTarget(sshd.host, sshd.port, "sshd"),
      username: sshd.user,
      password: undefined,
      keyFilename: sshd.keyFile,
      role: "bastion",
    };
    console.log(`via sshd: ${await measure(pool, device(2, "s", sshdVia))}`);
    const fresh = new SshPool({ hostKeyPolicy: "off" });
    const before = await sshd.accepted();
    await Promise.all(
      routers.map((_, i) =>
        fresh.exec(device(i, `n${i}`, sshdVia), COMMAND, { idempotent: true, what: "x" })
      ),
    );
    console.log(
      `${DEVICES} devices opened at once behind sshd: ${
        (await sshd.accepted()) - before
      } login(s) on the bastion`,
    );
    await fresh.close();
  } else {
    console.log("sshd is not installed: no sshd figures (apt-get install openssh-server)");
  }
} finally {
  await pool.close();
  await sshd?.close();
  await Promise.all([edge, ...routers].map((r) => r.close()));
}
