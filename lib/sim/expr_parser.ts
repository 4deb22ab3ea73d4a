/**
 * The expression half of the RouterOS script parser: tokens and precedence
 * of `( ... )` expressions and `where` clauses, and array literals
 * (`{a=1;"b"=(1,2)}`, `({})`), whose unquoted words are typed later
 * (`literals.ts`). The statement half is `tokenizer.ts`.
 *
 * @module
 */
import type { ArrayLit, Expr, Script, StrPart } from "./ast.ts";
import { type Pos, syntaxError } from "./errors.ts";
import { numOf } from "./values.ts";
import { Scanner } from "./tokenizer.ts";

type ExprTok =
  | { t: "op"; v: string; pos: Pos }
  | { t: "num"; v: number | bigint; pos: Pos }
  | { t: "word"; v: string; pos: Pos; bad: boolean }
  | { t: "str"; parts: StrPart[]; pos: Pos }
  | { t: "var"; name: string; pos: Pos }
  | { t: "cmd"; script: Script; pos: Pos }
  | { t: "lpar"; pos: Pos }
  | { t: "rpar"; pos: Pos }
  | { t: "lbrace"; pos: Pos }
  | { t: "rbrace"; pos: Pos }
  /** `;` or a newline between array literal elements. */
  | { t: "sep"; pos: Pos }
  /** `name=` or `"name"=` starting an array literal element. */
  | { t: "key"; key: Expr; pos: Pos }
  /** An unquoted word inside an array literal. */
  | { t: "lit"; v: string; pos: Pos }
  | { t: "eof"; pos: Pos };

const OPS = [
  "->",
  "&&",
  "||",
  "!=",
  "<=",
  ">=",
  "=",
  "<",
  ">",
  "!",
  "~",
  "+",
  "-",
  "*",
  "/",
  "%",
  ".",
  ",",
];
const WORD_OPS = new Set(["and", "or", "not", "in"]);

/**
 * A word starts with a letter, digit, `_` or `:`, with `*` before a hex
 * digit (an id, `*1A`) or with `.` before a letter (`.id`); otherwise `*`
 * and `.` are operators.
 */
function wordStart(ch: string, next: string, operand: boolean): boolean {
  return /[A-Za-z0-9_:]/.test(ch) ||
    (operand &&
      ((ch === "*" && /[0-9A-Fa-f]/.test(next)) || (ch === "." && /[A-Za-z]/.test(next))));
}

/**
 * A `-` ends a word before `->` and after a number: `(0-1)` is a
 * subtraction, while `ether-1` and `10.0.0.1-10.0.0.9` stay one word.
 */
function minusEnds(word: string, ch: string, next: string): boolean {
  return ch === "-" && (next === ">" || /^\d+$/.test(word));
}

/**
 * The next expression token; `lit` reads inside an array literal,
 * `operand` where an operand is expected (there `*1` is an id and `.id` a
 * word; elsewhere `*` and `.` are operators).
 */
function exprTok(s: Scanner, lit = false, operand = true): ExprTok {
  for (;;) {
    const c = s.ch;
    if (c === " " || c === "\t" || c === "\r" || (c === "\n" && !lit)) s.next();
    else if (!s.continuation()) break;
  }
  const pos = s.pos();
  if (s.eof()) return { t: "eof", pos };
  const c = s.ch;
  if (c === "{" || c === "}") {
    s.next();
    return { t: c === "{" ? "lbrace" : "rbrace", pos };
  }
  if (lit) {
    if (c === ";" || c === "\n") {
      s.next();
      return { t: "sep", pos };
    }
    if (c === '"') {
      const str = s.string();
      if (isKeyEnd(s)) return { t: "key", key: { k: "str", parts: str.parts, pos }, pos };
      return { t: "str", parts: str.parts, pos };
    }
    if (wordStart(c, s.peek(), operand) || (c === "-" && /\d/.test(s.peek()))) {
      let v = s.next();
      while (
        !s.eof() && /[A-Za-z0-9_.:\-\/]/.test(s.ch) && !minusEnds(v, s.ch, s.peek())
      ) v += s.next();
      if (isKeyEnd(s)) return { t: "key", key: { k: "word", v, pos }, pos };
      if (WORD_OPS.has(v)) return { t: "op", v, pos };
      return { t: "lit", v, pos };
    }
  }
  if (c === "(") {
    s.next();
    return { t: "lpar", pos };
  }
  if (c === ")") {
    s.next();
    return { t: "rpar", pos };
  }
  if (c === '"') {
    const str = s.string();
    return { t: "str", parts: str.parts, pos };
  }
  if (c === "[") {
    s.next();
    return { t: "cmd", script: s.script("]"), pos };
  }
  if (c === "$") {
    const d = s.dollar();
    if (d.k === "var") return { t: "var", name: d.name, pos };
    if (d.k === "cmd") return { t: "cmd", script: d.script, pos };
    // $( ... ) inside an expression: treat like a parenthesised one
    return { t: "str", parts: [{ k: "expr", expr: d.expr, pos }], pos };
  }
  if (wordStart(c, s.peek(), operand)) {
    let v = s.next();
    while (
      !s.eof() && /[A-Za-z0-9_.:\-]/.test(s.ch) && !minusEnds(v, s.ch, s.peek())
    ) v += s.next();
    if (WORD_OPS.has(v)) return { t: "op", v, pos };
    if (/^\d+$/.test(v)) return { t: "num", v: numOf(v), pos };
    return { t: "word", v, pos, bad: v.includes(":") };
  }
  for (const op of OPS) {
    if (s.src.startsWith(op, s.i)) {
      for (let k = 0; k < op.length; k++) s.next();
      return { t: "op", v: op, pos };
    }
  }
  throw syntaxError(pos);
}

