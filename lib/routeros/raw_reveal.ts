/**
 * What raw console text (`router_run_command`) would show of the secrets a
 * router holds, told from its words before it is sent:
 *
 * - `show-sensitive`, or any abbreviation of it (`show-sen`, `show`, `s`),
 *   after an `export`, `print` or `show-client-config` (RouterOS 7 takes it
 *   there: every menu's `export` and some `print`s, `shared/fidelity`);
 * - a `get`, `print`, `export` or `find` (abbreviated too) that names a
 *   secret property: `get ... password`, `print proplist=password`, a
 *   filter such as `where password="guess"` or `find private-key=...`,
 *   which answers whether a guess is right.
 *
 * Every statement is looked at, however deep: in `[...]` substitutions,
 * `{...}` blocks, `do={...}` bodies and quoted strings (RouterOS may run a
 * string as a script). Secret names are the one list raw text is masked by
 * (`secret_args.ts`). What a script computes cannot be told by shape (a
 * property named by `[:pick ...]`, a value re-encoded before it is
 * printed); raw commands are admin-only and opt-in, and their output is
 * masked by name ({@linkcode maskRawOutput}) besides.
 *
 * @module
 */
import { statements, words } from "./raw_command.ts";
import { maskRawCommand } from "./raw_secrets.ts";
import { isSecretArgument, SECRET_ARGUMENTS } from "./secret_args.ts";
import { SECRET_MASK } from "../secret_mask.ts";

/** Nesting deeper than this is refused: too deep to tell. */
const MAX_DEPTH = 16;

/** Commands that show what they read (each may be abbreviated). */
const READS = ["get", "print", "export", "find"];

/** Commands that take `show-sensitive` (RouterOS 7). */
const TAKES_SHOW_SENSITIVE = ["export", "print", "show-client-config"];

/** Arguments whose value names the properties a read shows. */
const NAMES_PROPERTIES = ["proplist", "value-name"];

const BARE = /^[a-z0-9][a-z0-9.-]*$/;
const NAMED = /^([a-z0-9][a-z0-9.-]*)(!=|<=|>=|=|~|<|>)(.*)$/s;
const PATH = /^\/?[a-z0-9-]+(\/[a-z0-9-]+)*\/?$/;

/** Whether `word` is `full` or an abbreviation of it. */
function abbreviates(word: string, full: string): boolean {
  return word.length > 0 && full.startsWith(word);
}

/** The content of a quoted string with its escapes undone. */
function unquoted(quoted: string): string {
  return quoted.replace(
    /\\([0-9A-Fa-f]{2}|.)/gs,
    (_, e: string) =>
      e.length === 2
        ? String.fromCharCode(parseInt(e, 16))
        : ({ n: "\n", r: "\r", t: "\t", _: " " } as Record<string, string>)[e] ?? e,
  );
}

/** The texts nested in a word: each quoted string (unquoted) and bracket group's content. */
function nested(word: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) if (word[j] === "\\") j++;
      if (depth === 0) out.push(unquoted(word.slice(i + 1, j)));
      i = j;
    } else if ("[{(".includes(c)) {
      if (depth++ === 0) start = i + 1;
    } else if ("]})".includes(c) && depth > 0) {
      if (--depth === 0) out.push(word.slice(start, i));
    }
  }
  if (depth > 0 && start >= 0) out.push(word.slice(start));
  return out;
}

/** A statement's words, path words split at `/` (`/ppp/secret/get` is three). */
function flat(statement: string): string[] {
  return words(statement).flatMap((w) =>
    PATH.test(w) && w.includes("/") ? w.split("/").filter((p) => p !== "") : [w]
  );
}

/** Why one statement (its words, at one depth) would show a secret, if it would. */
function statementReveals(ws: readonly string[]): string | undefined {
  const read = ws.findIndex((w) => BARE.test(w) && READS.some((r) => abbreviates(w, r)));
  const takes = ws.findIndex((w) =>
    BARE.test(w) && TAKES_SHOW_SENSITIVE.some((r) => abbreviates(w, r))
  );
  if (takes >= 0) {
    for (const w of ws.slice(takes + 1)) {
      const name = BARE.test(w) ? w : NAMED.exec(w)?.[1];
      if (name && abbreviates(name, "show-sensitive")) {
        return `asks for show-sensitive ("${w}"), which shows the secrets it reads`;
      }
    }
  }
  if (read < 0) return undefined;
  const menu = "/" + ws.slice(0, read).filter((w) => BARE.test(w)).join("/");
  for (const w of ws.slice(read + 1)) {
    if (BARE.test(w) && isSecretArgument(w, menu)) {
      return `reads the secret property ${w} ("${ws[read]} ... ${w}")`;
    }
    const m = NAMED.exec(w);
    if (!m) continue;
    const [, name, , value] = m;
    if (isSecretArgument(name, menu)) {
      return `filters on the secret property ${name}, which answers whether a guess is right`;
    }
    if (NAMES_PROPERTIES.some((p) => name.length > 1 && abbreviates(name, p))) {
      const named = value.replace(/^"|"$/g, "").split(",").find((v) => SECRET_ARGUMENTS.has(v));
      if (named) return `reads the secret property ${named} (${name}=${value})`;
    }
  }
  return undefined;
}

/**
 * Why raw console text would show secrets the router holds (a sentence
 * for the refusal), or undefined when nothing in it would by its shape.
 */
export function rawRevealsSecrets(text: string, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) {
    return `nests scripts more than ${MAX_DEPTH} levels deep, too deep to tell whether it ` +
      "shows secrets";
  }
  for (const statement of statements(text)) {
    const why = statementReveals(flat(statement));
    if (why) return why;
    for (const w of words(statement)) {
      for (const inner of nested(w)) {
        const deeper = rawRevealsSecrets(inner, depth + 1);
        if (deeper) return deeper;
      }
    }
  }
  return undefined;
}

/** A JSON member whose name is a secret argument (`"password":"x"`, as `:serialize` writes it). */
const JSON_MEMBER = /"([a-z0-9.-]+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/**
 * Raw console output with every secret value masked: each secret
 * `name=value` (print detail and terse, export, `as-value` output, as
 * {@linkcode maskRawCommand} finds them in commands) and each JSON member
 * named as one. A table column cannot be told by shape.
 */
export function maskRawOutput(output: string): string {
  return maskRawCommand(output).replace(
    JSON_MEMBER,
    (all, name: string, colon: string, value: string) =>
      value !== "" && (SECRET_ARGUMENTS.has(name) || name === "key")
        ? `"${name}"${colon}"${SECRET_MASK}"`
        : all,
  );
}
