/**
 * `deno run -A bench/fleet_profile.ts [routers] [-- server flags]`: a CPU
 * profile of one cold `router_fleet_query` (every connection opened during
 * the call), as figure 5 runs it: the server under `deno run --cpu-prof`
 * with an inventory of `routers` simulated routers (default 2,000, over
 * four simulator processes), host keys not checked, every other guard on.
 * The simulators are warmed first by a fan-out of another server (in the
 * benchmark they have served the runs before). Prints the call's wall time,
 * the CPU time the server and the simulators spent in it, where the
 * server's
 * time went (the longest stretch of work in the profile: the fan-out, not
 * the start-up), and the path of the `.cpuprofile`. Server flags after
 * `--` (such as `--max-dialing 64`) are passed on, for A/B runs.
 *
 * @module
 */
import { longestStretch, profileIn, profileMarkdown, summarizeProfile } from "./cpuprofile.ts";
import { cpuMs } from "./proc.ts";
import { startSimFleet } from "./sim_process.ts";
import { denoRun, startStdioServer } from "./stdio_server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Profile one cold fan-out over `routers` routers; returns its figures and the profile's path. */
export async function profileColdFanOut(routers: number, serverFlags: string[] = []) {
  const fleet = await startSimFleet(routers, 4);
  const dir = await Deno.makeTempDir({ prefix: "bench-fleet-cpuprof-" });
  const inventory = await Deno.makeTempFile({ prefix: "bench-inventory-", suffix: ".json" });
  try {
    await Deno.writeTextFile(
      inventory,
      JSON.stringify(fleet.ports.map((port, i) => ({
        title: `r${i + 1}`,
        host: "127.0.0.1",
        port,
        username: "admin",
      }))),
    );
    const args = [
      ...["--inventory-file", inventory, "--host-key-policy", "off"],
      ...["--toolsets", "all", "--log-level", "error", ...serverFlags],
    ];
    const warmer = await startStdioServer(args);
    try {
      await warmer.call("router_fleet_query", { tool: "router_list_ip_addresses" }, 300_000);
    } finally {
      await warmer.close();
    }
    const sims = () =>
      Promise.all(fleet.processes.map((p) => cpuMs(p.pid))).then((v) => v.reduce((a, b) => a + b));
    const server = await startStdioServer(args, denoRun(["--cpu-prof", `--cpu-prof-dir=${dir}`]));
    let wallMs = 0;
    let serverCpuMs = 0;
    let simulatorsCpuMs = 0;
    let failed = 0;
    try {
      await sleep(1500);
      const c0 = await cpuMs(server.pid);
      const s0 = await sims();
      const t0 = performance.now();
      const r = await server.call(
        "router_fleet_query",
        { tool: "router_list_ip_addresses" },
        300_000,
      );
      wallMs = performance.now() - t0;
      serverCpuMs = (await cpuMs(server.pid)) - c0;
      simulatorsCpuMs = (await sims()) - s0;
      failed = (r.structuredContent as { failed: number }).failed;
      await sleep(1500);
    } finally {
      await server.close();
    }
    const { path, profile } = await profileIn(dir);
    const stretch = longestStretch(profile);
    return {
      wallMs,
      serverCpuMs,
      simulatorsCpuMs,
      failed,
      path,
      summary: summarizeProfile(profile, stretch ?? {}),
    };
  } finally {
    await fleet.close();
    await Deno.remove(inventory).catch(() => {});
  }
}

if (import.meta.main) {
  const dash = Deno.args.indexOf("--");
  const routers = Number(Deno.args[0] && Deno.args[0] !== "--" ? Deno.args[0] : 2000);
  const r = await profileColdFanOut(routers, dash >= 0 ? Deno.args.slice(dash + 1) : []);
  console.log(
    `cold fan-out to ${routers} routers: ${r.wallMs.toFixed(0)} ms, server CPU ` +
      `${r.serverCpuMs.toFixed(0)} ms, simulators' CPU ${r.simulatorsCpuMs.toFixed(0)} ms, ` +
      `${r.failed} failed\n`,
  );
  console.log(profileMarkdown(r.summary));
  console.log(`\nprofile: ${r.path}`);
}
