/**
 * Parse `print terse show-ids` output (RouterOS before 7.13).
 *
 * Each item is one line: its id (`*1A`) or position, then flag letters, then
 * `key=value` pairs whose values are not quoted, so a value runs up to the
 * next ` key=`. Known property names make that split exact.
 *
 * @module
 */
import { classifyError } from "./errors.ts";
import { outputError, type RawItem } from "./parse_json.ts";

/** Map flag letters to the boolean properties they stand for. */
export type FlagMap = Record<string, string>;

/** The flags most menus use. */
export const DEFAULT_FLAGS: FlagMap = { X: "disabled", D: "dynamic", I: "invalid" };

/**
 * Flags are letters of either case (routes show `DAc`, `As`: lowercase
 * letters for the route's origin), or `*` (a default item) and `+`; a flag
 * run never holds `=`, so it cannot be taken for a `key=` pair.
 */
const LINE = /^\s*(\*[0-9A-F]+|\d+)((?:\s+[A-Za-z*+]+)*)\s+(?=[a-z.][a-z0-9.-]*=)(.*)$/;

/**
 * RouterOS 7 prints dynamic routes without an index (`DAc dst-address=...`,
 * real-output/terse-ip-route-mixed-v6-v7.txt): a flag run, then a key.
 */
const UNNUMBERED = /^\s*([A-Za-z*+]{1,6})\s+(?=([a-z.][a-z0-9.-]*)=)(.*)$/;

/**
 * A log line RouterOS writes into a terminal session on its own (the
 * default logging rule `topics=critical action=echo`): `17:20:06 echo:
 * system,error,critical login failure ...` (real-output/terse-ip-route-mixed-v6-v7.txt,
 * ssh-pty-async-critical-log-echo-tik4net.txt, issue 34), with the date
 * before the time for an entry of another day, as logs print it (6.x
 * `jul/19 14:27:01` and `dec/10/2007 10:40:06`, 7.x `2024-01-02 17:20:06`).
 * Never part of a value.
 */
export const LOG_ECHO =
  /^\r?(?:(?:[A-Za-z]{3}\/\d{2}(?:\/\d{4})?|\d{4}-\d{2}-\d{2}) )?\d{2}:\d{2}:\d{2} echo: /;

/** `"..."` with RouterOS escapes: terse output quotes some values (`address-lists=""`). */
const QUOTED = /^"((?:[^"\\]|\\.)*)"$/;

/** The text of a value terse output printed, quoted or not. */
export function terseValue(raw: string): string {
  const m = QUOTED.exec(raw);
  if (!m) return raw;
  return m[1].replace(/\\([0-9A-F]{2}|.)/g, (_, e: string) => {
    if (e.length === 2) return String.fromCharCode(parseInt(e, 16));
    return ({ n: "\n", r: "\r", t: "\t" } as Record<string, string>)[e] ?? e;
  });
}

/**
 * Parse terse lines. `keys` lists the property names the menu has, so a
 * value holding ` other=` is not split there. A line that does not start an
 * item continues the previous item's last value (a value with a newline).
 * Blank output is an empty list.
 */
export function parseTerse(
  output: string,
  keys: readonly string[],
  flags: FlagMap = DEFAULT_FLAGS,
): RawItem[] {
  return parseTerseItems(output, keys, flags).items;
}

/**
 * {@linkcode parseTerse}, also naming the items whose split is ambiguous: a
 * known `key=` occurs twice in the line, so some value holds that text. The
 * caller reads those items' properties one at a time instead.
 */
export function parseTerseItems(
  output: string,
  keys: readonly string[],
  flags: FlagMap = DEFAULT_FLAGS,
): { items: RawItem[]; ambiguous: Set<number> } {
  const records: { id?: string; letters: string; text: string }[] = [];
  const known = new Set(keys);
  const lines = output.replace(/\r\n/g, "\n").replace(/\s+$/, "").split("\n");
  // An error after normal output (`no such item` after a print) fails the read.
  const last = lines[lines.length - 1] ?? "";
  if (lines.length > 1 && classifyError(last) !== null && !LINE.test(last)) {
    throw outputError(last);
  }
  for (const line of lines) {
    if (LOG_ECHO.test(line)) continue;
    const m = LINE.exec(line);
    const u = m ? null : UNNUMBERED.exec(line);
    if (m) {
      records.push({ id: m[1].startsWith("*") ? m[1] : undefined, letters: m[2], text: m[3] });
    } else if (u && (known.size === 0 || known.has(u[2]))) {
      records.push({ letters: u[1], text: u[3] });
    } else if (records.length) records[records.length - 1].text += "\n" + line;
    else if (line.trim() !== "") throw outputError(output.trim());
  }
  const ambiguous = new Set<number>();
  const items = records.map(({ id, letters, text }, index) => {
    const item: RawItem = {};
    if (id) item[".id"] = id;
    for (const name of Object.values(flags)) item[name] = false;
    for (const letter of letters.replace(/\s+/g, "")) {
      const name = flags[letter];
      if (name) item[name] = true;
    }
    const split = splitPairs(text, keys);
    if (split.ambiguous) ambiguous.add(index);
    return Object.assign(item, split.pairs);
  });
  return { items, ambiguous };
}

