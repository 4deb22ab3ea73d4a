/**
 * Entry point for running the simulator alone: `deno run -A lib/sim/main.ts --devices 3`.
 *
 * @module
 */
import { runSimCli } from "./cli.ts";

if (import.meta.main) Deno.exit(await runSimCli(Deno.args));
