/**
 * Every error text RouterOS is known to print, as data: the pattern of its
 * first line, the kind it is, and where the text was seen. RouterOS prints
 * errors on stdout and its exit status cannot be trusted, so a reply is an
 * error when its first line matches a row here (`classifyError` in
 * `errors.ts` reads this table, first match wins).
 *
 * Sources: `shared/routeros-cli.md` and the captures in
 * `shared/real-output` (named per row), issue 34 (real router output held
 * outside the project), and public material named per row. A unit test runs
 * every error text of `shared/real-output` through this table.
 *
 * Each kind also carries what an agent is told: what happened and what to
 * do about it.
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
  | "ambiguous"
  | "permission"
  | "failure"
  | "unparsable";

/** One known error text. */
export interface ErrorPattern {
  /** Matched against the first line of the reply (trimmed at the start). */
  pattern: RegExp;
  kind: RouterOsErrorKind;
  /** Where the text was seen: a file of `shared/real-output`, `routeros-cli.md`, or a public source. */
  source: string;
}

/** The known error texts, most specific first. */
export const ERROR_PATTERNS: readonly ErrorPattern[] = [
  {
    pattern: /^bad command name /,
    kind: "bad-command",
    source: "error-bad-command-name-{po,poe}-ntc.txt, error-bad-command-name-ipv6-missing-v6-" +
      "ansible.txt, error-strings-gnetcli-driver.txt, routeros-cli.md",
  },
  {
    pattern: /^expected command name/,
    kind: "bad-command",
    source: "error-strings-gnetcli-driver.txt; routeros-cli.md (v6 given a v7 slash path)",
  },
  {
    pattern: /^no such (command|directory)\b/,
    kind: "bad-command",
    source: "danikf/tik4net@798a843f tik4net/TikTrapClassifier.cs (API and REST wording)",
  },
  {
    pattern: /^expected end of command/,
    kind: "syntax",
    source: "error-get-value-name-v6.49.13-issue.txt, error-strings-gnetcli-driver.txt, " +
      "error-quoting-escapes-7.23.2-tik4net.txt",
  },
  {
    pattern: /^syntax error/,
    kind: "syntax",
    source: "error-syntax-error-local-scope-docs.txt, asvalue-find-and-typeof-docs.txt, " +
      "error-strings-gnetcli-driver.txt",
  },
  {
    pattern: /^expected closing (brace|bracket|parenthesis)/,
    kind: "syntax",
    source: "error-expected-closing-brace-v7.18.2-issue.txt",
  },
  {
    pattern: /^expected name value/,
    kind: "syntax",
    source: "an unterminated quote at the end of an imported file, RouterOS 7.24.4 " +
      "(github.com/SecOps-7/MikroDash testdata/fixtures/import/probe-7.24.4.json)",
  },
  { pattern: /^bad parameter /, kind: "syntax", source: "routeros-cli.md" },
  {
    pattern: /^missing value\(s\) of argument/,
    kind: "invalid-value",
    source: "the simulator's and RouterOS's text for a required argument left out " +
      "(routeros-cli.md errors section)",
  },
  {
    pattern: /^no such item/,
    kind: "not-found",
    source: "error-messages-7.23.2-tik4net.txt, print-show-ids-then-no-such-item-v7-blog.txt, " +
      "routeros-cli.md (`no such item (4)`)",
  },
  {
    pattern: /^Cannot open import file/,
    kind: "not-found",
    source: "`/import` of a missing file, RouterOS 7.24.4 (github.com/SecOps-7/MikroDash " +
      "testdata/fixtures/import/probe-7.24.4.json)",
  },
  {
    pattern: /^expected item id/,
    kind: "not-found",
    source: "danikf/tik4net@798a843f tik4net/TikTrapClassifier.cs (CLI: `[find .id=...]` " +
      "resolved to nothing)",
  },
  {
    pattern: /^invalid internal item number/,
    kind: "ambiguous",
    source: "issue 34 (7.x: `get` on a `find` that matched several items); MikroTik forum " +
      'thread 200263 (7.x, `/ip address get [/ip address find interface="ether1"] address`)',
  },
  {
    pattern: /^ambiguous value of /,
    kind: "ambiguous",
    source: "issue 34 (`ambiguous value of interface, more than one possible value matches " +
      "input`); public code quoting the router for next-pool, profile, server (7.23.3)",
  },
  {
    pattern: /^failure: (already have |duplicate )/,
    kind: "already-exists",
    source: "routeros-cli.md (`failure: already have such address`), " +
      "error-strings-gnetcli-driver.txt (`failure: duplicate address`)",
  },
  {
    pattern: /already exists|^already have /,
    kind: "already-exists",
    source: "routeros-cli.md (`interface with such name already exists`); " +
      "danikf/tik4net@798a843f TikTrapClassifier.cs (`item with such name already exists`)",
  },
  {
    pattern: /^input does not match any value of /,
    kind: "missing-reference",
    source: "error-messages-7.23.2-tik4net.txt, error-api-trap-input-does-not-match-docs.txt, " +
      "error-input-does-not-match-policy-issue.txt, error-get-value-name-v6.49.13-issue.txt",
  },
  {
    pattern: /^invalid (\S+ )?value /,
    kind: "invalid-value",
    source: "error-messages-7.23.2-tik4net.txt (`invalid value of mac, mac address required`), " +
      "routeros-cli.md (`invalid value for argument address`), community.routeros " +
      "plugins/terminal/routeros.py (`invalid value for`)",
  },
  {
    pattern: /^value of \S+ /,
    kind: "invalid-value",
    source: "error-messages-7.23.2-tik4net.txt (`value of mtu contains invalid trailing " +
      "characters`)",
  },
  { pattern: /^not enough permissions/, kind: "permission", source: "routeros-cli.md" },
  {
    pattern: /^failure: /,
    kind: "failure",
    source: "error-resolve-failure-docs.txt (`failure: dns name does not exist`), routeros-cli.md",
  },
  {
    pattern: /^action cancelled/,
    kind: "failure",
    source: "error-messages-7.23.2-tik4net.txt, routeros-cli.md",
  },
  {
    pattern: /^interrupted$/,
    kind: "failure",
    source: "ssh-exec-quit-interrupted-oxidized.txt (a command cut off, e.g. `quit` over exec)",
  },
  {
    pattern: /^Script Error: found \d+ error\(s\)/,
    kind: "failure",
    source: "error-import-onerror-dry-run-docs.txt (import dry-run summary, 7.16+)",
  },
];

