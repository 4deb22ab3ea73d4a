/**
 * Secrets in raw RouterOS console text (`router_run_command`, and every
 * command an audit line records): the value of each `name=value` whose name
 * holds a secret ({@linkcode isSecretArgument}) is found and masked, at any
 * depth:
 *
 * - quoted (`password="a b"`, `password="a\"b"`) or not (`password=a`,
 *   `password=[:pick $x 0]`), in `where` clauses (`=`, `!=`, `~`, `<`, `>`)
 *   and in `{...}` blocks;
 * - inside quoted strings, which RouterOS may run as scripts
 *   (`source="/user set 0 password=\"x\""`, `:execute script=...`): each
 *   string's content is read with its escapes undone (`\"`, `\\`, `\n`,
 *   `\XX`, ...) and scanned again, so a value quoted once per nesting level
 *   is found however deep it sits;
 * - in every string, credentials of web requests found by their shape
 *   (`raw_secret_shapes.ts`): a URL's password, a query, form or JSON field
 *   named as a secret (`?password=`, `api_key=`), a bot token in a URL
 *   path, and the credential headers of `http-header-field`;
 * - the part of a URL built by concatenation that stands where its
 *   password goes: the operand after a string that ends in `scheme://user:`,
 *   or between a string ending in `:` and one starting with `@`
 *   (`("https://u:" . $pass . "@host/")`);
 * - a value given to a variable (`:local`, `:global`, `:set`) that a secret
 *   argument, header or URL later uses (`:local pw "x"; /user set 0
 *   password=$pw`), followed through other variables (`:local b $a`) and
 *   through the arguments of function calls (`:local f do={... password=$pw}`
 *   then `$f pw=x`), anywhere in the text (a quoted script sees the
 *   variables of the text around it).
 *
 * Only the value's characters are replaced (`password="********"`,
 * `password=\"********\"`); the rest of the text is left as written. A name
 * is taken for an abbreviation of a secret one when it begins it (RouterOS
 * takes unambiguous abbreviations), and `key` is masked unless the
 * statement's menu is one where it names something else. When in doubt
 * (a value that does not end where it should), more is masked, never less.
 *
 * No shape finds every credential a script can hold (a token computed, or
 * in a URL's path): readers below admin get script text withheld whole
 * (`ScriptText` in `export_secrets.ts`, docs/guards.md).
 *
 * The scan is linear in the text (times the depth of nested quoting): each
 * statement's menu is read once, and each character a bounded number of
 * times per quoting level. {@linkcode maskingWork} counts the steps, so a
 * test holds that bound without a clock.
 *
 * @module
 */
import { SECRET_MASK } from "../secret_mask.ts";
import { isSecretArgument } from "./secret_args.ts";
import { isScriptArgument } from "./script_args.ts";
import { unescaped } from "./escapes.ts";
import {
  endsAtUrlPassword,
  headerSecrets,
  type Range,
  shapedSecrets,
} from "./raw_secret_shapes.ts";

/** Text as one level of quoting reads it: each character with the span of raw text it came from. */
interface View {
  chars: string[];
  from: number[];
  to: number[];
}

/** A span of the raw text that holds a secret value. */
interface Span {
  from: number;
  to: number;
  /** The value as RouterOS reads it (escapes undone), when found by name. */
  value?: string;
}

/** A variable given a value (`:local name value`, `:global`, `:set`, `$f name=value`). */
interface Assignment {
  name: string;
  value: Span;
}

/** What a scan finds: secret values, and every value given to a variable. */
interface Found {
  spans: Span[];
  assignments: Assignment[];
  /** Script arguments (`source`, `on-event`) count as secrets: their values are masked whole. */
  scripts: boolean;
}

/** How raw text is masked. */
export interface MaskOptions {
  /**
   * Mask the value of every argument that holds a script the router runs
   * (`script_args.ts`) whole, as a secret's: for readers who may not see
   * script text.
   */
  scripts?: boolean;
}

