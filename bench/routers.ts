/**
 * Many simulated routers, each on its own ephemeral port. (`startFleet`
 * wants consecutive ports, which other processes on a shared machine often
 * hold; the benchmark needs no particular ports.)
 *
 * @module
 */
import { type SimRouter, startSimulator } from "../lib/sim/mod.ts";

/** Start `count` routers named MikroTik-1..N; on failure, close those started and throw. */
export async function startRouters(count: number): Promise<SimRouter[]> {
  const out: SimRouter[] = [];
  try {
    for (let i = 0; i < count; i++) {
      out.push(await startSimulator({ identity: `MikroTik-${i + 1}` }));
    }
    return out;
  } catch (err) {
    await closeRouters(out);
    throw err;
  }
}

/** Close every router. */
export async function closeRouters(routers: SimRouter[]): Promise<void> {
  await Promise.all(routers.map((r) => r.close()));
}
