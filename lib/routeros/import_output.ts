/**
 * What an `/import` printed, read: whether it ran to its end, the lines a
 * verbose import ran (each printed as `#line N`, or `#line N..M` for a
 * command over several lines, then as written), the error that stopped it
 * and the line of the file where the failing command starts, or a dry
 * run's error per line.
 *
 * The forms, and where they were seen:
 *
 * - success: `Script file loaded and executed successfully`, after
 *   `Opening script file NAME` and a blank line in MikroTik's example
 *   (`real-output/console-import-success-docs.txt`);
 * - a dry run (7.16+): each line as above, then its error
 *   (`bad command name this (line 1 column 1)`), and at the end
 *   `Script Error: found 5 error(s) in import file`
 *   (`real-output/error-import-onerror-dry-run-docs.txt`);
 * - the error that stops an import: `Script Error: ` and the command's
 *   error on 7.16+ (the same docs file). RouterOS 7.24.4 adds the failing
 *   command to a non-verbose run's run-time error
 *   (`input does not match any value of list (/interface/list/member/add
 *   (list); line 5)`) and, on a console, the position of the `/import`
 *   itself (`(:import; line 1)`); a verbose run's error names no line, so
 *   the line is the last `#line` printed; a syntax error names its line and
 *   column in the file (`expected name value (line 7 column 1)`). Public
 *   measurements: github.com/SecOps-7/MikroDash
 *   testdata/fixtures/import/probe-7.24.4.json, and the comment of a public
 *   TypeScript client that read `/import` output over SSH on 7.24.4;
 * - a missing file: `Cannot open import file, file does not exist` (the
 *   same 7.24.4 measurements).
 *
 * Before 7.16 no source shows how a failed import ends; the error lines are
 * found by the table of known RouterOS errors (`error_kinds.ts`) instead.
 *
 * @module
 */
import { errorKindOf, type RouterOsErrorKind } from "./error_kinds.ts";

/** The line an import ends with when it ran to its end. */
export const IMPORT_SUCCESS = "Script file loaded and executed successfully";

/** One command a verbose import printed and ran (or checked, in a dry run). */
export interface ImportedUnit {
  /** Its first and last line in the file (1-based). */
  from: number;
  to: number;
  /** The lines as the file holds them. */
  text: string[];
  /** What it printed when it ran (`:put`), error lines left out. */
  output: string[];
  /** The error RouterOS printed for it, if any. */
  error?: string;
}

/** What one `/import` did, as read from its output. */
export interface ImportOutcome {
  /** It ran to its end (a dry run: it found no error). */
  ok: boolean;
  /** The commands a verbose import printed, in order. */
  units: ImportedUnit[];
  /** The error that stopped it (or a dry run's summary), without `Script Error: ` and the `/import`'s own position. */
  error?: string;
  /** The kind of that error, when it is a known RouterOS error. */
  kind?: RouterOsErrorKind;
  /** The line of the file where the failing command starts. */
  line?: number;
  /** The line and column RouterOS named in the error. */
  position?: { line: number; column: number };
  /** The file was not there. */
  missing: boolean;
  /** A dry run: the errors it found, by the line where each command starts. */
  problems: { line: number; error: string }[];
}

const MARKER = /^#line (\d+)(?:\.\.(\d+))?$/;
const SCRIPT_ERROR = /^Script Error: /;
const DRY_RUN_SUMMARY = /^Script Error: found (\d+) error\(s\) in import file$/;
const MISSING = /^Cannot open import file/;
const OPENING = /^Opening script file /;
/** The position of the `/import` command itself that a 7.24 console appends. */
const IMPORT_POSITION = /\s*\(:import; line \d+\)$/;
/** A 7.24 run-time error's failing command: `(/interface/list/member/add (list); line 5)`. */
const COMMAND_POSITION = /\((\/[^;()]*(?:\([^()]*\))?[^;()]*); line (\d+)\)$/;
const LINE_COLUMN = /\(line (\d+) column (\d+)\)/;

/** A line RouterOS printed as an error (the known texts, with or without `Script Error: `). */
function isError(line: string): boolean {
  return SCRIPT_ERROR.test(line) || MISSING.test(line) || errorKindOf(line) !== null;
}

