/**
 * The same measurement as `lib/sim/bench_start.ts` (time to start `n`
 * routers, then the process RSS), with every router on its own ephemeral
 * port: `startFleet` wants `n` consecutive free ports, which a machine with
 * many connections in TIME_WAIT often lacks. Prints `{"ms":..,"rssMb":..}`.
 *
 * @module
 */
import { closeRouters, startRouters } from "./routers.ts";

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 500);
  const t0 = performance.now();
  const routers = await startRouters(n);
  const ms = performance.now() - t0;
  const rssMb = Deno.memoryUsage().rss / 1024 / 1024;
  await closeRouters(routers);
  console.log(JSON.stringify({ ms: Math.round(ms), rssMb: Math.round(rssMb) }));
}