const SPACE = /\s/;
const NAME_CHAR = /[a-z0-9.-]/;
const BOUNDARY = /[\s;{[(]/;
const OPENERS = "{[(";
const CLOSERS = "}])";

/** Steps of the scans since {@linkcode maskingWork} last reset it: loop turns and characters read. */
let work = 0;

/** The raw text as a view of itself. */
function rawView(text: string): View {
  const chars = text.split("");
  work += chars.length;
  return {
    chars,
    from: chars.map((_, i) => i),
    to: chars.map((_, i) => i + 1),
  };
}

/** Index of the quote that closes the string opened at `open` (or the view's end). */
function closingQuote(v: View, open: number): number {
  for (let j = open + 1; j < v.chars.length; j++) {
    work++;
    if (v.chars[j] === "\\") j++;
    else if (v.chars[j] === '"') return j;
  }
  return v.chars.length;
}

/** The content of a quoted string (`start` to `end`, exclusive) with its escapes undone. */
function decoded(v: View, start: number, end: number): View {
  const out: View = { chars: [], from: [], to: [] };
  for (let j = start; j < end; j++) {
    work++;
    let char = v.chars[j];
    const from = v.from[j];
    if (char === "\\" && j + 1 < end) {
      const hex = v.chars.slice(j + 1, j + 3).join("");
      if (j + 2 < end && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        char = unescaped(hex);
        j += 2;
      } else {
        char = unescaped(v.chars[++j]);
      }
    }
    out.chars.push(char);
    out.from.push(from);
    out.to.push(v.to[j]);
  }
  return out;
}

/** Where an unquoted value that starts at `k` ends: whitespace or `;` outside brackets and quotes. */
function unquotedEnd(v: View, k: number): number {
  let depth = 0;
  for (; k < v.chars.length; k++) {
    work++;
    const c = v.chars[k];
    if (c === '"') {
      k = closingQuote(v, k);
      if (k >= v.chars.length) break;
    } else if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (SPACE.test(c) || c === ";")) break;
  }
  return k;
}

/** The comparison or assignment after a name (`=`, `!=`, `~`, `<`, `>`, `<=`, `>=`), or "". */
function operatorAt(v: View, k: number): string {
  const two = v.chars.slice(k, k + 2).join("");
  if (two === "!=" || two === "<=" || two === ">=") return two;
  return "=~<>".includes(v.chars[k] ?? "x") ? v.chars[k] : "";
}

/** What the start of a statement says: its menu, and whether it calls a function. */
interface StatementHead {
  /** `/ip/ipsec/key/psk` for `/ip ipsec key psk add ...`, when it starts at the root. */
  menu?: string;
  /** It starts with a variable: a function call (`$f pw=x`). */
  call: boolean;
}

const PATH_CHAR = /[a-z0-9/-]/;

/**
 * The head of the statement that starts at `start`: its leading words, up
 * to the first that is not a menu or command word (`name=value`, `[`...).
 * It reads only those words, so each statement costs its head alone.
 */
function headAt(v: View, start: number): StatementHead {
  let k = skipBlanks(v, start);
  if (v.chars[k] !== "/") return { call: v.chars[k] === "$" };
  const path: string[] = [];
  let word = "";
  for (; k < v.chars.length; k++) {
    work++;
    const c = v.chars[k];
    if (PATH_CHAR.test(c)) word += c;
    else if (SPACE.test(c) && c !== "\n" && c !== "\r") {
      if (word) path.push(...word.split("/").filter((p) => p !== ""));
      word = "";
    } else {
      // A word that is not all menu words ends the head, and is not part of it.
      if (c === "\n" || c === "\r" || c === ";") {
        if (word) path.push(...word.split("/").filter((p) => p !== ""));
      }
      break;
    }
  }
  if (k === v.chars.length && word) path.push(...word.split("/").filter((p) => p !== ""));
  // The last word is the command (`add`, `set`, `print`).
  return { menu: "/" + path.slice(0, -1).join("/"), call: false };
}

/** Part of a view (`a` to `b`, exclusive), as a view. */
function slice(v: View, a: number, b: number): View {
  work += b - a;
  return { chars: v.chars.slice(a, b), from: v.from.slice(a, b), to: v.to.slice(a, b) };
}

/** The span of raw text a view (or part of it) comes from, with its text; none when empty. */
function spanOf(v: View, a = 0, b = v.chars.length): Span | undefined {
  if (b <= a) return undefined;
  work += b - a;
  return { from: v.from[a], to: v.to[b - 1], value: v.chars.slice(a, b).join("") };
}

/** The spans of raw text that ranges of a view's text stand for. */
function spansOf(v: View, ranges: readonly Range[], spans: Span[]): void {
  for (const r of ranges) {
    const span = spanOf(v, r.from, r.to);
    if (span) spans.push(span);
  }
}

/** The end of the value that starts at `k`, and the value as RouterOS reads it. */
function valueView(v: View, k: number): { end: number; view: View } {
  if (v.chars[k] === '"') {
    const close = closingQuote(v, k);
    const after = v.chars[close + 1];
    if (
      close < v.chars.length && (after === undefined || SPACE.test(after) || ";}])".includes(after))
    ) {
      return { end: close + 1, view: decoded(v, k + 1, close) };
    }
  }
  const end = unquotedEnd(v, k);
  return { end, view: slice(v, k, end) };
}

/** Whether an argument name is `http-header-field` of `/tool fetch` (or an abbreviation of it). */
function isHeaderList(name: string): boolean {
  return name.length >= "http-h".length && "http-header-field".startsWith(name);
}

/** A variable assignment (`:local name value`, `:global`, `:set`) at `i`, if there is one. */
function assignmentAt(v: View, i: number): { name: string; at: number } | undefined {
  work += 8;
  if (!/^(?::set|:?local|:?global)\s/.test(v.chars.slice(i, i + 8).join(""))) return undefined;
  work += 200;
  // `set` without its colon is a menu's own command (`/user set 0 ...`), not a variable's.
  const head = /^(?::set|:?local|:?global)\s+("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s+(?=\S)/.exec(
    v.chars.slice(i, i + 200).join(""),
  );
  if (!head || v.chars[i + head[0].length] === ";") return undefined;
  const name = head[1].startsWith('"') ? head[1].slice(1, -1) : head[1];
  return { name, at: i + head[0].length };
}

/** Whether only blanks stand between the statement's start and `i`. */
function startsStatement(v: View, i: number, statement: number): boolean {
  let k = i;
  while (k > statement && SPACE.test(v.chars[k - 1])) {
    work++;
    k--;
  }
  return k === statement;
}

/** The first index at or after `k` that is not blank. */
function skipBlanks(v: View, k: number): number {
  while (k < v.chars.length && SPACE.test(v.chars[k])) {
    work++;
    k++;
  }
  return k;
}

/**
 * The operand that stands where a URL's password goes, after a string
 * (closed at `close`, its text `text`) that ends in `:`: the string held
 * `scheme://user:`, or the next string starts the host (`"@host"`). Such as
 * `$pass` in `("https://u:" . $pass . "@h")` or `(":" . $pass . "@h")`.
 */
function urlPasswordOperand(v: View, close: number, text: string): Span | undefined {
  if (!text.endsWith(":")) return undefined;
  let k = skipBlanks(v, close + 1);
  if (v.chars[k] !== ".") return undefined;
  k = skipBlanks(v, k + 1);
  if (k >= v.chars.length) return undefined;
  const end = valueView(v, k).end;
  let next = skipBlanks(v, end);
  if (v.chars[next] === ".") next = skipBlanks(v, next + 1);
  const host = v.chars[next] === '"' && v.chars[next + 1] === "@";
  return host || endsAtUrlPassword(text) ? spanOf(v, k, end) : undefined;
}

/** Collect secret values and variable assignments in a view (and in every quoted string in it). */
function scan(v: View, found: Found): void {
  const n = v.chars.length;
  work += n;
  spansOf(v, shapedSecrets(v.chars.join("")), found.spans);
  // Each statement's head, by where it starts: read once, and only when a name needs it.
  const heads = new Map<number, StatementHead>();
  const headOf = (start: number) => {
    let head = heads.get(start);
    if (!head) heads.set(start, head = headAt(v, start));
    return head;
  };
  const starts: number[] = [];
  let statement = 0;
  let i = 0;
  while (i < n) {
    work++;
    const c = v.chars[i];
    if (c === '"') {
      const close = closingQuote(v, i);
      const inner = decoded(v, i + 1, close);
      scan(inner, found);
      const operand = urlPasswordOperand(v, close, inner.chars.join(""));
      if (operand) found.spans.push(operand);
      i = close + 1;
      continue;
    }
    if (c === ";" || c === "\n" || c === "\r") statement = i + 1;
    else if (OPENERS.includes(c)) {
      starts.push(statement);
      statement = i + 1;
    } else if (CLOSERS.includes(c)) statement = starts.pop() ?? 0;
    const assignment = (c === ":" || c === "l" || c === "g") && startsStatement(v, i, statement)
      ? assignmentAt(v, i)
      : undefined;
    if (assignment) {
      const value = spanOf(valueView(v, assignment.at).view);
      if (value) found.assignments.push({ name: assignment.name, value });
      // The value is scanned as any other text (a quoted script in it, ...).
      i = assignment.at;
      continue;
    }
    if (!NAME_CHAR.test(c) || (i > 0 && !BOUNDARY.test(v.chars[i - 1]))) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && NAME_CHAR.test(v.chars[j])) j++;
    work += j - i;
    const op = operatorAt(v, j);
    if (!op) {
      i = j;
      continue;
    }
    const name = v.chars.slice(i, j).join("");
    if (op === "=" && isHeaderList(name)) {
      const value = valueView(v, j + 1).view;
      spansOf(value, headerSecrets(value.chars.join("")), found.spans);
      // The value is scanned as any other text too.
      i = j + 1;
      continue;
    }
    const { menu, call } = headOf(statement);
    const secret = isSecretArgument(name, menu) ||
      (found.scripts && menu !== undefined && isScriptArgument(menu, name));
    if (!secret) {
      // A function's argument is a variable inside it: secret when the function uses it so.
      if (call && op === "=") {
        const value = spanOf(valueView(v, j + 1).view);
        if (value) found.assignments.push({ name, value });
      }
      i = j + op.length;
      continue;
    }
    const value = valueView(v, j + op.length);
    const span = spanOf(value.view);
    if (span) found.spans.push(span);
    i = value.end;
  }
}

/** The variables a value uses (`$name`, `$"name"`). */
function variablesIn(value: string): string[] {
  work += value.length;
  return [...value.matchAll(/\$(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))/g)].map((m) =>
    m[1] ?? m[2]
  );
}