/** Read what `/import` printed. */
export function parseImportOutput(output: string): ImportOutcome {
  const lines = output.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && lines.at(-1)!.trim() === "") lines.pop();
  const units: ImportedUnit[] = [];
  let done = false;
  let missing = false;
  let stop: string | undefined;
  let summary: string | undefined;
  const loose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = MARKER.exec(line);
    if (marker) {
      const from = Number(marker[1]);
      const to = marker[2] ? Number(marker[2]) : from;
      const count = Math.max(1, to - from + 1);
      units.push({ from, to, text: lines.slice(i + 1, i + 1 + count), output: [] });
      i += count;
      continue;
    }
    const unit = units.at(-1);
    if (line === IMPORT_SUCCESS) done = true;
    else if (DRY_RUN_SUMMARY.test(line)) summary = line.replace(SCRIPT_ERROR, "");
    else if (MISSING.test(line)) {
      missing = true;
      stop = line.replace(IMPORT_POSITION, "");
    } else if (SCRIPT_ERROR.test(line)) stop = line.replace(SCRIPT_ERROR, "");
    else if (isError(line)) {
      if (unit && unit.error === undefined) unit.error = line;
      else if (!unit) stop ??= line;
    } else if (OPENING.test(line) || (line.trim() === "" && OPENING.test(lines[i - 1] ?? ""))) {
      continue;
    } else if (unit) unit.output.push(line);
    else loose.push(line);
  }
  const problems = units.filter((u) => u.error !== undefined)
    .map((u) => ({ line: u.from, error: u.error! }));
  if (summary !== undefined) {
    return {
      ok: false,
      units,
      error: summary,
      kind: "failure",
      missing,
      problems,
      line: problems[0]?.line,
    };
  }
  // A verbose run that stopped prints its error after the last command (on 7.16+ also as Script Error).
  const failing = [...units].reverse().find((u) => u.error !== undefined);
  const last = units.at(-1);
  if (stop === undefined && failing && failing === last) stop = failing.error;
  if (stop === undefined) {
    if (done) return { ok: true, units, missing, problems: [] };
    // A dry run prints no last line: no error is success.
    return units.length && !loose.some(isError) ? { ok: true, units, missing, problems: [] } : {
      ok: false,
      units,
      error: "the import did not say it finished" + (loose.length ? `: ${loose.join(" ")}` : ""),
      kind: "unparsable",
      missing,
      problems,
    };
  }
  return { ok: false, units, missing, problems, ...stopAt(stop, units) };
}

/** The error that stopped an import, and the line of the file it names or stopped at. */
function stopAt(text: string, units: ImportedUnit[]) {
  const error = text.replace(IMPORT_POSITION, "");
  const at = LINE_COLUMN.exec(error);
  const position = at ? { line: Number(at[1]), column: Number(at[2]) } : undefined;
  const command = COMMAND_POSITION.exec(error);
  // A verbose import's error is the last command's; otherwise RouterOS names the line.
  const unit = units.at(-1);
  const line = unit?.from ?? position?.line ?? (command ? Number(command[2]) : undefined);
  const kind = errorKindOf(error) ?? undefined;
  return {
    error,
    ...(kind ? { kind } : {}),
    ...(line !== undefined ? { line } : {}),
    ...(position ? { position } : {}),
  };
}

/** The menu writes RouterOS validates whole before changing anything. */
const WRITE_VERBS = new Set([
  "add",
  "set",
  "unset",
  "remove",
  "enable",
  "disable",
  "comment",
  "move",
]);
const PATH_WORD = /^\/?[a-z0-9.-]+(\/[a-z0-9.-]+)*$/;

/** `/ip address` (or `/ip/address`) when it names one of `menus`: it only enters the menu. */
function isNavigation(text: readonly string[], menus: ReadonlySet<string>): boolean {
  if (text.length !== 1) return false;
  const words = text[0].trim().split(/\s+/);
  if (!words[0]?.startsWith("/") || !words.every((w) => PATH_WORD.test(w))) return false;
  const path = "/" + words.join("/").split("/").filter(Boolean).join("/");
  return path === "/" || menus.has(path);
}

/**
 * One menu write on one line (`add address=...`, `/ip address set 0 comment=x`):
 * no `;`, block or command substitution that could run something else.
 */
function isOneWrite(text: readonly string[]): boolean {
  if (text.length !== 1 || /[;{[$]/.test(text[0])) return false;
  const words = text[0].trim().split(/\s+/);
  const verb = words.findIndex((w) => WRITE_VERBS.has(w));
  return verb >= 0 && words.slice(0, verb).every((w) => PATH_WORD.test(w));
}

/**
 * Whether anything of the file may have changed the router before the
 * import stopped. Nothing did when the file was missing; when a
 * non-verbose import stopped at a syntax error (the whole file is parsed
 * before any of it runs: measured on 7.24.4, see above); or when every
 * command a verbose import ran before the failing one only entered a menu
 * of `menus` (`/ip address`) and the failing one either did not parse
 * (RouterOS parses a command before it runs it) or is one menu write on
 * one line, which RouterOS validates whole before it changes anything.
 * Anything else may have: a command that ran before, a run-time error of a
 * non-verbose import, a failing line that holds several statements or runs
 * other code. Secrets do not show in an export, so an unchanged export
 * would not prove the contrary.
 */
export function mayHaveApplied(outcome: ImportOutcome, menus: ReadonlySet<string>): boolean {
  if (outcome.ok) return true;
  if (outcome.missing) return false;
  const parsing = outcome.kind === "syntax" || outcome.kind === "bad-command";
  const units = outcome.units;
  if (units.length === 0) return !parsing;
  const failing = units.at(-1)!;
  if (!units.slice(0, -1).every((u) => isNavigation(u.text, menus))) return true;
  return !(parsing || isOneWrite(failing.text));
}
