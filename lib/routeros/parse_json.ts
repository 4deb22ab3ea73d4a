/**
 * Parse `:serialize to=json` output (RouterOS 7.13 and later).
 *
 * @module
 */
import type { Dialect } from "./dialect.ts";
import { outputError, unparsable } from "./errors.ts";
import { unguard, UnguardedValueError } from "./serialize.ts";

export { outputError };

/** A RouterOS item as read: `.id` plus properties. */
export type RawItem = Record<string, string | boolean | number | string[]>;

/**
 * Parse one line of serialized JSON into items. A singleton menu's object
 * becomes a one-item list. `guarded`: the line was printed by the
 * `json-guarded` form (RouterOS 7.13 to 7.16), whose strings carry a prefix.
 * Error text raises {@linkcode RouterOsError}; anything else that is not
 * JSON fails closed.
 */
export function parseJsonItems(line: string, guarded = false): RawItem[] {
  const text = line.trim();
  if (text.startsWith("[") || text.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
      if (guarded) value = unguard(value);
    } catch (err) {
      if (err instanceof SyntaxError || err instanceof UnguardedValueError) throw unparsable(text);
      throw err;
    }
    const list = Array.isArray(value) ? value : [value];
    return list.map((item) => {
      if (item === null || typeof item !== "object" || Array.isArray(item)) throw unparsable(text);
      return item as RawItem;
    });
  }
  throw outputError(text);
}

/** {@linkcode parseJsonItems} for a line a `dialect` read printed. */
export function jsonItems(dialect: Dialect, line: string): RawItem[] {
  return parseJsonItems(line, dialect.read === "json-guarded");
}
