/**
 * Measures how long starting `n` simulated routers takes and the process RSS afterwards.
 *
 * @module
 */
import { startFleet } from "./mod.ts";

/** Starts `n` routers, measures, closes them. */
export async function measureSimStart(n: number): Promise<{ ms: number; rssMb: number }> {
  const t0 = performance.now();
  const routers = await startFleet(n);
  const ms = performance.now() - t0;
  const rssMb = Deno.memoryUsage().rss / 1024 / 1024;
  await Promise.all(routers.map((r) => r.close()));
  return { ms: Math.round(ms), rssMb: Math.round(rssMb) };
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 500);
  console.log(JSON.stringify(await measureSimStart(n)));
}