/**
 * Every secret value in raw console text: by name, by shape and in
 * headers, then the values given to the variables those use, and to the
 * variables they use, until there are no more.
 */
function collect(text: string, options: MaskOptions = {}): Span[] {
  const found: Found = { spans: [], assignments: [], scripts: options.scripts ?? false };
  scan(rawView(text), found);
  const given = new Map<string, Span[]>();
  for (const a of found.assignments) {
    const values = given.get(a.name);
    if (values) values.push(a.value);
    else given.set(a.name, [a.value]);
  }
  const spans: Span[] = [];
  const secret = new Set<string>();
  const next: string[] = [];
  const add = (s: Span) => {
    spans.push(s);
    for (const name of variablesIn(s.value ?? text.slice(s.from, s.to))) {
      if (secret.has(name)) continue;
      secret.add(name);
      next.push(name);
    }
  };
  found.spans.forEach(add);
  // Each variable once: the values it was given, then the variables those use.
  while (next.length) (given.get(next.pop()!) ?? []).forEach(add);
  return spans;
}

/** Spans in order of the text, overlapping ones merged. */
function merged(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from || b.to - a.to);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

/**
 * Raw console text with the value of every secret argument masked:
 * `/user add name=a password="x y"` gives `/user add name=a password="********"`.
 */
export function maskRawCommand(text: string, options: MaskOptions = {}): string {
  const spans = merged(collect(text, options));
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.from) + SECRET_MASK;
    at = s.to;
  }
  return out + text.slice(at);
}

/**
 * The secret values of raw console text, as written there (escapes and
 * all) and as RouterOS reads them: what free text that may quote the
 * command (an error) is masked by.
 */
export function rawSecretValues(text: string): string[] {
  const spans = collect(text);
  const values = merged(spans).map((s) => text.slice(s.from, s.to));
  for (const s of spans) if (s.value !== undefined) values.push(s.value);
  return [...new Set(values)].filter((v) => v !== "");
}

/**
 * The steps {@linkcode maskRawCommand} and {@linkcode rawSecretValues} take
 * on `text` (loop turns and characters read): how a test holds the scan
 * linear without a clock.
 */
export function maskingWork(text: string): number {
  work = 0;
  maskRawCommand(text);
  rawSecretValues(text);
  return work;
}
