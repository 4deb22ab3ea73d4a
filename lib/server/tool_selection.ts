/**
 * Which tools a configuration exposes: toolsets, read-only mode and the raw
 * command switch.
 *
 * @module
 */
import { ConfigError } from "../config/errors.ts";
import type { Config } from "../config/load.ts";
import { catalogue } from "../tools/catalogue.ts";
import { type ToolDef, type Toolset, TOOLSETS } from "../tools/tool.ts";

/** The toolsets named by `--toolsets` (every toolset for `all`). */
export function chosenToolsets(config: Config): Set<Toolset> {
  const names = config.settings.toolsets;
  if (names.includes("all")) return new Set(TOOLSETS);
  // loadConfig already refused unknown names when main.ts passed TOOLSETS in;
  // this check keeps a configuration built without them failing closed.
  const isToolset = (n: string): n is Toolset => (TOOLSETS as readonly string[]).includes(n);
  const unknown = names.filter((n) => !isToolset(n));
  if (unknown.length > 0) {
    throw new ConfigError(
      `invalid value "${
        unknown[0]
      }" for --toolsets (ROUTER_TOOLSETS): expected all or a comma list of: ${TOOLSETS.join(", ")}`,
    );
  }
  return new Set(names.filter(isToolset));
}

/** Every tool this configuration may register, before toolset selection. */
export function availableTools(config: Config): ToolDef[] {
  const tools = catalogue({ allowRawCommands: config.settings["allow-raw-commands"] });
  return config.settings["read-only"] ? tools.filter((t) => t.annotations.readOnlyHint) : tools;
}

/** The tools of the chosen toolsets. */
export function selectTools(config: Config): ToolDef[] {
  const sets = chosenToolsets(config);
  return availableTools(config).filter((t) => sets.has(t.toolset));
}
