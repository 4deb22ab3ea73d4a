/**
 * Menu declarations: a RouterOS menu described once, as data.
 *
 * @module
 */
import type { Dialect } from "../routeros/dialect.ts";
import type { FlagMap } from "../routeros/parse_terse.ts";
import type { Field } from "./fields.ts";
import type { Toolset } from "./tool.ts";

/**
 * RouterOS versions that have a menu or property, as `major.minor` bounds,
 * both inclusive: `{ min: "7.13" }` is 7.13 and later, `{ max: "6.49" }` is
 * RouterOS 6 only.
 */
export interface VersionRange {
  min?: string;
  max?: string;
}

function versionNumber(text: string): number {
  const [major, minor = "0"] = text.split(".");
  return Number(major) * 1000 + Number(minor);
}

/** True when the dialect's version lies in the range (no range: every version). */
export function onVersion(range: VersionRange | undefined, dialect: Dialect): boolean {
  if (!range) return true;
  const v = dialect.major * 1000 + dialect.minor;
  if (range.min && v < versionNumber(range.min)) return false;
  if (range.max && v > versionNumber(range.max)) return false;
  return true;
}

/** "RouterOS 7.13 and later", "RouterOS 6 only", for descriptions and errors. */
export function describeVersions(range: VersionRange): string {
  if (range.min && range.max) return `RouterOS ${range.min} to ${range.max}`;
  if (range.min) return `RouterOS ${range.min} and later`;
  if (range.max) {
    return range.max.startsWith("6.") ? "RouterOS 6 only" : `RouterOS ${range.max} and older`;
  }
  return "every RouterOS version";
}

/** The verbs the engine can generate tools for. */
export type Verb = "list" | "get" | "add" | "update" | "remove" | "enable" | "disable" | "move";

/** Example arguments of a menu's tools (tool-side names). */
export interface MenuExample {
  /** Valid `add` arguments. */
  add?: Record<string, unknown>;
  /** A valid `update` change (without the item reference). */
  update?: Record<string, unknown>;
  /**
   * For menus without `add`: the reference (`{ name: "ether3" }`) of an item
   * a default router has, for get, update, enable and disable.
   */
  target?: Record<string, unknown>;
  /** Menus (paths) whose example item must exist first (a peer needs its interface). */
  requires?: readonly string[];
}

/** One RouterOS menu. */
export interface Menu {
  /** RouterOS path, e.g. `/ip/address`. */
  path: string;
  toolset: Toolset;
  /** Tool name stem, singular (`ip_address`) and plural (`ip_addresses`). */
  singular: string;
  plural: string;
  /** What the items are, for tool descriptions ("IPv4 addresses"). */
  noun: string;
  /** Extra guidance for the LLM, appended to descriptions. */
  notes?: string;
  /** Natural key property (RouterOS name), if items have one (`name`). */
  key?: string;
  /** Properties, by RouterOS name (`actual-interface`). */
  fields: Record<string, Field>;
  verbs: readonly Verb[];
  /** Columns of the compact text table (RouterOS names). */
  columns: readonly string[];
  /** Flag letters in terse output (default X/D/I). */
  flags?: FlagMap;
  /** A singleton menu (`/system identity`): get and set only. */
  singleton?: boolean;
  /**
   * Valid arguments against a default simulated router; the docs and the
   * test that calls every tool use them.
   */
  example?: MenuExample;
  /** RouterOS versions that have this menu (default: all). */
  versions?: VersionRange;
  /** RouterOS 6 property renames: tool name → v6 RouterOS name. */
  v6Names?: Record<string, string>;
}
