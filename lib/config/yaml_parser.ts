/**
 * The YAML parser, loaded only when an inventory is given: importing it
 * costs start-up time that a single-router server never needs.
 * `loadConfigAsync` (load.ts) loads it when the settings name an inventory;
 * code that parses an inventory synchronously loads it first.
 *
 * @module
 */
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/** Load the YAML parser (once). */
export async function loadYamlParser(): Promise<void> {
  loaded ??= await import("yaml");
}

/** The loaded YAML parser; an internal error when nobody loaded it. */
export function yamlParser(): typeof Yaml {
  if (!loaded) {
    throw new Error("internal: the YAML parser is not loaded (await loadYamlParser() first)");
  }
  return loaded;
}
