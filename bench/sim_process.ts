/**
 * A simulated router in its own process (`main.ts sim`), as a real router
 * is its own machine: its work then never shares the benchmark's event
 * loop with the MCP client or the floor's ssh2 client, and it is reached
 * only through the loopback network, like a router.
 *
 * @module
 */
const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A simulator process and where it listens. */
export interface SimProcess {
  host: string;
  port: number;
  pid: number;
  close(): Promise<void>;
}

/** Start `main.ts sim` with one router on a free port; resolves once it listens. */
export async function startSimProcess(): Promise<SimProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "sim", "--port", "0"],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // stderr drained (kept short) for the error message, so the child never blocks on it.
  let err = "";
  const draining = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      if (err.length < 10_000) err += chunk;
    }
  })().catch(() => {});
  // The inventory it prints (YAML) names the port once the router listens.
  let out = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const deadline = setTimeout(() => child.kill(), 30_000);
  try {
    while (!/port: (\d+)/.test(out)) {
      const { value, done } = await reader.read();
      if (done) {
        await child.status;
        await draining;
        throw new Error(`the simulator process exited before listening: ${err.trim()}`);
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
    port: Number(/port: (\d+)/.exec(out)![1]),
    pid: child.pid,
    close: async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
      await draining;
    },
  };
}
