/**
 * `deno run -A bench/profile.ts [calls] [tool]`: a CPU profile of warm
 * stdio tool calls. The server runs as `deno run --cpu-prof main.ts` in
 * front of one simulated router (its own process), with every guard on and
 * the default log level; after a warm-up it answers `calls` calls of `tool`
 * (default 3000 of `router_list_ip_addresses`) back to back. Prints where
 * the server's time went in that stretch (start-up and shutdown left out)
 * and the path of the `.cpuprofile`, kept for a closer look.
 *
 * @module
 */
import { measuredWindow, profileIn, profileMarkdown, summarizeProfile } from "./cpuprofile.ts";
import { startSimProcess } from "./sim_process.ts";
import { denoRun, singleRouterArgs, startStdioServer } from "./stdio_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Profile `calls` warm calls of `tool`; returns the summary, and the
 * profile's path when `keep` is set (else the profile is deleted).
 */
export async function profileCalls(calls: number, tool: string, keep = false) {
  const dir = await Deno.makeTempDir({ prefix: "bench-cpuprof-" });
  const sim = await startSimProcess();
  try {
    const server = await startStdioServer(
      singleRouterArgs(sim.host, sim.port),
      denoRun(["--cpu-prof", `--cpu-prof-dir=${dir}`]),
    );
    let ms = 0;
    try {
      for (let i = 0; i < 300; i++) await server.call(tool);
      await sleep(500);
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await server.call(tool);
      ms = performance.now() - t0;
      await sleep(500);
    } finally {
      await server.close();
    }
    const { path, profile } = await profileIn(dir);
    const window = measuredWindow(profile);
    if (!keep) await Deno.remove(dir, { recursive: true });
    return {
      path: keep ? path : undefined,
      perCallMs: ms / calls,
      windowFound: window !== null,
      summary: summarizeProfile(profile, window ?? {}),
    };
  } finally {
    await sim.close();
  }
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 3000);
  const tool = Deno.args[1] ?? "router_list_ip_addresses";
  const r = await profileCalls(calls, tool, true);
  console.log(
    `${calls} calls of ${tool}: ${r.perCallMs.toFixed(3)} ms per call (client side)` +
      `${r.windowFound ? "" : "; measured stretch not found, whole profile shown"}\n`,
  );
  console.log(profileMarkdown(r.summary));
  console.log(`\nprofile: ${r.path}`);
}