/**
 * Split `a=1 b=x y c=` into pairs, splitting only before known keys. When a
 * known `key=` occurs twice, the split is ambiguous; the last occurrence is
 * taken (free text such as a comment comes first in terse output).
 */
export function splitPairs(
  text: string,
  keys: readonly string[],
): { pairs: Record<string, string>; ambiguous: boolean } {
  const known = new Set(keys);
  const found: { at: number; key: string; written: number }[] = [];
  const re = /(^|\s)([a-z.][a-z0-9.-]*)=/g;
  // RouterOS 7 abbreviates a property group as exports do (`.redistribute` after
  // `output.network`): a shorthand is read in full when that name is a known key.
  let group: string | undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const written = m[2].length;
    const key = m[2].startsWith(".") && group !== undefined ? group + m[2] : m[2];
    if (found.length === 0 || known.size === 0 || known.has(key)) {
      found.push({ at: m.index + m[1].length, key, written });
      const dot = key.lastIndexOf(".");
      if (dot > 0) group = key.slice(0, dot);
    }
  }
  const last = new Map(found.map((f) => [f.key, f.at]));
  const starts = known.size === 0
    ? found
    : found.filter((f, i) => i === 0 || last.get(f.key) === f.at);
  const pairs: Record<string, string> = {};
  starts.forEach((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].at - 1 : text.length;
    pairs[s.key] = terseValue(text.slice(s.at + s.written + 1, end).replace(/[ \t]+$/, ""));
  });
  return { pairs, ambiguous: known.size > 0 && starts.length < found.length };
}

/**
 * The value of the only property of a `print terse proplist=<key>` line:
 * everything after `key=`, continuation lines included. Undefined when the
 * item does not have the property.
 */
export function singlePropertyValue(output: string, key: string): string | undefined {
  const text = output.replace(/\s+$/, "");
  const m = LINE.exec(text.split("\n")[0] ?? "");
  if (!m) return undefined;
  const rest = text.slice(text.indexOf(m[3]));
  return rest.startsWith(`${key}=`) ? rest.slice(key.length + 1).replace(/[ \t]+$/, "") : undefined;
}

/** A `key: value` line of a settings menu's print: a property name starts with a letter. */
const KEY_LINE = /^(\s*)([a-z][a-z0-9-]*):(?: (.*))?$/;

/**
 * Parse a settings menu's `print`: `  name: MikroTik` lines, keys
 * right-aligned on the colon, values padded on 7.18 (print-system-resource-
 * v7.18.2-padded-exec-oxidized.txt) or quoted on v5. Left out: echoed log
 * lines ({@linkcode LOG_ECHO}) and `;;;` notes (`;;; Firmware upgraded
 * successfully, please reboot ...` before `/system routerboard print`,
 * print-system-routerboard-warning-comment-v7.txt). Any other line continues
 * the value before it on a new line: a value of several lines, such as an
 * SFP EEPROM dump, prints its further lines at the value column (`eeprom:
 * 0000: 03 04 ...` then `0010: ...` under it), which must not read as a
 * property `0010`; a line that starts exactly at the value column is a
 * continuation even when it reads `word: text`.
 */
export function parseSingletonPrint(output: string): RawItem {
  const item: RawItem = {};
  let last: string | null = null;
  let valueColumn = -1; // where the last key line's value starts
  for (const line of output.replace(/\r\n/g, "\n").split("\n")) {
    if (line.trim() === "" || LOG_ECHO.test(line) || /^\s*;;; /.test(line)) continue;
    const m = KEY_LINE.exec(line);
    const indent = line.length - line.trimStart().length;
    if (m && indent !== valueColumn) {
      last = m[2];
      valueColumn = m[1].length + m[2].length + 2;
      item[last] = terseValue((m[3] ?? "").replace(/\s+$/, ""));
    } else if (last !== null) {
      const text = line.slice(Math.min(indent, valueColumn)).replace(/\s+$/, "");
      item[last] = `${item[last]}\n${text}`;
    } else {
      throw outputError(output);
    }
  }
  return item;
}
