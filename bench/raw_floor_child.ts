/**
 * The floor of the fleet, throughput and connection memory figures, run in
 * its own process as the server is: a bare `ssh2` client (`raw_ssh.ts`,
 * the latency floor's) on the same simulated routers, doing what the
 * figure asks of the server with nothing else on top.
 *
 * `deno run -A bench/raw_floor_child.ts <json>` with one of
 * - `{ "mode": "fan-out", "ports": [...], "runs": N, "dialing": 32 }`:
 *   every router connected (at most `dialing` handshakes at once) and its
 *   command run as soon as its connection is up (cold), then `runs` warm
 *   rounds of one exec on every router at once;
 * - `{ "mode": "throughput", "ports": [...], "clients": 32, "ms": 5000 }`:
 *   `clients` execs at once over one connection per router, for `ms`;
 * - `{ "mode": "memory", "ports": [...], "counts": [500, 2000], "settleMs": 3500 }`:
 *   this process's resident memory with that many connections open, idle
 *   (`settleMs` after the last exec, with a full collection halfway).
 *
 * Prints `{"measuring":true}` when its measured stretch starts, then one
 * JSON line of results (`measured_child.ts`), with its own CPU time.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";
import { READ_COMMAND } from "./commands.ts";
import { ownCpuMs, rssMb } from "./proc.ts";
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

interface MemoryJob {
  mode: "memory";
  ports: number[];
  counts: number[];
  settleMs: number;
}

const measuring = () => console.log(JSON.stringify({ measuring: true }));

/**
 * Open a connection to each of `ports` (at most `dialing` handshakes at
 * once), calling `then` on each as soon as it is up; resolves when every
 * `then` has.
 */
async function connectEach(
  ports: number[],
  dialing: number,
  then: (c: RawSsh) => Promise<unknown> = () => Promise.resolve(),
): Promise<RawSsh[]> {
  const out: RawSsh[] = new Array(ports.length);
  const after: Promise<unknown>[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(dialing, ports.length) }, async () => {
    while (next < ports.length) {
      const i = next++;
      out[i] = await openRawSsh("127.0.0.1", ports[i]);
      after.push(then(out[i]));
    }
  }));
  await Promise.all(after);
  return out;
}

async function fanOut(job: FanOutJob) {
  measuring();
  const cpu0 = await ownCpuMs();
  const t0 = performance.now();
  const conns = await connectEach(job.ports, job.dialing, (c) => c.exec(READ_COMMAND));
  const cold = performance.now() - t0;
  const coldCpu = (await ownCpuMs()) - cpu0;
  const warm: number[] = [];
  const warmCpu: number[] = [];
  for (let r = 0; r < job.runs; r++) {
    const c0 = await ownCpuMs();
    const t = performance.now();
    await Promise.all(conns.map((c) => c.exec(READ_COMMAND)));
    warm.push(performance.now() - t);
    warmCpu.push((await ownCpuMs()) - c0);
  }
  console.log(JSON.stringify({ cold, coldCpu, warm, warmCpu }));
  await Promise.all(conns.map((c) => c.close()));
}

async function throughput(job: ThroughputJob) {
  const conns = await connectEach(job.ports, 32);
  for (const c of conns) await c.exec(READ_COMMAND);
  let calls = 0;
  measuring();
  const cpu0 = await ownCpuMs();
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
  const cpuMs = (await ownCpuMs()) - cpu0;
  console.log(JSON.stringify({ calls, seconds, callsPerSecond: calls / seconds, cpuMs }));
  await Promise.all(conns.map((c) => c.close()));
}

async function memory(job: MemoryJob) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const conns: RawSsh[] = [];
  const rss: number[] = [];
  measuring();
  for (const count of job.counts) {
    const more = job.ports.slice(conns.length, count);
    conns.push(...await connectEach(more, 32, (c) => c.exec(READ_COMMAND)));
    // Idle, as the server is when its RSS is read, after a full collection.
    await new Promise((resolve) => setTimeout(resolve, job.settleMs / 2));
    gc();
    await new Promise((resolve) => setTimeout(resolve, job.settleMs / 2));
    rss.push(await rssMb(Deno.pid));
  }
  console.log(JSON.stringify({ counts: job.counts, rssMb: rss }));
  await Promise.all(conns.map((c) => c.close()));
}

if (import.meta.main) {
  const job = JSON.parse(Deno.args[0]) as FanOutJob | ThroughputJob | MemoryJob;
  if (job.mode === "fan-out") await fanOut(job);
  else if (job.mode === "throughput") await throughput(job);
  else await memory(job);
  Deno.exit(0);
}
