/**
 * Syntax tree of a RouterOS script, as produced by `tokenizer.ts`.
 *
 * A script is lines (separated by newlines); a line is statements separated by
 * `;`; a statement is words separated by blanks; a word is adjacent pieces
 * (unquoted text, "strings", $variables, [commands], (expressions), {blocks}).
 *
 * @module
 */
import type { Pos } from "./errors.ts";

/** A piece of a double-quoted string. */
export type StrPart =
  | { k: "lit"; v: string }
  | { k: "var"; name: string; pos: Pos }
  | { k: "cmd"; script: Script; pos: Pos }
  | { k: "expr"; expr: Expr; pos: Pos };

/** One adjacent piece of a word. */
export type Piece =
  | { k: "text"; v: string; pos: Pos }
  | { k: "str"; parts: StrPart[]; pos: Pos }
  | { k: "var"; name: string; pos: Pos }
  | { k: "cmd"; script: Script; pos: Pos }
  | { k: "expr"; expr: Expr; pos: Pos }
  | {
    k: "block";
    script: Script;
    pos: Pos;
    src: string;
    /** The block read as an array literal (`{a=1;b="x"}`), when it is one. */
    arr?: ArrayLit;
    /** Where the block ends (just past `}`). */
    end: Pos;
  };

/** A blank-separated word. `start`/`end` are offsets in the statement source. */
export interface Word {
  pieces: Piece[];
  pos: Pos;
  start: number;
  end: number;
}

/** One command: its words plus the source text it was read from. */
export interface Statement {
  words: Word[];
  pos: Pos;
  /** Whole source the offsets refer to. */
  src: string;
}

/** Statements joined by `;` on one line. */
export interface Line {
  stmts: Statement[];
}

/** A parsed script. */
export interface Script {
  lines: Line[];
}

/** Expression tree of `( ... )` and of `where` clauses. */
export type Expr =
  | { k: "num"; v: number | bigint; pos: Pos }
  | { k: "word"; v: string; pos: Pos; bad?: boolean }
  | { k: "str"; parts: StrPart[]; pos: Pos }
  | { k: "var"; name: string; pos: Pos }
  | { k: "cmd"; script: Script; pos: Pos }
  | { k: "un"; op: string; a: Expr; pos: Pos }
  | { k: "bin"; op: string; a: Expr; b: Expr; pos: Pos }
  /** An unquoted word inside an array literal, typed like `:local a WORD` (`1s`, `1.1`). */
  | { k: "lit"; v: string; pos: Pos }
  | ArrayLit;

/**
 * An array literal: `{1;2;3}`, `{a=1;"b"=(1,2)}`, `({})`. An element holds
 * several values when written `{"a", "b"}`; they become separate elements.
 */
export interface ArrayLit {
  k: "arr";
  items: { key?: Expr; vals: Expr[] }[];
  pos: Pos;
}
