/**
 * A parser of RouterOS `/export` text into menus and items, for comparing
 * configurations: `/menu` headers (or terse lines with their full path),
 * `add` and `set` commands with their `key=value` arguments (quotes and
 * escapes undone), continuation lines (` \` then four spaces) joined.
 * Comment lines are left out, except the release the header names.
 *
 * RouterOS 7 abbreviates a property group within one command: after
 * `channel.frequency=5000-5400`, `.skip-dfs-channels=10min-cac` means
 * `channel.skip-dfs-channels`; the parser writes every name in full, so an
 * export that abbreviates and one that does not read the same.
 *
 * @module
 */
import { unescaped } from "./escapes.ts";

/** One command of an export: an item added, or settings set. */
export interface ExportCommand {
  /** `add`, `set`, or another verb (`remove`, `unset`, ...). */
  verb: string;
  /** What a `set` acts on: `default-name=ether1` for `[ find default-name=ether1 ]`, `telnet`, `0`. */
  selector?: string;
  /** Arguments by name, values unquoted; a bare word (`blackhole`) is `yes`. */
  values: Record<string, string>;
  /** The command as one line (continuations joined). */
  line: string;
}

/** An export as menus of commands, in order. */
export interface ParsedExport {
  /** The release in the header (`# ... by RouterOS 7.15.2`), when there is one. */
  version?: string;
  /** Commands by menu path with slashes (`/ip/address`), menus in export order. */
  menus: Map<string, ExportCommand[]>;
  /** Lines that are neither a menu, a command nor a comment (global scripts). */
  other: string[];
}

const VERBS = new Set(["add", "set", "remove", "unset", "enable", "disable", "move", "edit"]);

/** Join ` \` continuations and split into logical lines. */
export function logicalLines(text: string): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const piece = cur === undefined ? raw : raw.replace(/^\s+/, "");
    const joined = (cur ?? "") + piece;
    if (/\\$/.test(joined) && !/\\\\$/.test(joined)) {
      cur = joined.slice(0, -1);
      continue;
    }
    cur = undefined;
    out.push(joined);
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

/**
 * Split a command line into words: spaces separate words except inside
 * double quotes (with backslash escapes) and `[ ... ]` brackets.
 */
export function words(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      cur += c;
      if (c === "\\" && i + 1 < line.length) cur += line[++i];
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "[") depth++;
    else if (c === "]" && depth > 0) depth--;
    if (/\s/.test(c) && depth === 0) {
      if (cur) out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** A value as RouterOS means it: quotes removed and escapes undone. */
export function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  const inner = value.slice(1, -1);
  return inner.replace(/\\([0-9A-Fa-f]{2}|.)/gs, (_, e: string) => unescaped(e));
}

/**
 * `[ find default-name=ether1 ]` -> `default-name=ether1`, written one way
 * whatever the export wrote (`where`, quotes: `[ find where
 * default-name="ether1" ]` is the same item); other selectors unquoted.
 */
function selectorOf(word: string): string {
  const m = /^\[\s*find\s*(.*?)\s*\]$/s.exec(word);
  if (!m) return unquote(word);
  const parts = words(m[1]);
  if (parts[0] === "where") parts.shift();
  return parts.map((p) => {
    const eq = p.indexOf("=");
    return eq > 0 && !p.startsWith('"') ? `${p.slice(0, eq)}=${unquote(p.slice(eq + 1))}` : p;
  }).join(" ");
}

/**
 * The full name of an argument: `.ssid` after `configuration.mode` is
 * `configuration.ssid`. The group is that of the nearest full dotted name
 * before it in the same command (a command is one logical line: RouterOS
 * keeps the group across ` \` continuations and starts afresh with the next
 * command). A shorthand with no group before it is kept as written.
 */
function fullName(name: string, group: string | undefined): string {
  return name.startsWith(".") && group !== undefined ? group + name : name;
}

function command(verb: string, rest: string[], line: string): ExportCommand {
  const values: Record<string, string> = {};
  let selector: string | undefined;
  let group: string | undefined;
  rest.forEach((w, i) => {
    const eq = w.indexOf("=");
    if (eq > 0 && !w.startsWith("[") && !w.startsWith('"')) {
      const name = fullName(w.slice(0, eq), group);
      const dot = name.lastIndexOf(".");
      if (dot > 0) group = name.slice(0, dot);
      values[name] = unquote(w.slice(eq + 1));
    } else if (i === 0 && verb !== "add") selector = selectorOf(w);
    else values[w] = "yes";
  });
  return { verb, ...(selector !== undefined ? { selector } : {}), values, line };
}

/** Parse export text (compact, verbose or terse; RouterOS 6 or 7). */
export function parseExport(text: string): ParsedExport {
  const menus = new Map<string, ExportCommand[]>();
  const other: string[] = [];
  let version: string | undefined;
  let menu: string | undefined;
  const push = (path: string, c: ExportCommand) => {
    const list = menus.get(path) ?? [];
    list.push(c);
    menus.set(path, list);
  };
  for (const line of logicalLines(text)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    if (trimmed.startsWith("#")) {
      version ??= /\bby RouterOS (\S+)/.exec(trimmed)?.[1];
      continue;
    }
    const w = words(trimmed);
    if (trimmed.startsWith("/")) {
      const at = w.findIndex((x, i) => i > 0 && (VERBS.has(x) || x.includes("=")));
      const pathWords = at < 0 ? w : w.slice(0, at);
      const path = "/" + pathWords.join(" ").replace(/^\/+/, "").split(/[\s/]+/).filter(Boolean)
        .join("/");
      if (at < 0) {
        menu = path;
        if (!menus.has(path)) menus.set(path, []);
        continue;
      }
      push(path, command(w[at], w.slice(at + 1), trimmed));
      continue;
    }
    if (menu !== undefined && VERBS.has(w[0])) push(menu, command(w[0], w.slice(1), trimmed));
    else other.push(trimmed);
  }
  for (const [path, list] of menus) if (!list.length) menus.delete(path);
  return { ...(version ? { version } : {}), menus, other };
}