/** On the `=` after an array literal key (and not on `==`)? Takes it. */
function isKeyEnd(s: Scanner): boolean {
  if (s.ch !== "=" || s.peek() === "=") return false;
  s.next();
  return true;
}

const PREC: Record<string, number> = {
  "||": 1,
  "or": 1,
  "&&": 2,
  "and": 2,
  "=": 3,
  "!=": 3,
  "<": 3,
  ">": 3,
  "<=": 3,
  ">=": 3,
  "~": 3,
  "in": 3,
  ",": 4,
  ".": 5,
  "+": 6,
  "-": 6,
  "*": 7,
  "/": 7,
  "%": 7,
  "->": 8,
};

/** Parses expressions (and array literals) from a scanner's tokens. */
export class ExprParser {
  buf: ExprTok | null = null;
  /** Reading inside an array literal (innermost last); parentheses read a plain expression. */
  private modes: boolean[] = [false];
  constructor(readonly s: Scanner) {}
  /** The next token, read as an operand (`operand`) or an operator would be. */
  look(operand = false): ExprTok {
    if (!this.buf) this.buf = exprTok(this.s, this.modes[this.modes.length - 1], operand);
    return this.buf;
  }
  take(operand = false): ExprTok {
    const t = this.look(operand);
    this.buf = null;
    return t;
  }
  parse(minPrec = 1): Expr {
    let a = this.unary();
    for (;;) {
      const t = this.look();
      if (t.t !== "op" || PREC[t.v] === undefined || PREC[t.v] < minPrec) return a;
      this.take();
      const b = this.parse(PREC[t.v] + 1);
      a = { k: "bin", op: t.v, a, b, pos: t.pos };
    }
  }
  unary(): Expr {
    const t = this.take(true);
    switch (t.t) {
      case "op":
        if (t.v === "!" || t.v === "-" || t.v === "not") {
          return { k: "un", op: t.v === "not" ? "!" : t.v, a: this.unary(), pos: t.pos };
        }
        throw syntaxError(t.pos);
      case "num":
        return { k: "num", v: t.v, pos: t.pos };
      case "word":
        return { k: "word", v: t.v, pos: t.pos, bad: t.bad };
      case "str":
        return { k: "str", parts: t.parts, pos: t.pos };
      case "var":
        return { k: "var", name: t.name, pos: t.pos };
      case "cmd":
        return { k: "cmd", script: t.script, pos: t.pos };
      case "lit":
        return { k: "lit", v: t.v, pos: t.pos };
      case "lpar": {
        this.modes.push(false);
        const e = this.parse();
        const r = this.take();
        if (r.t !== "rpar") throw syntaxError(r.pos);
        this.modes.pop();
        return e;
      }
      case "lbrace":
        return this.arrayBody(t.pos);
      default:
        throw syntaxError(t.pos);
    }
  }

  /**
   * The elements of an array literal up to its `}`; the `{` is taken.
   * Elements are separated by `;` or newlines; `key=value` names one;
   * `"a", "b"` are two.
   */
  arrayBody(pos: Pos): ArrayLit {
    this.modes.push(true);
    const items: ArrayLit["items"] = [];
    for (;;) {
      const t = this.look(true);
      if (t.t === "sep") {
        this.take();
        continue;
      }
      if (t.t === "rbrace") {
        this.take();
        break;
      }
      let key: Expr | undefined;
      if (t.t === "key") {
        this.take();
        key = t.key;
      }
      const vals = [this.parse(PREC[","] + 1)];
      for (let n = this.look(); n.t === "op" && n.v === ","; n = this.look()) {
        this.take();
        vals.push(this.parse(PREC[","] + 1));
      }
      items.push({ key, vals });
      const n = this.look();
      if (n.t !== "sep" && n.t !== "rbrace") throw syntaxError(n.pos);
    }
    this.modes.pop();
    return { k: "arr", items, pos };
  }
}

/**
 * The block at `src[open]` (a `{` at `pos`) read as an array literal, if it
 * is one and ends where the block ends (`close`, just past its `}`).
 */
export function arrayLiteralAt(
  src: string,
  open: number,
  pos: Pos,
  close: number,
): ArrayLit | undefined {
  try {
    const s = new Scanner(src, pos, open);
    const p = new ExprParser(s);
    const t = p.take(true);
    if (t.t !== "lbrace") return undefined;
    const arr = p.arrayBody(t.pos);
    return s.i === close ? arr : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a source fragment as one expression (used for `where` clauses). */
export function parseExpr(src: string, base: Pos): Expr {
  const s = new Scanner(src, base);
  const p = new ExprParser(s);
  if (p.look(true).t === "eof") throw syntaxError(p.look(true).pos);
  const e = p.parse();
  const t = p.take();
  if (t.t !== "eof") throw syntaxError(t.pos);
  return e;
}
