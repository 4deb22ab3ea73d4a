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
 * - the password of a URL (`url="sftp://user:pw@host/f"`);
 * - credentials in HTTP headers that `/tool fetch` sends (`http-header-field`,
 *   a comma-separated list of `Name: value`): the value of `Authorization`
 *   (its scheme word kept: `Authorization: Bearer ********`), `Cookie` and
 *   every header whose name says auth, token, key, secret, password,
 *   session, signature or credential;
 * - a value given to a variable (`:local`, `:global`, `:set`) that a secret
 *   argument or header later uses (`:local pw "x"; /user set 0 password=$pw`),
 *   followed through other variables (`:local b $a`), anywhere in the text
 *   (a quoted script sees the variables of the text around it).
 *
 * Only the value's characters are replaced (`password="********"`,
 * `password=\"********\"`); the rest of the text is left as written. A name
 * is taken for an abbreviation of a secret one when it begins it (RouterOS
 * takes unambiguous abbreviations), and `key` is masked unless the
 * statement's menu is one where it names something else. When in doubt
 * (a value that does not end where it should), more is masked, never less.
 *
 * @module
 */
import { SECRET_MASK } from "../secret_mask.ts";
import { isSecretArgument } from "./secret_args.ts";
import { unescaped } from "./escapes.ts";

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

/** A variable given a value (`:local name value`, `:global`, `:set`). */
interface Assignment {
  name: string;
  value: Span;
}

/** What a scan finds: secret values, and every value given to a variable. */
interface Found {
  spans: Span[];
  assignments: Assignment[];
}

