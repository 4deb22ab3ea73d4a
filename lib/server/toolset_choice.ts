/**
 * Which toolsets a configuration offers and whether its sessions can turn
 * toolsets on and off, told from the settings alone (no tool is loaded):
 * what `initialize` says before the catalogue is built, and what
 * {@linkcode selectTools} starts from.
 *
 * - `--toolsets default` (no flag): every toolset, sessions start with the
 *   core tools and the discovery tools;
 * - `--toolsets all`, or a list: those toolsets, all listed;
 * - `--dynamic-toolsets`: sessions start with the discovery tools only.
 *
 * @module
 */
import type { Settings } from "../config/settings.ts";
import { type Toolset, TOOLSETS } from "../tools/tool.ts";

/** The settings that decide a selection. */
export type SelectionSettings = Pick<
  Settings,
  "toolsets" | "read-only" | "allow-raw-commands" | "dynamic-toolsets"
>;

/** The toolsets offered, and whether sessions enable and disable them. */
export interface ToolsetChoice {
  /** Offered toolsets, in catalogue order. */
  toolsets: readonly Toolset[];
  /** Sessions start with the core tools (`--toolsets default` without `--dynamic-toolsets`). */
  coreFirst: boolean;
  /** Sessions can enable and disable toolsets (the discovery tools are listed). */
  dynamic: boolean;
}

const isToolset = (n: string): n is Toolset => (TOOLSETS as readonly string[]).includes(n);

/** The choice a configuration makes (only its settings count). */
export function chooseToolsets(settings: SelectionSettings): ToolsetChoice {
  const names = settings.toolsets;
  const byDefault = names.includes("default");
  const chosen = byDefault || names.includes("all") ? TOOLSETS : names.filter(isToolset);
  return {
    toolsets: TOOLSETS.filter((t) => chosen.includes(t)),
    coreFirst: byDefault && !settings["dynamic-toolsets"],
    dynamic: byDefault || settings["dynamic-toolsets"],
  };
}
