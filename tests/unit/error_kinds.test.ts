/**
 * The table of RouterOS error texts (`lib/routeros/error_kinds.ts`): every
 * error text in `../shared/real-output` is classified, the two texts of
 * issue 34 are no longer "unparsable", and every kind has advice for the
 * agent.
 */
import assert from "node:assert/strict";
import {
  ERROR_PATTERNS,
  errorKindOf,
  KIND_ADVICE,
  type RouterOsErrorKind,
} from "../../lib/routeros/error_kinds.ts";
import { classifyError, outputError, RouterOsError } from "../../lib/routeros/errors.ts";
import { errorText } from "../../lib/tools/errors.ts";
import { capture, captures, REAL_OUTPUT, realOutputAvailable } from "../helpers/real_output.ts";

/** Words that mark a line as a possible error text. */
const ERRORISH =
  /error|failure|bad command|expected|no such|invalid|does not match|ambiguous|not enough|cancelled|interrupted|already/i;

/**
 * Lines of real output that carry those words and are not errors, each
 * with why: menu data, log lines, prompts, a script's own output, prose.
 */
const NOT_ERRORS: [RegExp, string][] = [
  [/^Flags: /, "a print's flag legend (`I - invalid`)"],
  [/^(\d+ +)?;;; /, "a comment line of a print"],
  [/[a-z-]+=/, "menu data (key=value, exports, as-value records)"],
  [/^ +[a-z-]+: /, "a key: value line, keys right-aligned (`  status: System is already ...`)"],
  [/^(\d+ +)?(\d\d:\d\d:\d\d|[a-z]{3}\/\d\d\/\d{4} \d\d:\d\d:\d\d) /, "a log line"],
  [/^script, error, debug /, "a log line as WinBox shows it (topics first)"],
  [/^Failure( - |$)/, "a script's own :put of the error it caught (on-error, onerror)"],
  [/^(invalid|connection-state=invalid)$/, "the rest of an export line wrapped with `\\`"],
  [/^\[Tab\] /, "the login banner's key help"],
  [/^----- .* -----$/, "a collector's separator line"],
  [/^\(\\r\|\^\)\(bad command name/, "the gnetcli driver's own regex (its source, not output)"],
];

/** Files whose body is prose written about RouterOS, not router output. */
const PROSE = new Set([
  "doc-changelog-console-quotes-secondary.txt",
  "asvalue-ping-timing-and-table-offsets-7.23.2-tik4net.txt",
  "asvalue-put-semantics-7.x-tik4net.txt",
  "error-quoting-escapes-7.23.2-tik4net.txt",
  "ssh-pty-async-critical-log-echo-tik4net.txt",
]);

/** Every line of real output that looks like an error text, with its file. */
function errorLines(): { file: string; line: string }[] {
  const out: { file: string; line: string }[] = [];
  for (const file of captures("")) {
    if (PROSE.has(file)) continue;
    for (const block of capture(file).blocks) {
      for (const raw of block.replace(/\r/g, "").split("\n")) {
        const kept = raw.replace(/^\\r/, "") // Go-escaped CR (error-strings-gnetcli-driver.txt)
          .replace(/^>>> =message=/, "") // an API !trap's message word
          .replace(/^\[[^\]]*\] > .*$/, ""); // a prompt and what was typed
        const line = kept.trim();
        if (!line || !ERRORISH.test(line)) continue;
        if (NOT_ERRORS.some(([re]) => re.test(line) || re.test(kept))) continue;
        out.push({ file, line });
      }
    }
  }
  return out;
}

Deno.test({
  name: "error kinds: every error text in the real captures is classified",
  ignore: !realOutputAvailable(),
  fn() {
    const lines = errorLines();
    assert.ok(lines.length >= 25, `only ${lines.length} error lines under ${REAL_OUTPUT}`);
    const unclassified = lines.filter(({ line }) => errorKindOf(line) === null);
    assert.deepEqual(unclassified, []);
    // Spot checks of the kinds.
    const kindOf = (text: string) => lines.find((l) => l.line === text) && errorKindOf(text);
    assert.equal(kindOf("failure: duplicate address"), "already-exists");
    assert.equal(kindOf("input does not match any value of policy"), "missing-reference");
    assert.equal(kindOf("expected closing brace (line 660 column 82)"), "syntax");
    assert.equal(kindOf("interrupted"), "failure");
    assert.equal(kindOf("Script Error: found 5 error(s) in import file"), "failure");
    assert.equal(kindOf("expected command name (line 1 column 8)"), "bad-command");
  },
});

Deno.test("error kinds: the texts of issue 34 and public sources", () => {
  const cases: [string, RouterOsErrorKind][] = [
    ["invalid internal item number", "ambiguous"],
    ["ambiguous value of interface, more than one possible value matches input", "ambiguous"],
    ["ambiguous value of next-pool, more than one possible value matches input", "ambiguous"],
    ["expected item id", "not-found"],
    ["no such command", "bad-command"],
    ["no such directory", "bad-command"],
    ["item with such name already exists", "already-exists"],
    ["invalid time value for argument limit-uptime", "invalid-value"],
    ["Script Error: bad command name this (line 1 column 1)", "bad-command"],
    ["no such item (4)", "not-found"],
    ["interface with such name already exists", "already-exists"],
  ];
  for (const [text, kind] of cases) assert.equal(classifyError(text), kind, text);
  // Not "unparsable" any more: a RouterOS error of its kind, the router's words kept.
  const err = outputError("invalid internal item number\n");
  assert.equal(err.kind, "ambiguous");
  assert.equal(err.routerMessage, "invalid internal item number");
  // Text that merely contains an error word is not an error.
  for (const text of ["ok", "interrupted by user", "7.16.2 (stable)", "invalid"]) {
    assert.equal(classifyError(text), null, text);
  }
});

Deno.test("error kinds: each row names its source; each kind has advice", () => {
  for (const p of ERROR_PATTERNS) assert.ok(p.source.length > 10, String(p.pattern));
  for (const kind of new Set(ERROR_PATTERNS.map((p) => p.kind))) {
    assert.ok(KIND_ADVICE[kind].length > 20, kind);
  }
  assert.ok(KIND_ADVICE.unparsable);
});

Deno.test("a RouterOS error reaches the agent with its kind's advice (none for failure or unparsable)", () => {
  const ambiguous = errorText(outputError("invalid internal item number"), "router_x", "r1");
  assert.match(ambiguous, /name exactly one, by its full name or its id/);
  const failure = errorText(new RouterOsError("failure", "it broke", "it broke"), "router_x");
  assert.doesNotMatch(failure, /fix that cause before retrying/);
});