const SPACE = /\s/;
const NAME_CHAR = /[a-z0-9.-]/;
const BOUNDARY = /[\s;{[(]/;
const OPENERS = "{[(";
const CLOSERS = "}])";
/** The raw text as a view of itself. */
function rawView(text: string): View {
  const chars = [...text.split("")];
  return {
    chars,
    from: chars.map((_, i) => i),
    to: chars.map((_, i) => i + 1),
  };
}

/** Index of the quote that closes the string opened at `open` (or the view's end). */
function closingQuote(v: View, open: number): number {
  for (let j = open + 1; j < v.chars.length; j++) {
    if (v.chars[j] === "\\") j++;
    else if (v.chars[j] === '"') return j;
  }
  return v.chars.length;
}

/** The content of a quoted string (`start` to `end`, exclusive) with its escapes undone. */
function decoded(v: View, start: number, end: number): View {
  const out: View = { chars: [], from: [], to: [] };
  for (let j = start; j < end; j++) {
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

/**
 * The menu of a statement (`/ip/ipsec/key/psk` for `/ip ipsec key psk add`),
 * when its text starts at the root; undefined otherwise.
 */
function menuOf(statement: string): string | undefined {
  const words = statement.trim().split(/\s+/);
  if (!words[0]?.startsWith("/")) return undefined;
  const path: string[] = [];
  for (const w of words) {
    if (!/^[a-z0-9/-]+$/.test(w)) break;
    path.push(...w.split("/").filter((p) => p !== ""));
  }
  return "/" + path.slice(0, -1).join("/");
}

/** Part of a view (`a` to `b`, exclusive), as a view. */
function slice(v: View, a: number, b: number): View {
  return { chars: v.chars.slice(a, b), from: v.from.slice(a, b), to: v.to.slice(a, b) };
}

/** The span of raw text a view (or part of it) comes from, with its text; none when empty. */
function spanOf(v: View, a = 0, b = v.chars.length): Span | undefined {
  return b > a
    ? { from: v.from[a], to: v.to[b - 1], value: v.chars.slice(a, b).join("") }
    : undefined;
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

/** HTTP header names whose value is a credential. */
const SECRET_HEADER = /auth|cookie|token|key|secret|passw|session|signature|credential/i;
/** Headers whose value starts with a scheme word that is no secret (`Bearer`, `Basic`). */
const SCHEMED_HEADER = /^(proxy-)?authorization$/i;
/**
 * Where a header of a comma-separated list starts: its name and colon (after
 * `("` too: an expression such as `("Authorization: Bearer " . $token)`,
 * whose credential is masked to the end, the variable included).
 */
const HEADER_START = /(?:^|[,("])\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:/g;

/** The credential values of a `Name: value, Name: value` header list (a view of its value). */
function headerSpans(v: View, spans: Span[]): void {
  const text = v.chars.join("");
  const starts = [...text.matchAll(HEADER_START)];
  starts.forEach((m, h) => {
    if (!SECRET_HEADER.test(m[1])) return;
    let a = m.index! + m[0].length;
    const b = starts[h + 1]?.index ?? text.length;
    while (a < b && SPACE.test(text[a])) a++;
    const scheme = SCHEMED_HEADER.test(m[1]) ? /^\S+\s+(?=\S)/.exec(text.slice(a, b)) : null;
    if (scheme) a += scheme[0].length;
    const span = spanOf(v, a, b);
    if (span) spans.push(span);
  });
}

/** A variable assignment (`:local name value`, `:global`, `:set`) at `i`, if there is one. */
function assignmentAt(v: View, i: number): { name: string; at: number } | undefined {
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
  while (k > statement && SPACE.test(v.chars[k - 1])) k--;
  return k === statement;
}

/** Collect secret values and variable assignments in a view (and in every quoted string in it). */
function scan(v: View, found: Found): void {
  const n = v.chars.length;
  const starts: number[] = [];
  let statement = 0;
  let i = 0;
  while (i < n) {
    const c = v.chars[i];
    if (c === '"') {
      const close = closingQuote(v, i);
      scan(decoded(v, i + 1, close), found);
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
    const op = operatorAt(v, j);
    if (!op) {
      i = j;
      continue;
    }
    const name = v.chars.slice(i, j).join("");
    if (op === "=" && isHeaderList(name)) {
      headerSpans(valueView(v, j + 1).view, found.spans);
      // The value is scanned as any other text too.
      i = j + 1;
      continue;
    }
    const menu = menuOf(v.chars.slice(statement, i).join(""));
    if (!isSecretArgument(name, menu)) {
      i = j + op.length;
      continue;
    }
    const value = valueView(v, j + op.length);
    const secret = spanOf(value.view);
    if (secret) found.spans.push(secret);
    i = value.end;
  }
}

/** The variables a value uses (`$name`, `$"name"`). */
function variablesIn(value: string): string[] {
  return [...value.matchAll(/\$(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))/g)].map((m) =>
    m[1] ?? m[2]
  );
}

/**
 * Every secret value in raw console text: by name and in headers, then the
 * values given to the variables those use, and to the variables they use,
 * until there are no more.
 */
function collect(text: string): Span[] {
  const found: Found = { spans: [], assignments: [] };
  scan(rawView(text), found);
  const given = new Map<string, Span[]>();
  for (const a of found.assignments) given.set(a.name, [...given.get(a.name) ?? [], a.value]);
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

/** URL user info with a password: `scheme://user:` then the password up to `@`. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]{0,31}:\/\/[^\s"/@:\\]*:)([^\s"/@\\]+)@/gi;

/** The spans of every secret value in raw console text, in order, not overlapping. */
function secretSpans(text: string): Span[] {
  const spans = collect(text);
  for (const m of text.matchAll(URL_PASSWORD)) {
    const from = m.index! + m[1].length;
    spans.push({ from, to: from + m[2].length });
  }
  spans.sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else merged.push({ ...s });
  }
  return merged;
}

/**
 * Raw console text with the value of every secret argument masked:
 * `/user add name=a password="x y"` gives `/user add name=a password="********"`.
 */
export function maskRawCommand(text: string): string {
  const spans = secretSpans(text);
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
  const values = secretSpans(text).map((s) => text.slice(s.from, s.to));
  for (const s of spans) if (s.value !== undefined) values.push(s.value);
  return [...new Set(values)].filter((v) => v !== "");
}
