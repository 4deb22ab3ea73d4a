/**
 * Which tools a configuration offers, and which a new session lists: the
 * toolsets of {@linkcode chooseToolsets}; `--read-only` drops every write
 * tool and `--allow-raw-commands` adds the tools that opt in to raw
 * commands (`ToolDef.optIn`: `router_run_command`).
 *
 * @module
 */
import { catalogue, DISCOVERY } from "../tools/catalogue.ts";
import type { ToolDef } from "../tools/tool.ts";
import { chooseToolsets, type SelectionSettings } from "./toolset_choice.ts";

export type { SelectionSettings } from "./toolset_choice.ts";

/** What a server offers and what its sessions start with. */
export interface Selection {
  /** Every tool of the product (refusals explain why one is not offered). */
  all: readonly ToolDef[];
  /** Names of the tools this server offers. */
  offered: ReadonlySet<string>;
  /** Names of the tools a new session lists. */
  initial: ReadonlySet<string>;
  /** Names of the discovery tools (listed when `dynamic`, never disabled). */
  discovery: ReadonlySet<string>;
  /** Sessions can enable and disable toolsets (the discovery tools are listed). */
  dynamic: boolean;
}

/**
 * The selection of a configuration (only its settings count) from `all`,
 * the product's catalogue unless given.
 */
export function selectTools(
  config: { settings: SelectionSettings },
  all: readonly ToolDef[] = catalogue(),
): Selection {
  const s = config.settings;
  const choice = chooseToolsets(s);
  const sets = new Set(choice.toolsets);
  const discovery = new Set(DISCOVERY.map((t) => t.name));
  const offered = all.filter((t) =>
    sets.has(t.toolset) &&
    !(s["read-only"] && !t.annotations.readOnlyHint) &&
    (t.optIn !== "raw-commands" || s["allow-raw-commands"]) &&
    !discovery.has(t.name)
  );
  const { dynamic } = choice;
  const initial = choice.coreFirst
    ? offered.filter((t) => t.core)
    : s["dynamic-toolsets"]
    ? []
    : offered;
  const withDiscovery = (list: readonly ToolDef[]) =>
    new Set([...list.map((t) => t.name), ...(dynamic ? discovery : [])]);
  return {
    all,
    offered: withDiscovery(offered),
    initial: withDiscovery(initial),
    discovery,
    dynamic,
  };
}
