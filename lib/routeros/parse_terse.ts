/**
 * Parse `print terse show-ids` output (RouterOS before 7.13).
 *
 * Each item is one line: its id (`*1A`) or position, then flag letters, then
 * `key=value` pairs whose values are not quoted, so a value runs up to the
 * next ` key=`. Known property names make that split exact.
 *
 * @module
 */
import { outputError, type RawItem } from "./parse_json.ts";

/** Map flag letters to the boolean properties they stand for. */
export type FlagMap = Record<string, string>;

/** The flags most menus use. */
export const DEFAULT_FLAGS: FlagMap = { X: "disabled", D: "dynamic", I: "invalid" };

/**
 * Flags are letters of either case (routes show `DAc`, `As`: lowercase
 * letters for the route's origin); a flag run never holds `=`, so it cannot
 * be taken for a `key=` pair.
 */
const LINE = /^\s*(\*[0-9A-F]+|\d+)((?:\s+[A-Za-z]+)*)\s+(?=[a-z.][a-z0-9.-]*=)(.*)$/;

/**
 * Parse terse lines. `keys` lists the property names the menu has, so a
 * value holding ` other=` is not split there. Blank output is an empty list.
 */
export function parseTerse(
  output: string,
  keys: readonly string[],
  flags: FlagMap = DEFAULT_FLAGS,
): RawItem[] {
  const items: RawItem[] = [];
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) throw outputError(lines.join("\n"));
    const item: RawItem = {};
    if (m[1].startsWith("*")) item[".id"] = m[1];
    const letters = m[2].replace(/\s+/g, "");
    for (const name of Object.values(flags)) item[name] = false;
    for (const letter of letters) {
      const name = flags[letter];
      if (name) item[name] = true;
    }
    Object.assign(item, splitPairs(m[3], keys));
    items.push(item);
  }
  return items;
}

/** Split `a=1 b=x y c=` into pairs, splitting only before known keys. */
export function splitPairs(text: string, keys: readonly string[]): Record<string, string> {
  const known = new Set(keys);
  const starts: { at: number; key: string }[] = [];
  const re = /(^|\s)([a-z.][a-z0-9.-]*)=/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const key = m[2];
    if (starts.length === 0 || known.size === 0 || known.has(key)) {
      starts.push({ at: m.index + m[1].length, key });
    }
  }
  const out: Record<string, string> = {};
  starts.forEach((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].at - 1 : text.length;
    out[s.key] = text.slice(s.at + s.key.length + 1, end).replace(/\s+$/, "");
  });
  return out;
}

/**
 * Parse a singleton menu's `print` (`  name: MikroTik` lines, right-aligned
 * on the colon). A line without a key continues the previous value.
 */
export function parseSingletonPrint(output: string): RawItem {
  const item: RawItem = {};
  let last: string | null = null;
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue;
    const m = /^\s*([a-z0-9][a-z0-9-]*): ?(.*)$/.exec(line);
    if (m) {
      last = m[1];
      item[last] = m[2].replace(/\s+$/, "");
    } else if (last !== null) {
      item[last] = `${item[last]}${line.trim()}`;
    } else {
      throw outputError(output);
    }
  }
  return item;
}
