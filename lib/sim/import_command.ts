/**
 * `/import`: runs the commands of a file of `/file` as RouterOS does.
 *
 * Arguments per release: the command trees (`../shared/fidelity`, root menu
 * `import`) give `file-name from-line verbose` on 7.12.2 and 7.13.5, and
 * `dry-run file-name from-line verbose` from 7.16.2 to 7.24; 7.22.3's
 * completion data lists `verbose` as `no`, `progress` or `yes`. No 6.x tree
 * is public: 6.49 takes what MikroTik's Configuration Management page lists
 * before `dry-run` (`file-name`, `from-line`, `verbose`). The file may also
 * be named by the first positional word (`import test.rsc`, the docs'
 * examples in `real-output/error-import-onerror-dry-run-docs.txt`).
 * `dry-run` is a bare flag: `dry-run=yes` is `expected end of command` on
 * the console (measured on RouterOS 7.24.4, github.com/SecOps-7/MikroDash
 * cmd/importprobe/main.go, M1b).
 *
 * How it runs (the same public measurements on 7.24.4,
 * testdata/fixtures/import/probe-7.24.4.json, unless another source is named):
 *
 * - without `verbose`, the whole file is parsed first: a syntax error runs
 *   nothing (`Script Error: expected name value (line 7 column 1)`, lines of
 *   the file); a run-time error stops at its line and keeps the lines before;
 * - with `verbose=yes` each line runs on its own, printed first as
 *   `#line N` (or `#line N..M` when a command spans lines: an unterminated
 *   quote takes the rest of the file) and then as written; an error stops
 *   the import there, the lines before it applied;
 * - `dry-run` (7.16+, with verbose) prints every line the same way, reports
 *   the error of each line that does not parse or names an unknown command
 *   or argument (`bad command name this (line 1 column 1)`,
 *   `bad parameter no-such-property (line 2 column 23)`), runs nothing, and
 *   ends with `Script Error: found N error(s) in import file` when it found
 *   any (real-output/error-import-onerror-dry-run-docs.txt). A reference to
 *   something that does not exist is found only by a real run (a dry run of
 *   such a file succeeded on 7.24.4);
 * - a missing file: `Cannot open import file, file does not exist`;
 * - success: `Script file loaded and executed successfully`
 *   (real-output/console-import-success-docs.txt). The docs' example prints
 *   `Opening script file NAME` and a blank line first; a RouterOS 7.22 CHR
 *   printed the script's own output and then the success line alone
 *   (github.com/tikoci/mikropkl Lab/qemu-guest-agent/NOTES.md), so the
 *   simulator prints the opening line on RouterOS 6 only. Nothing in the
 *   product depends on it.
 *
 * The error that stops an import is `Script Error: ` and the command's own
 * error from 7.16 (the docs: `Script Error: bad command name this (line 1
 * column 1)` caught by `onerror` on 7.16+); before 7.16 the error is printed
 * as a script prints it (no source shows the older wording). RouterOS 7.24
 * also names the failing command of a non-verbose run
 * (`(/interface/list/member/add (list); line 5)`); the simulator does not.
 *
 * @module
 */
import { inRange } from "../routeros/release.ts";
import type { Statement } from "./ast.ts";
import { isBuiltin } from "./builtins.ts";
import { at, badCommand, expectedEnd, fail, RosError } from "./errors.ts";
import { type Args, type Interp, plainText, Scope } from "./interp_types.ts";
import { propsOf } from "./props.ts";
import { parseScript } from "./tokenizer.ts";
import type { Val } from "./values.ts";

/** Releases whose `/import` takes `dry-run` (the 7.16.2 tree is the first that has it). */
const DRY_RUN = { from: "7.16" };
/** Releases whose `verbose` also takes `progress` (7.22.3 completion data). */
const PROGRESS = { from: "7.22" };
/** Releases whose import errors begin `Script Error: ` (the docs' 7.16+ example). */
const SCRIPT_ERROR = { from: "7.16" };

/** The success line (all releases). */
export const IMPORT_DONE = "Script file loaded and executed successfully";

/** One unit a verbose import runs: lines `from` to `to` (1-based) of the file. */
export interface ImportUnit {
  from: number;
  to: number;
  lines: string[];
}

/**
 * The file split as a verbose import runs it: a unit starts at a line that
 * holds a command (blank lines and `#` comments are skipped) and takes the
 * lines after it while a quote, bracket, brace or parenthesis is open or the
 * line ends with `\` (a continuation). An open quote takes the rest of the
 * file, its last empty line included (`#line 3..6` of a 5-line file).
 */
export function importUnits(text: string): ImportUnit[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const units: ImportUnit[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i].trim();
    if (first === "" || first.startsWith("#")) continue;
    const state = { depth: 0, quoted: false };
    let j = i;
    while (open(lines[j], state) && j + 1 < lines.length) j++;
    units.push({ from: i + 1, to: j + 1, lines: lines.slice(i, j + 1) });
    i = j;
  }
  return units;
}

/** Whether the command is still open after `line` (scanning on from `state`). */
function open(line: string, state: { depth: number; quoted: boolean }): boolean {
  for (let k = 0; k < line.length; k++) {
    const c = line[k];
    if (c === "\\") {
      if (k === line.length - 1) return true;
      k++;
    } else if (state.quoted) {
      if (c === '"') state.quoted = false;
    } else if (c === '"') state.quoted = true;
    else if (c === "#" && state.depth === 0 && line.slice(0, k).trim() === "") return false;
    else if ("[{(".includes(c)) state.depth++;
    else if ("]})".includes(c)) state.depth = Math.max(0, state.depth - 1);
  }
  return state.quoted || state.depth > 0;
}

