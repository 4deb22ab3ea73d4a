/** What the console interpreter and its command handlers share: sessions, parsed arguments, scopes. */
import type { Expr, Piece, Word } from "./ast.ts";
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
