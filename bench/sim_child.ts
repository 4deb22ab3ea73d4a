/**
 * Simulated routers in a process of their own for the benchmark: each on
 * its own free port (`main.ts sim --devices N` wants N consecutive free
 * ports, which other processes on a shared machine often hold).
 *
 * `deno run -A bench/sim_child.ts <count>` prints one JSON line with the
 * ports once every router listens, then runs until SIGTERM or the end of
 * stdin.
 *
 * @module
 */
import { closeRouters, startRouters } from "./routers.ts";

if (import.meta.main) {
  const routers = await startRouters(Number(Deno.args[0] ?? 1));
  console.log(JSON.stringify({ ports: routers.map((r) => r.port) }));
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGTERM", resolve);
    (async () => {
      for await (const _ of Deno.stdin.readable);
    })().then(resolve, resolve);
  });
  await closeRouters(routers);
  Deno.exit(0);
}