/** The parsed arguments of one `/import`. */
interface ImportCall {
  file: string;
  verbose: boolean;
  dryRun: boolean;
  fromLine: number;
}

function importCall(ip: Interp, args: Args): ImportCall {
  const release = ip.st.release;
  const known = ["file-name", "from-line", "verbose"];
  let file = args.named.get("file-name");
  let dryRun = false;
  for (const a of args.positional) {
    if (plainText(a.word) === "dry-run" && inRange(release, DRY_RUN)) dryRun = true;
    else if (!file) file = a;
    else throw expectedEnd(a.word.pos);
  }
  for (const [name, a] of args.named) if (!known.includes(name)) throw expectedEnd(a.word.pos);
  if (args.whereWord) throw expectedEnd(args.whereWord.pos);
  const verboseArg = args.named.get("verbose");
  const verbose = verboseArg ? ip.argStr(verboseArg) : "no";
  const words = inRange(release, PROGRESS) ? ["yes", "no", "progress"] : ["yes", "no"];
  if (!words.includes(verbose)) throw fail("input does not match any value of verbose");
  const fromArg = args.named.get("from-line");
  const fromLine = fromArg ? Number(ip.argStr(fromArg)) : 1;
  if (!Number.isInteger(fromLine) || fromLine < 0) {
    throw fail("invalid value for argument from-line");
  }
  if (!file) throw fail("missing value(s) of argument(s) file-name");
  // `dry-run` is for a verbose import (the docs' table); the simulator runs it verbosely.
  return { file: ip.argStr(file), verbose: verbose === "yes" || dryRun, dryRun, fromLine };
}

/** `/import`. */
export function runImport(ip: Interp, args: Args): Val {
  const call = importCall(ip, args);
  const st = ip.st;
  const item = st.table("/file").items.find((f) => f.name === call.file);
  if (!item) throw fail("Cannot open import file, file does not exist");
  const text = item.contents ?? "";
  if (st.v6) {
    ip.print(`Opening script file ${call.file}`);
    ip.print("");
  }
  const savedScope = ip.scope;
  const savedCwd = ip.cwd;
  ip.scope = new Scope(null);
  try {
    if (call.dryRun) return dryRun(ip, text, call.fromLine);
    if (call.verbose) runVerbose(ip, text, call.fromLine);
    else runWhole(ip, text);
  } finally {
    ip.scope = savedScope;
    ip.cwd = savedCwd;
  }
  ip.print(IMPORT_DONE);
  return null;
}

/** The error that stops an import, as the release prints it. */
function stopped(ip: Interp, e: unknown): unknown {
  if (!(e instanceof RosError) || !inRange(ip.st.release, SCRIPT_ERROR)) return e;
  return new RosError(`Script Error: ${e.text}`, e.parse);
}

/** Without verbose: the whole file parsed first, then run. */
function runWhole(ip: Interp, text: string): void {
  try {
    const script = parseScript(text);
    ip.checkVars(script);
    ip.execScript(script);
  } catch (e) {
    throw stopped(ip, e);
  }
}

/** The text a unit is parsed from: its lines, and the newline that ends the last. */
function unitSource(unit: ImportUnit): string {
  return unit.lines.join("\n") + "\n";
}

function printUnit(ip: Interp, unit: ImportUnit): void {
  ip.print(unit.from === unit.to ? `#line ${unit.from}` : `#line ${unit.from}..${unit.to}`);
  for (const line of unit.lines) ip.print(line);
}

/** `verbose=yes`: each unit printed, then run; the first error stops the import. */
function runVerbose(ip: Interp, text: string, fromLine: number): void {
  for (const unit of importUnits(text)) {
    if (unit.to < fromLine) continue;
    printUnit(ip, unit);
    try {
      const script = parseScript(unitSource(unit), { line: unit.from, col: 1 });
      ip.checkVars(script);
      ip.execScript(script);
    } catch (e) {
      throw stopped(ip, e);
    }
  }
}

/** `dry-run`: each unit printed and checked, nothing run; the errors counted at the end. */
function dryRun(ip: Interp, text: string, fromLine: number): Val {
  let errors = 0;
  for (const unit of importUnits(text)) {
    if (unit.to < fromLine) continue;
    printUnit(ip, unit);
    try {
      const script = parseScript(unitSource(unit), { line: unit.from, col: 1 });
      for (const line of script.lines) for (const stmt of line.stmts) check(ip, stmt);
    } catch (e) {
      if (!(e instanceof RosError)) throw e;
      ip.print(e.text);
      errors++;
    }
  }
  if (errors > 0) throw new RosError(`Script Error: found ${errors} error(s) in import file`);
  return null;
}

/**
 * What a dry run checks of one statement without running it: its command
 * exists (menus it enters become the current one for the lines after), and
 * a menu write names only properties the menu has on this release.
 */
function check(ip: Interp, stmt: Statement): void {
  const only = stmt.words.length === 1 ? stmt.words[0].pieces : [];
  if (only.length === 1 && only[0].k === "block") return;
  const r = ip.resolve(stmt);
  if (r.kind === "cd") {
    ip.cwd = r.node;
    return;
  }
  if (r.kind === "builtin") {
    if (!isBuiltin(r.name)) throw badCommand(r.name, r.word.pos);
    return;
  }
  if (r.kind !== "verb" || (r.verb !== "add" && r.verb !== "set")) return;
  const props = new Set(propsOf(r.menu, ip.st).filter((p) => !p.ro).map((p) => p.name));
  const selectors = ["numbers", "copy-from", "place-before"];
  const args = ip.splitArgs(stmt, r.argStart, false);
  for (const [name, a] of args.named) {
    if (!props.has(name) && !selectors.includes(name)) {
      throw at(`bad parameter ${name}`, a.word.pos);
    }
  }
}
