/**
 * Menu declarations: a RouterOS menu described once, as data.
 *
 * @module
 */
import type { FlagMap } from "../routeros/parse_terse.ts";
import type { Field } from "./fields.ts";
import type { Toolset } from "./tool.ts";

/** The verbs the engine can generate tools for. */
export type Verb = "list" | "get" | "add" | "update" | "remove" | "enable" | "disable" | "move";

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
   * Valid `add` arguments (tool names) against a default simulated router,
   * and a valid `update` change; the test that calls every tool uses them.
   */
  example?: { add?: Record<string, unknown>; update: Record<string, unknown> };
  /** RouterOS 6 property renames: tool name → v6 RouterOS name. */
  v6Names?: Record<string, string>;
}
