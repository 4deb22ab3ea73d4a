/**
 * What the console interpreter and its command handlers share: sessions,
 * parsed arguments, scopes, and {@linkcode Interp}, the interpreter as
 * builtins, verbs and commands see it (they import this module, never
 * `interpreter.ts`, which imports them).
 *
 * @module
 */
import type { Expr, Piece, Script, Statement, Word } from "./ast.ts";
import type { EvalHost, ItemLookup } from "./expr_eval.ts";
import type { CommandDef, MenuDef, MenuNode } from "./menu_types.ts";
import type { RouterState } from "./state.ts";
import type { Val } from "./values.ts";

/** Who runs the commands. */
export interface Session {
  user: string;
  /** Policies of the user's group (`read`, `write`, `policy`, `reboot`...). */
  policies: Set<string>;
}

/** A parsed argument. */
export interface Arg {
  name?: string;
  word: Word;
  pieces: Piece[];
}

/** Arguments of a command after its name. */
export interface Args {
  named: Map<string, Arg>;
  positional: Arg[];
  /** Expression after `where` (print/find). */
  where?: Expr;
  whereWord?: Word;
}

/** Variable scope. */
export class Scope {
  readonly vars = new Map<string, Val>();
  constructor(readonly parent: Scope | null) {}
  find(name: string): Map<string, Val> | null {
    if (this.vars.has(name)) return this.vars;
    return this.parent ? this.parent.find(name) : null;
  }
}

/** Thrown by `:return` to leave a script with a value. */
export class ReturnSignal {
  constructor(readonly value: Val) {}
}

/** Plain text of a word made of one unquoted piece, else null. */
export function plainText(w: Word): string | null {
  return w.pieces.length === 1 && w.pieces[0].k === "text" ? w.pieces[0].v : null;
}

/** One console session (an exec, a scheduler run...), as command handlers use it. */
export interface Interp extends EvalHost {
  readonly st: RouterState;
  readonly session: Session;
  /** Output lines so far. */
  readonly out: string[];
  /** The last command failed (the exec's exit status). */
  failed: boolean;
  /** Ids shown by the last print of each menu (print numbers). */
  readonly lastPrint: Map<string, string[]>;
  scope: Scope;
  /** Depth of `[ ... ]` substitutions being run. */
  cmdDepth: number;
  /** Prints one output line. */
  print(line: string): void;
  /** Runs script text as the session's user. */
  runScriptText(src: string): void;
  /** Runs a `{ ... }` block in a new scope. */
  runBlock(script: Script): Val;
  /** An argument's value. */
  argVal(a: Arg): Val;
  /** An argument's value where a script is expected (`on-event=`, `do=`). */
  scriptVal(a: Arg): Val;
  /** An argument's value as text. */
  argStr(a: Arg): string;
  /** Whether an item matches a `where` expression. */
  whereMatch(e: Expr, lookup: ItemLookup): boolean;
  /** Throws unless the session's group has the policy. */
  requirePolicy(policy: string): void;
  /** The ids a `numbers` argument selects in a menu. */
  selectIds(menu: MenuDef, v: Val, named: boolean): string[];
  /** The menu commands run in (`/import` keeps and restores it). */
  cwd: MenuNode;
  /** v7 refuses scripts using undeclared variables before running anything. */
  checkVars(script: Script): void;
  /** Runs a parsed script in the current scope. */
  execScript(script: Script): Val;
  /** The menu, command or built-in a statement names (a dry run checks it without running). */
  resolve(stmt: Statement): Resolved;
  /** Splits the words after a command into named and positional arguments. */
  splitArgs(stmt: Statement, start: number, allowWhere: boolean): Args;
}

/** What a statement names. */
export type Resolved =
  | { kind: "cd"; node: MenuNode }
  | { kind: "builtin"; name: string; word: Word; argStart: number }
  | { kind: "verb"; node: MenuNode; menu: MenuDef; verb: string; word: Word; argStart: number }
  | { kind: "command"; node: MenuNode; def: CommandDef; name: string; word: Word; argStart: number }
  | { kind: "export"; node: MenuNode; word: Word; argStart: number }
  | { kind: "import"; node: MenuNode; word: Word; argStart: number };
