/**
 * Just enough of the RouterOS console grammar to see what a raw command
 * names: its statements (split at `;` and line ends outside quotes and
 * brackets), and in each the leading menu words and command (`/ip address
 * add`, `/ip/address/add`, `ip address print`) and the names of its
 * `name=value` arguments up to `where`. Scripting (`:local`, `{...}`,
 * `[...]` substitutions) is not looked into: such a statement is `opaque`,
 * and the router alone judges it.
 *
 * @module
 */

/** One statement of a raw command. */
export interface RawStatement {
  /** Starts at the root (`/ip ...`), else at the menu the previous statements moved to. */
  absolute: boolean;
  /** Menu words and then the command, as far as they are bare words (`..` and the like make it opaque). */
  words: string[];
  /** Names of `name=value` arguments before any `where`. */
  args: string[];
  /** Not a plain menu command: nothing of it is checked. */
  opaque: boolean;
}

/** Split text at top-level `;` and line ends (quotes, `[]`, `{}`, `()` respected). */
export function statements(text: string): string[] {
  const out: string[] = [];
  let depth = 0, quoted = false, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ";" || c === "\n" || c === "\r")) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/** Split a statement into words at top-level spaces (a word may hold quotes and brackets). */
export function words(statement: string): string[] {
  const out: string[] = [];
  let depth = 0, quoted = false, current = "";
  for (let i = 0; i < statement.length; i++) {
    const c = statement[i];
    if (quoted) {
      current += c;
      if (c === "\\" && i + 1 < statement.length) current += statement[++i];
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === " " || c === "\t")) {
      if (current) out.push(current);
      current = "";
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

const MENU_WORD = /^[a-z0-9][a-z0-9-]*$/;
const ARG = /^([a-z0-9][a-z0-9.-]*)=/;

/** The statements of a raw command, each with what it names. */
export function parseRawCommand(text: string): RawStatement[] {
  return statements(text).map((statement) => {
    const ws = words(statement);
    const first = ws[0] ?? "";
    const opaque: RawStatement = { absolute: false, words: [], args: [], opaque: true };
    if (/^[:{[(]/.test(first) || first.startsWith("$")) return opaque;
    const absolute = first.startsWith("/");
    const path: string[] = [];
    let i = 0;
    for (; i < ws.length; i++) {
      const w = ws[i];
      if (w.includes("=") || /["[({$]/.test(w) || w === "where") break;
      const parts = w.split("/").filter((p) => p !== "");
      if (!parts.every((p) => MENU_WORD.test(p))) return opaque;
      // After the first word, a bare word with no slash may be a value (`ping 10.0.0.1`):
      // the caller stops at the command; words after it are left to the router.
      path.push(...parts);
    }
    const args: string[] = [];
    for (; i < ws.length; i++) {
      if (ws[i] === "where") break;
      const m = ARG.exec(ws[i]);
      if (m) args.push(m[1]);
    }
    return { absolute, words: path, args, opaque: false };
  });
}
