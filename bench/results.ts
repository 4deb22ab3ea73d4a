/**
 * The shape of one benchmark run, as written to `bench/results.json`.
 *
 * @module
 */
import type { ColdStart } from "./cold_start.ts";
import type { ProfileSummary } from "./cpuprofile.ts";
import type { FanOut, FleetMemory } from "./fleet.ts";
import type { GoalResult } from "./goals.ts";
import type { HttpBench } from "./http.ts";
import type { LatencyFigures } from "./latency.ts";
import type { Machine } from "./machine.ts";
import type { MemoryFigures } from "./memory.ts";
import type { SimStart } from "./sim_start.ts";
import type { ToolListFigures } from "./tool_list.ts";
import type { ParallelConnect, Timing } from "./ssh.ts";
import type { WanFigures } from "./wan.ts";

/** SSH layer figures from `bench/ssh.ts`. */
export interface SshFigures {
  connect: Timing;
  parallelConnect: ParallelConnect;
}

/** Every figure; a figure that could not be measured is absent (see `errors`). */
export interface Figures {
  latency?: LatencyFigures;
  http?: HttpBench;
  fanOut?: FanOut[];
  fleetMemory?: FleetMemory;
  memory?: MemoryFigures;
  /** Where the server's time went in warm stdio calls. */
  profile?: { calls: number; summary: ProfileSummary };
  coldStart?: ColdStart[];
  simStart?: SimStart;
  wan?: WanFigures;
  ssh?: SshFigures;
  /** Bytes of `tools/list` (default and `--toolsets all`). */
  toolList?: ToolListFigures;
}

/** One run of `deno task bench`. */
export interface Results {
  mode: "full" | "quick";
  machine: Machine;
  /** Load averages when the run ended. */
  loadAtEnd: number[];
  durationS: number;
  figures: Figures;
  goals: GoalResult[];
  /** Figures that failed to run, with why. */
  errors: { figure: string; message: string }[];
  /** Figures measured again after the run (`--only`), each re-run with its date and load. */
  reruns?: {
    figures: string[];
    date: string;
    loadAtStart: number[];
    loadAtEnd: number[];
    durationS: number;
  }[];
}