/** What an agent is told for each kind: what happened, and what to do. */
export const KIND_ADVICE: Readonly<Record<RouterOsErrorKind, string>> = {
  "bad-command":
    "this RouterOS release or its packages do not have that menu or command; check the release " +
    "and packages, and do not retry as is",
  "syntax":
    "RouterOS could not parse the command at the position it names; an argument this release " +
    "does not take, or a value written wrong: fix it, do not retry as is",
  "not-found":
    "the item named does not exist (any more); list the menu to find it by its current id or name",
  "already-exists":
    "an item with that name or value already exists; use or change it, or choose another name",
  "invalid-value":
    "RouterOS refused a value (format or range); correct the argument the message names",
  "missing-reference":
    "a value names something that does not exist (an interface, list, pool, profile) or is not " +
    "one of the words the property takes on this release; create it or use an existing name",
  "ambiguous":
    "what was named matches more than one item (a find that found several, or a name that is " +
    "the start of several); name exactly one, by its full name or its id",
  "permission":
    "the SSH user's group lacks the policy for this; use a user in a write or full group",
  "failure": "RouterOS tried and failed for the reason it gives; fix that cause before retrying",
  "unparsable": "the answer was not understood",
};

/** `Script Error: ` wraps the error of an imported or caught script (7.16+). */
const SCRIPT_ERROR = /^Script Error: (?!found \d+ error)/;

/**
 * The kind of a RouterOS error text (its first line), or null for text that
 * is not a known error.
 */
export function errorKindOf(text: string): RouterOsErrorKind | null {
  const first = (text.trimStart().split("\n", 1)[0] ?? "").replace(/\r$/, "")
    .replace(SCRIPT_ERROR, "");
  for (const { pattern, kind } of ERROR_PATTERNS) if (pattern.test(first)) return kind;
  return null;
}
