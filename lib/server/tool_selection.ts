/**
 * Which tools a configuration offers, and which a new session lists:
 *
 * - `--toolsets default` (no flag): every toolset is offered; a session
 *   lists the core tools (what an operator reaches for first) and the
 *   discovery tools that enable the rest;
 * - `--toolsets all`, or a list: those toolsets, all listed;
 * - `--dynamic-toolsets`: a session starts with the discovery tools only;
 * - `--read-only` drops every write tool, `--allow-raw-commands` adds
 *   `router_run_command`.
 *
 * @module
 */
import type { Settings } from "../config/settings.ts";
import { catalogue, DISCOVERY } from "../tools/catalogue.ts";
import { type ToolDef, type Toolset, TOOLSETS } from "../tools/tool.ts";

/** What a server offers and what its sessions start with. */
export interface Selection {
  /** Every tool of the product (refusals explain why one is not offered). */
  all: readonly ToolDef[];
  /** Names of the tools this server offers. */
  offered: ReadonlySet<string>;
  /** Names of the tools a new session lists. */
  initial: ReadonlySet<string>;
  /** Sessions can enable and disable toolsets (the discovery tools are listed). */
  dynamic: boolean;
}

const isToolset = (n: string): n is Toolset => (TOOLSETS as readonly string[]).includes(n);

/** The settings that decide a selection. */
export type SelectionSettings = Pick<
  Settings,
  "toolsets" | "read-only" | "allow-raw-commands" | "dynamic-toolsets"
>;

/** The selection of a configuration (only its settings count). */
export function selectTools(config: { settings: SelectionSettings }): Selection {
  const s = config.settings;
  const names = s.toolsets;
  const byDefault = names.includes("default");
  const sets = new Set<Toolset>(
    byDefault || names.includes("all") ? TOOLSETS : names.filter(isToolset),
  );
  const discovery = new Set(DISCOVERY.map((t) => t.name));
  const all = catalogue();
  const offered = all.filter((t) =>
    sets.has(t.toolset) &&
    !(s["read-only"] && !t.annotations.readOnlyHint) &&
    (t.name !== "router_run_command" || s["allow-raw-commands"]) &&
    !discovery.has(t.name)
  );
  const dynamic = byDefault || s["dynamic-toolsets"];
  const initial = s["dynamic-toolsets"] ? [] : byDefault ? offered.filter((t) => t.core) : offered;
  const withDiscovery = (list: readonly ToolDef[]) =>
    new Set([...list.map((t) => t.name), ...(dynamic ? discovery : [])]);
  return {
    all,
    offered: withDiscovery(offered),
    initial: withDiscovery(initial),
    dynamic,
  };
}
