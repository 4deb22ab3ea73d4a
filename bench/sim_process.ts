/**
 * Simulated routers in processes of their own (`main.ts sim`), as a real
 * router is its own machine: their work then never shares the benchmark's
 * event loop with the MCP client, the load generator or the floor's ssh2
 * client, and they are reached only through the loopback network, like
 * routers. Their CPU time is read per process, beside the server's.
 *
 * @module
 */
import { drainStderr } from "./child_stderr.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const CHILD = new URL("./sim_child.ts", import.meta.url).pathname;

/** A simulator process and where it listens (its first router's port). */
export interface SimProcess {
  host: string;
  port: number;
  /** Every router's port, in order (`port` is the first). */
  ports: number[];
  pid: number;
  close(): Promise<void>;
}

/** Start `main.ts sim` with one router on a free port; resolves once it listens. */
export function startSimProcess(): Promise<SimProcess> {
  return spawnSims(["run", "--allow-all", MAIN, "sim", "--port", "0"], (out) => {
    const m = /port: (\d+)/.exec(out);
    return m ? [Number(m[1])] : undefined;
  });
}

/**
 * Spawn a simulator process and read its stdout until `ports` finds where
 * its routers listen.
 */
async function spawnSims(
  args: string[],
  ports: (out: string) => number[] | undefined,
): Promise<SimProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = drainStderr(child.stderr);
  let out = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const deadline = setTimeout(() => child.kill(), 60_000);
  let found: number[] | undefined;
  try {
    while (!(found = ports(out))) {
      const { value, done } = await reader.read();
      if (done) {
        await child.status;
        await stderr.done;
        throw new Error(`the simulator process exited before listening: ${stderr.text().trim()}`);
      }
      out += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return {
    host: "127.0.0.1",
    port: found[0],
    ports: found,
    pid: child.pid,
    close: async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
      await child.stdin.close().catch(() => {});
      await stderr.done;
    },
  };
}

/** `count` routers in one process (`sim_child.ts`), each on a free port of its own. */
export function startSimChild(count: number): Promise<SimProcess> {
  return spawnSims(["run", "--allow-all", CHILD, String(count)], (out) => {
    const line = out.split("\n").find((l) => l.startsWith("{"));
    return line && out.includes("\n") ? JSON.parse(line).ports : undefined;
  });
}

/** Routers spread over several simulator processes. */
export interface SimFleet {
  /** Every router's port, in order. */
  ports: number[];
  processes: SimProcess[];
  close(): Promise<void>;
}

/**
 * Start `routers` simulated routers over `processes` processes (one after
 * another: each takes a run of consecutive free ports).
 */
export async function startSimFleet(routers: number, processes: number): Promise<SimFleet> {
  const started: SimProcess[] = [];
  const close = () => Promise.all(started.map((p) => p.close())).then(() => {});
  try {
    const per = Math.ceil(routers / processes);
    for (let left = routers; left > 0; left -= per) {
      started.push(await startSimChild(Math.min(per, left)));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { ports: started.flatMap((p) => p.ports), processes: started, close };
}
