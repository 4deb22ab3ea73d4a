/**
 * The floor of the fleet and throughput figures, run in its own process as
 * the server is: a bare `ssh2` client (`raw_ssh.ts`, the latency floor's)
 * on the same simulated routers, doing what the figure asks of the server
 * with nothing else on top.
 *
 * `deno run -A bench/raw_floor_child.ts <json>` with
 * `{ "mode": "fan-out", "ports": [...], "runs": N, "dialing": 32 }` or
 * `{ "mode": "throughput", "ports": [...], "clients": 32, "ms": 5000 }`;
 * prints one JSON line of results.
 *
 * @module
 */
import { READ_COMMAND } from "./commands.ts";
import { openRawSsh, type RawSsh } from "./raw_ssh.ts";

interface FanOutJob {
  mode: "fan-out";
  ports: number[];
  runs: number;
  dialing: number;
}

interface ThroughputJob {
  mode: "throughput";
  ports: number[];
  clients: number;
  ms: number;
}

/** Open every connection, at most `dialing` at once (the server's --max-dialing). */
async function connectAll(ports: number[], dialing: number): Promise<RawSsh[]> {
  const out: RawSsh[] = new Array(ports.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(dialing, ports.length) }, async () => {
    while (next < ports.length) {
      const i = next++;
      out[i] = await openRawSsh("127.0.0.1", ports[i]);
    }
  }));
  return out;
}

async function fanOut(job: FanOutJob) {
  const t0 = performance.now();
  const conns = await connectAll(job.ports, job.dialing);
  // Cold: every connection opened, then the exec on each, as a fresh server does.
  await Promise.all(conns.map((c) => c.exec(READ_COMMAND)));
  const cold = performance.now() - t0;
  const warm: number[] = [];
  for (let r = 0; r < job.runs; r++) {
    const t = performance.now();
    await Promise.all(conns.map((c) => c.exec(READ_COMMAND)));
    warm.push(performance.now() - t);
  }
  await Promise.all(conns.map((c) => c.close()));
  return { cold, warm };
}

async function throughput(job: ThroughputJob) {
  const conns = await connectAll(job.ports, 32);
  for (const c of conns) await c.exec(READ_COMMAND);
  let calls = 0;
  const end = performance.now() + job.ms;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: job.clients }, async (_, i) => {
    const c = conns[i % conns.length];
    while (performance.now() < end) {
      await c.exec(READ_COMMAND);
      calls++;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(conns.map((c) => c.close()));
  return { calls, seconds, callsPerSecond: calls / seconds };
}

if (import.meta.main) {
  const job = JSON.parse(Deno.args[0]) as FanOutJob | ThroughputJob;
  const result = job.mode === "fan-out" ? await fanOut(job) : await throughput(job);
  console.log(JSON.stringify(result));
  Deno.exit(0);
}
