/**
 * `deno run --allow-all bench/binary.ts BINARY [RUNS]`: start-up and idle
 * memory of a compiled binary, next to `deno run main.ts` and the
 * hello-world server on the deno running this, started in turn: spawn to
 * the `initialize` answer (median of RUNS, default 10) and RSS idle after
 * `initialize` + `tools/list` (median of 3). Prints a Markdown table; the
 * release workflow appends it to its job summary. No router is needed:
 * neither request connects to one.
 *
 * @module
 */
import { listAllTools } from "../lib/mcp_sdk/list_all_tools.ts";
import { SETTLE_MS } from "./memory.ts";
import { denoRun, helloServer, type ServerCommand, startStdioServer } from "./stdio_server.ts";
import { round } from "./stats.ts";

/** Arguments that name a router without reaching it (nothing connects before a tool call). */
const ARGS = [
  "--host",
  "127.0.0.1",
  "--port",
  "1",
  "--host-key-policy",
  "off",
  "--toolsets",
  "all",
];

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/** Spawn-to-initialize samples and idle RSS samples of each command, taken in turn. */
export async function measureBinary(binary: string, runs: number) {
  const commands: [ServerCommand, string[]][] = [
    [{ label: "compiled binary", command: binary, args: [] }, ARGS],
    [denoRun(), ARGS],
    [helloServer(), []],
  ];
  const init = commands.map(() => [] as number[]);
  const rss = commands.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, [command, args]] of commands.entries()) {
      const server = await startStdioServer(args, command);
      try {
        init[k].push(server.initializeMs);
        if (i < 3) {
          await listAllTools(server.client);
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          rss[k].push(await server.rssMb());
        }
      } finally {
        await server.close();
      }
    }
  }
  return commands.map(([command], k) => ({
    label: command.label,
    initializeMs: round(median(init[k]), 1),
    idleRssMb: median(rss[k]),
  }));
}

if (import.meta.main) {
  const [binary, runs = "10"] = Deno.args;
  if (!binary) {
    console.error("usage: deno run --allow-all bench/binary.ts BINARY [RUNS]");
    Deno.exit(2);
  }
  const rows = await measureBinary(binary, Number(runs));
  console.log(`Start-up and idle memory (${Deno.build.os} ${Deno.build.arch}, ${runs} starts)\n`);
  console.log("| server | spawn to `initialize`, median ms | idle RSS after `tools/list`, MiB |");
  console.log("| --- | --- | --- |");
  for (const r of rows) console.log(`| ${r.label} | ${r.initializeMs} | ${r.idleRssMb} |`);
}
