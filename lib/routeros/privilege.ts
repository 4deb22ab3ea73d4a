/**
 * A privileged field's grant (what it gives whoever sets it) and whether a
 * value grants it: the words the role guard and the menu tools share, kept
 * out of the schema so that the guard loads without the catalogue.
 *
 * @module
 */

/** What a privileged field grants, and which of its values do ({@linkcode Field.privileged}). */
export interface Privilege {
  grants: string;
  /**
   * Only these values grant it (a list: holding one); none: every value but
   * empty or off. A value ending in `:` is an attribute's name: it matches
   * every `name:value` of that name (`mikrotik-group:` matches
   * `Mikrotik-Group:full`, spaces around the colon ignored).
   */
  values?: readonly string[];
}

/**
 * Whether `value` (a tool argument, or a typed value read from the router)
 * grants `privilege`: empty, off, null and an empty list never do; with
 * `values`, only a value (or a list, or comma-separated text) holding one
 * (case aside).
 */
export function grantsPrivilege(privilege: Privilege, value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === false) return false;
  const words = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(","))
    .map((w) => w.trim().toLowerCase()).filter((w) => w !== "");
  if (!words.length) return false;
  return !privilege.values || words.some((w) => privilege.values!.some((v) => matches(v, w)));
}

/** Whether `word` is the privileged value `value`, or an attribute of its name (`name:`). */
function matches(value: string, word: string): boolean {
  if (!value.endsWith(":")) return word === value;
  const colon = word.indexOf(":");
  return colon >= 0 && word.slice(0, colon).trim() + ":" === value;
}
