/**
 * `deno run -A bench/thread_cpu.ts [calls]`: the server's CPU per warm stdio
 * call by thread, ours beside the hello-world server's, for calls back to
 * back and for calls in groups of three with 5 ms of idle between groups
 * (how figure 2 samples them, between the other kinds). Per thread: CPU
 * time (from `schedstat`) and voluntary and involuntary context switches,
 * per call. It shows what a server woken every third call pays over one
 * kept busy.
 *
 * @module
 */
import { startSimProcess } from "./sim_process.ts";
import { helloServer, singleRouterArgs, startStdioServer } from "./stdio_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ThreadTimes {
  cpuMs: number;
  voluntary: number;
  involuntary: number;
}

/** CPU and context switches of each thread of `pid`, by thread name ("main" for the main thread). */
function threads(pid: number): Map<string, ThreadTimes> {
  const out = new Map<string, ThreadTimes>();
  for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
    const dir = `/proc/${pid}/task/${e.name}`;
    try {
      const name = e.name === String(pid)
        ? "main"
        : Deno.readTextFileSync(`${dir}/comm`).trim().replace(/[\d#]+$/, "");
      const status = Deno.readTextFileSync(`${dir}/status`);
      const t = out.get(name) ?? { cpuMs: 0, voluntary: 0, involuntary: 0 };
      t.cpuMs += Number(Deno.readTextFileSync(`${dir}/schedstat`).split(" ")[0]) / 1e6;
      t.voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      t.involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      out.set(name, t);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Per call, by thread: `calls` calls of `call`, idle `gapMs` after every third (0: none). */
async function perCall(pid: number, call: () => Promise<unknown>, calls: number, gapMs: number) {
  const before = threads(pid);
  for (let i = 0; i < calls; i++) {
    await call();
    if (gapMs && i % 3 === 2) await sleep(gapMs);
  }
  const after = threads(pid);
  const rows: Record<string, ThreadTimes> = {};
  for (const [name, t] of after) {
    const b = before.get(name) ?? { cpuMs: 0, voluntary: 0, involuntary: 0 };
    const r = (x: number) => Math.round((x / calls) * 1000) / 1000;
    rows[name] = {
      cpuMs: r(t.cpuMs - b.cpuMs),
      voluntary: r(t.voluntary - b.voluntary),
      involuntary: r(t.involuntary - b.involuntary),
    };
  }
  const total = Object.values(rows).reduce((a, t) => a + t.cpuMs, 0);
  return { totalCpuMs: Math.round(total * 1000) / 1000, threads: rows };
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 1500);
  const sim = await startSimProcess();
  try {
    for (const gapMs of [0, 5]) {
      for (const hello of [false, true]) {
        const server = await startStdioServer(
          hello ? [] : singleRouterArgs(sim.host, sim.port),
          hello ? helloServer() : undefined,
        );
        try {
          const tool = hello ? "hello" : "router_list_ip_addresses";
          const call = () => server.call(tool);
          for (let i = 0; i < 300; i++) await call();
          const r = await perCall(server.pid, call, calls, gapMs);
          const rows = Object.entries(r.threads)
            .filter(([, t]) => t.cpuMs > 0)
            .map(([n, t]) => `${n} ${t.cpuMs} ms (${t.voluntary}/${t.involuntary} switches)`);
          console.log(
            `${hello ? "hello-world" : "ours"}, ${
              gapMs ? `5 ms idle every 3 calls` : "back to back"
            }: ` +
              `${r.totalCpuMs} ms per call; ${rows.join(", ")}`,
          );
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    await sim.close();
  }
}
