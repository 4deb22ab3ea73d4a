/**
 * RouterOS error texts, recognised from command output.
 *
 * RouterOS prints errors on stdout and its exit status cannot be trusted, so
 * errors are read from the text (see `shared/routeros-cli.md`).
 *
 * @module
 */

/** A stable code for each kind of RouterOS error. */
export type RouterOsErrorKind =
  | "bad-command"
  | "syntax"
  | "not-found"
  | "already-exists"
  | "invalid-value"
  | "missing-reference"
  | "permission"
  | "failure"
  | "unparsable";

/** An error RouterOS reported, or output we could not understand. */
export class RouterOsError extends Error {
  readonly kind: RouterOsErrorKind;
  /** RouterOS's own message, verbatim (first lines). */
  readonly routerMessage: string;

  constructor(kind: RouterOsErrorKind, message: string, routerMessage: string) {
    super(message);
    this.name = "RouterOsError";
    this.kind = kind;
    this.routerMessage = routerMessage;
  }
}

const PATTERNS: [RegExp, RouterOsErrorKind][] = [
  [/^bad command name /, "bad-command"],
  [/^expected command name/, "bad-command"],
  [/^expected end of command/, "syntax"],
  [/^syntax error/, "syntax"],
  [/^expected closing (brace|bracket|parenthesis)/, "syntax"],
  [/^bad parameter /, "syntax"],
  [/^missing value\(s\) of argument/, "invalid-value"],
  [/^no such item/, "not-found"],
  [/^failure: already have /, "already-exists"],
  [/^failure: duplicate /, "already-exists"],
  [/already exists/, "already-exists"],
  [/^input does not match any value of /, "missing-reference"],
  [/^invalid value /, "invalid-value"],
  [/^value of \S+ /, "invalid-value"],
  [/^not enough permissions/, "permission"],
  [/^failure: /, "failure"],
  [/^action cancelled/, "failure"],
];

/**
 * If `text` starts with a RouterOS error message, return its kind.
 * Returns null for text that is not a known error.
 */
export function classifyError(text: string): RouterOsErrorKind | null {
  const first = text.trimStart().split("\n", 1)[0] ?? "";
  for (const [re, kind] of PATTERNS) if (re.test(first)) return kind;
  return null;
}

/** The error text trimmed to what a person needs (first few lines). */
export function errorText(output: string): string {
  return output.trim().split("\n").slice(0, 6).join("\n");
}
