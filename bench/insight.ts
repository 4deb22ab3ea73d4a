/**
 * Wall time of the insight tools over labs of simulated routers wired in a
 * ring with a branch (`lib/sim/lab.ts`), through the in-process server and
 * real SSH: `router_audit_security` on the whole fleet, `router_topology`
 * (every device read, the graph built) and one `router_trace_path` across
 * half the ring. Cold is a tool's first call (the audit runs first, so its
 * cold call also opens every connection and detects each release), warm
 * the median of the next three.
 *
 *     deno run --allow-all bench/insight.ts [sizes...]   # default: 5 20 50
 *
 * docs/insight.md quotes the figures of one run.
 *
 * @module
 */
import { type Lab, type LabLink, startLab } from "../lib/sim/lab.ts";
import { serveInProcess } from "../tests/helpers/in_process.ts";
import { callTool } from "../tests/helpers/mcp.ts";

/** `n` routers r1..rn in a ring, each with a /30 to the next, and r(n+1) branching off r2. */
function ringLab(n: number): Lab {
  const name = (i: number) => `r${((i - 1 + n) % n) + 1}`;
  const net = (i: number) => `10.${Math.floor(i / 250)}.${i % 250}.0/30`;
  const routers = Array.from({ length: n }, (_, k) => ({
    name: `r${k + 1}`,
    lan: `172.16.${k + 1}.1/24`,
    // the default route goes clockwise: to the next router of the ring
    routes: [{ dst: "0.0.0.0/0", gateway: `${net(k + 1).slice(0, -4)}2` }],
  }));
  routers.push({ name: `r${n + 1}`, lan: "172.31.0.1/24", routes: [] });
  const links: LabLink[] = Array.from({ length: n }, (_, k) => ({
    a: [name(k + 1), "ether2"],
    b: [name(k + 2), "ether3"],
    subnet: net(k + 1),
  }));
  links.push({
    a: ["r2", "ether4"] as const,
    b: [`r${n + 1}`, "ether2"] as const,
    subnet: "10.255.0.0/30",
  });
  return { routers, links };
}

async function time(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return Math.round(performance.now() - t);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const sizes = Deno.args.length ? Deno.args.map(Number) : [5, 20, 50];
for (const n of sizes) {
  const lab = await startLab(ringLab(n));
  const session = await serveInProcess([
    "--inventory",
    JSON.stringify(lab.inventory()),
    "--host-key-policy",
    "off",
  ]);
  try {
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = await callTool(session, tool, args);
      if (r.isError) throw new Error(`${tool}: ${r.content[0].text}`);
    };
    const row: Record<string, string> = {};
    const calls: [string, string, Record<string, unknown>][] = [
      ["audit", "router_audit_security", {}],
      ["topology", "router_topology", {}],
      ["trace", "router_trace_path", { from: "r1", destination: `172.16.${Math.ceil(n / 2)}.9` }],
    ];
    for (const [label, tool, args] of calls) {
      const cold = await time(() => call(tool, args));
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) runs.push(await time(() => call(tool, args)));
      const warm = median(runs);
      row[label] = `${cold} ms cold, ${warm} ms warm`;
    }
    console.log(`${n + 1} routers: ${Object.entries(row).map(([k, v]) => `${k} ${v}`).join("; ")}`);
  } finally {
    await session.close();
    await lab.close();
  }
}
