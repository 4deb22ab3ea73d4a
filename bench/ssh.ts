/**
 * SSH layer benchmarks against the simulator: connect time, warm exec
 * latency (with and without the pre-opened channel, on loopback and over a
 * simulated WAN round trip), and the time to connect to 200 devices at once
 * through the bounded dialer.
 *
 * The simulator runs in this process, so its side of every handshake takes
 * CPU from the same thread: the figures are upper bounds for the client.
 *
 * Run alone with `deno run --allow-all bench/ssh.ts`.
 *
 * @module
 */
import net from "node:net";
import { type SimRouter, startFleet, startSimulator } from "../lib/sim/mod.ts";
import { type PoolOptions, SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

/** Summary of timing samples, in milliseconds. */
export interface Timing {
  samples: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
}

function summarise(values: number[]): Timing {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    samples: s.length,
    medianMs: round(at(0.5)),
    p95Ms: round(at(0.95)),
    minMs: round(s[0]),
    maxMs: round(s[s.length - 1]),
  };
}

function targetOf(host: string, port: number, title: string): SshTarget {
  return {
    title,
    host,
    port,
    username: "admin",
    password: "",
    connectTimeoutMs: 30_000,
    commandTimeoutMs: 30_000,
  };
}

function poolFor(options: Partial<PoolOptions> = {}): SshPool {
  return new SshPool({ hostKeyPolicy: "off", ...options });
}

const COMMAND = "/system identity print";
const READ = { idempotent: true, what: "/system/identity" };

/** Time to open one connection (TCP, handshake, auth, ready), `samples` times. */
export async function measureConnect(samples = 20): Promise<Timing> {
  const sim = await startSimulator();
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const pool = poolFor();
      const t0 = performance.now();
      await pool.connect(targetOf(sim.host, sim.port, "R1"));
      times.push(performance.now() - t0);
      await pool.close();
    }
  } finally {
    await sim.close();
  }
  return summarise(times);
}

/** A TCP relay that delays every chunk by half of `rttMs` in each direction. */
async function delayRelay(
  to: SimRouter,
  rttMs: number,
): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, rttMs / 2);
    timers.add(t);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: to.host, port: to.port });
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.on("data", (d) => later(() => upstream.destroyed || upstream.write(d)));
    upstream.on("data", (d) => later(() => client.destroyed || client.write(d)));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Warm exec latency: one connection, `samples` sequential commands after a
 * warm-up. `rttMs` > 0 puts a relay with that round-trip time in between.
 */
export async function measureWarmExec(
  samples = 200,
  options: { preopen?: boolean; rttMs?: number } = {},
): Promise<Timing> {
  const sim = await startSimulator();
  const relay = options.rttMs ? await delayRelay(sim, options.rttMs) : null;
  const pool = poolFor({ preopen: options.preopen ?? true });
  const target = targetOf(sim.host, relay?.port ?? sim.port, "R1");
  const times: number[] = [];
  try {
    for (let i = 0; i < 3; i++) await pool.exec(target, COMMAND, READ);
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      await pool.exec(target, COMMAND, READ);
      times.push(performance.now() - t0);
    }
  } finally {
    await pool.close();
    await relay?.close();
    await sim.close();
  }
  return summarise(times);
}

/** Result of the parallel connect benchmark. */
export interface ParallelConnect {
  devices: number;
  maxDialing: number;
  /** From the first dial to the last connection ready. */
  totalMs: number;
  /** Most handshakes in flight at once (bounded by maxDialing). */
  peakInFlight: number;
  failures: number;
}

/** Open `devices` connections at once through the bounded dialer. */
export async function measureParallelConnect(
  devices = 200,
  maxDialing = 32,
): Promise<ParallelConnect> {
  const fleet = await startFleet(devices);
  const pool = poolFor({ maxDialing });
  try {
    const t0 = performance.now();
    const results = await Promise.allSettled(
      fleet.map((s, i) => pool.connect(targetOf(s.host, s.port, `R${i + 1}`))),
    );
    const totalMs = Math.round((performance.now() - t0) * 100) / 100;
    return {
      devices,
      maxDialing,
      totalMs,
      peakInFlight: pool.dialerStats().peak,
      failures: results.filter((r) => r.status === "rejected").length,
    };
  } finally {
    await pool.close();
    await Promise.all(fleet.map((s) => s.close()));
  }
}

/** Every SSH figure, as one JSON-ready object. */
export async function benchSsh(): Promise<Record<string, unknown>> {
  return {
    connect: await measureConnect(),
    warmExec: await measureWarmExec(),
    warmExecWithoutPreopen: await measureWarmExec(200, { preopen: false }),
    warmExecRtt20ms: await measureWarmExec(20, { rttMs: 20 }),
    warmExecRtt20msWithoutPreopen: await measureWarmExec(20, { rttMs: 20, preopen: false }),
    parallelConnect200: await measureParallelConnect(200, 32),
  };
}

if (import.meta.main) {
  console.log(JSON.stringify(await benchSsh(), null, 2));
}
