/**
 * RouterOS script tokenizer/parser: turns source text into the tree of
 * `ast.ts`. It follows the console's rules: `;` and newline end a command,
 * `[ ]` runs a command, `{ }` is a block, `( )` an expression, and double
 * quotes take the escapes `\\ \" \$ \? \_ \a \b \f \n \r \t \v` and `\XX`
 * (two UPPERCASE hex digits); anything else after `\` is a syntax error.
 * `$name`, `$[...]` and `$(...)` are substituted, also inside quotes.
 */
import type { ArrayLit, Expr, Line, Piece, Script, Statement, StrPart, Word } from "./ast.ts";
import { type Pos, syntaxError } from "./errors.ts";
import { numOf } from "./values.ts";

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "$": "$",
  "?": "?",
  "_": " ",
  "a": "\x07",
  "b": "\b",
  "f": "\f",
  "n": "\n",
  "r": "\r",
  "t": "\t",
  "v": "\v",
};
const HEX = /^[0-9A-F]{2}$/;
const VAR_CHAR = /[A-Za-z0-9_]/;
const ENC = new TextEncoder();
const DEC = new TextDecoder();

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

class Scanner {
  i = 0;
  line: number;
  col: number;
  constructor(readonly src: string, base: Pos = { line: 1, col: 1 }, start = 0) {
    this.line = base.line;
    this.col = base.col;
    this.i = start;
  }
  get ch(): string {
    return this.src[this.i] ?? "";
  }
  /** Current character (fresh read; avoids TS narrowing across calls). */
  cur(): string {
    return this.src[this.i] ?? "";
  }
  peek(n = 1): string {
    return this.src[this.i + n] ?? "";
  }
  pos(): Pos {
    return { line: this.line, col: this.col };
  }
  next(): string {
    const c = this.src[this.i++] ?? "";
    if (c === "\n") {
      this.line++;
      this.col = 1;
    } else this.col++;
    return c;
  }
  eof(): boolean {
    return this.i >= this.src.length;
  }
  /** Skips `\` + newline (+ indentation): a continued line. */
  continuation(): boolean {
    if (this.ch !== "\\") return false;
    let j = this.i + 1;
    if (this.src[j] === "\r") j++;
    if (this.src[j] !== "\n") return false;
    while (this.i <= j) this.next();
    while (this.cur() === " " || this.cur() === "\t") this.next();
    return true;
  }
  skipBlanks(): void {
    for (;;) {
      if (this.ch === " " || this.ch === "\t" || this.ch === "\r") this.next();
      else if (!this.continuation()) return;
    }
  }

  script(close: string): Script {
    const lines: Line[] = [];
    for (;;) {
      const line = this.line_(close);
      if (line.stmts.length) lines.push(line);
      if (this.eof()) {
        if (close) throw syntaxError(this.pos());
        return { lines };
      }
      if (this.ch === "\n") {
        this.next();
        continue;
      }
      if (this.ch === close) {
        this.next();
        return { lines };
      }
      throw syntaxError(this.pos());
    }
  }

  line_(close: string): Line {
    const stmts: Statement[] = [];
    for (;;) {
      const st = this.statement(close);
      if (st.words.length) stmts.push(st);
      if (this.ch === ";") {
        this.next();
        continue;
      }
      return { stmts };
    }
  }

  statement(close: string): Statement {
    this.skipBlanks();
    const st: Statement = { words: [], pos: this.pos(), src: this.src };
    if (this.ch === "#") {
      while (!this.eof() && this.cur() !== "\n") this.next();
      return st;
    }
    for (;;) {
      this.skipBlanks();
      const c = this.ch;
      if (this.eof() || c === "\n" || c === ";" || (close !== "" && c === close)) return st;
      if (c === "]" || c === "}" || c === ")") throw syntaxError(this.pos());
      st.words.push(this.word(close));
    }
  }

  word(close: string): Word {
    const pos = this.pos();
    const start = this.i;
    const pieces: Piece[] = [];
    let text = "";
    let textPos = pos;
    const flush = () => {
      if (text) pieces.push({ k: "text", v: text, pos: textPos });
      text = "";
    };
    for (;;) {
      const c = this.ch;
      if (
        this.eof() || c === " " || c === "\t" || c === "\r" || c === "\n" || c === ";" ||
        (close !== "" && c === close)
      ) break;
      if (c === "\\") {
        if (this.continuation()) break;
        throw syntaxError(this.pos());
      }
      if (c === '"') {
        flush();
        pieces.push(this.string());
        continue;
      }
      if (c === "$") {
        flush();
        pieces.push(this.dollar());
        continue;
      }
      if (c === "[") {
        flush();
        const p = this.pos();
        this.next();
        pieces.push({ k: "cmd", script: this.script("]"), pos: p });
        continue;
      }
      if (c === "{") {
        flush();
        const p = this.pos();
        const s = this.i;
        this.next();
        const script = this.script("}");
        const end = this.pos();
        const arr = arrayLiteralAt(this.src, s, p, this.i);
        pieces.push({
          k: "block",
          script,
          pos: p,
          src: this.src.slice(s + 1, this.i - 1),
          arr,
          end,
        });
        continue;
      }
      if (c === "(") {
        flush();
        const p = this.pos();
        this.next();
        const expr = this.exprUntilClose();
        pieces.push({ k: "expr", expr, pos: p });
        continue;
      }
      if (c === "]" || c === "}" || c === ")") throw syntaxError(this.pos());
      if (!text) textPos = this.pos();
      text += this.next();
    }
    flush();
    return { pieces, pos, start, end: this.i };
  }

  /** `$name`, `$"name"`, `$[cmd]`, `$(expr)`; the scanner is on `$`. */
  dollar(): Piece & { k: "var" | "cmd" | "expr" } {
    const p = this.pos();
    this.next();
    const c = this.ch;
    if (c === "[") {
      this.next();
      return { k: "cmd", script: this.script("]"), pos: p };
    }
    if (c === "(") {
      this.next();
      return { k: "expr", expr: this.exprUntilClose(), pos: p };
    }
    if (c === '"') {
      const s = this.string();
      const name = s.parts.map((x) => (x.k === "lit" ? x.v : "")).join("");
      return { k: "var", name, pos: p };
    }
    // an undeclared `$myVar` is reported at the name, one column past the
    // `$` (real-output/error-syntax-error-local-scope-docs.txt)
    const at = this.pos();
    let name = "";
    while (VAR_CHAR.test(this.ch) && !this.eof()) name += this.next();
    if (!name) throw syntaxError(p);
    return { k: "var", name, pos: at };
  }

  /** A double-quoted string; the scanner is on the opening quote. */
  string(): Piece & { k: "str" } {
    const pos = this.pos();
    this.next();
    const parts: StrPart[] = [];
    let bytes: number[] = [];
    const flush = () => {
      if (bytes.length) parts.push({ k: "lit", v: DEC.decode(new Uint8Array(bytes)) });
      bytes = [];
    };
    for (;;) {
      if (this.eof()) throw syntaxError(this.pos());
      const c = this.ch;
      if (c === '"') {
        this.next();
        break;
      }
      if (c === "\\") {
        if (this.continuation()) continue;
        const ep = this.pos();
        const two = this.src.slice(this.i + 1, this.i + 3);
        if (HEX.test(two)) {
          this.next();
          this.next();
          this.next();
          bytes.push(parseInt(two, 16));
          continue;
        }
        const e = SIMPLE_ESCAPES[this.peek()];
        if (e === undefined) throw syntaxError(ep);
        this.next();
        this.next();
        bytes.push(e.charCodeAt(0));
        continue;
      }
      if (c === "$") {
        flush();
        const d = this.dollar();
        parts.push(d as StrPart);
        continue;
      }
      const ch = this.next();
      if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
      else {
        // keep surrogate pairs together
        let s = ch;
        const code = ch.charCodeAt(0);
        if (code >= 0xd800 && code < 0xdc00 && !this.eof()) s += this.next();
        for (const b of ENC.encode(s)) bytes.push(b);
      }
    }
    flush();
    return { k: "str", parts, pos };
  }

  // ---------------------------------------------------------------- expressions

  /**
   * The next expression token; `lit` reads inside an array literal,
   * `operand` where an operand is expected (there `*1` is an id and `.id` a
   * word; elsewhere `*` and `.` are operators).
   */
  exprTok(lit = false, operand = true): ExprTok {
    for (;;) {
      const c = this.ch;
      if (c === " " || c === "\t" || c === "\r" || (c === "\n" && !lit)) this.next();
      else if (!this.continuation()) break;
    }
    const pos = this.pos();
    if (this.eof()) return { t: "eof", pos };
    const c = this.ch;
    if (c === "{" || c === "}") {
      this.next();
      return { t: c === "{" ? "lbrace" : "rbrace", pos };
    }
    if (lit) {
      if (c === ";" || c === "\n") {
        this.next();
        return { t: "sep", pos };
      }
      if (c === '"') {
        const s = this.string();
        if (this.isKeyEnd()) return { t: "key", key: { k: "str", parts: s.parts, pos }, pos };
        return { t: "str", parts: s.parts, pos };
      }
      if (wordStart(c, this.peek(), operand) || (c === "-" && /\d/.test(this.peek()))) {
        let v = this.next();
        while (
          !this.eof() && /[A-Za-z0-9_.:\-\/]/.test(this.ch) && !minusEnds(v, this.ch, this.peek())
        ) v += this.next();
        if (this.isKeyEnd()) return { t: "key", key: { k: "word", v, pos }, pos };
        if (WORD_OPS.has(v)) return { t: "op", v, pos };
        return { t: "lit", v, pos };
      }
    }
    if (c === "(") {
      this.next();
      return { t: "lpar", pos };
    }
    if (c === ")") {
      this.next();
      return { t: "rpar", pos };
    }
    if (c === '"') {
      const s = this.string();
      return { t: "str", parts: s.parts, pos };
    }
    if (c === "[") {
      this.next();
      return { t: "cmd", script: this.script("]"), pos };
    }
    if (c === "$") {
      const d = this.dollar();
      if (d.k === "var") return { t: "var", name: d.name, pos };
      if (d.k === "cmd") return { t: "cmd", script: d.script, pos };
      // $( ... ) inside an expression: treat like a parenthesised one
      return { t: "str", parts: [{ k: "expr", expr: d.expr, pos }], pos };
    }
    if (wordStart(c, this.peek(), operand)) {
      let v = this.next();
      while (
        !this.eof() && /[A-Za-z0-9_.:\-]/.test(this.ch) && !minusEnds(v, this.ch, this.peek())
      ) v += this.next();
      if (WORD_OPS.has(v)) return { t: "op", v, pos };
      if (/^\d+$/.test(v)) return { t: "num", v: numOf(v), pos };
      return { t: "word", v, pos, bad: v.includes(":") };
    }
    for (const op of OPS) {
      if (this.src.startsWith(op, this.i)) {
        for (let k = 0; k < op.length; k++) this.next();
        return { t: "op", v: op, pos };
      }
    }
    throw syntaxError(pos);
  }

  /** On the `=` after an array literal key (and not on `==`)? Takes it. */
  private isKeyEnd(): boolean {
    if (this.ch !== "=" || this.peek() === "=") return false;
    this.next();
    return true;
  }

  /** Parses an expression up to the matching `)`; the scanner is past `(`. */
  exprUntilClose(): Expr {
    const p = new ExprParser(this);
    const e = p.parse();
    const t = p.take();
    if (t.t !== "rpar") throw syntaxError(t.pos);
    return e;
  }
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

class ExprParser {
  buf: ExprTok | null = null;
  /** Reading inside an array literal (innermost last); parentheses read a plain expression. */
  private modes: boolean[] = [false];
  constructor(readonly s: Scanner) {}
  /** The next token, read as an operand (`operand`) or an operator would be. */
  look(operand = false): ExprTok {
    if (!this.buf) this.buf = this.s.exprTok(this.modes[this.modes.length - 1], operand);
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
function arrayLiteralAt(src: string, open: number, pos: Pos, close: number): ArrayLit | undefined {
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

/** Parses a whole script. Throws `RosError` (syntax error) on bad input. */
export function parseScript(src: string, base?: Pos): Script {
  return new Scanner(src, base).script("");
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

/**
 * Splits console input into top-level lines the way the console reads them:
 * a newline ends a command unless it is inside quotes or brackets. Each chunk
 * is parsed and run on its own, so an error in one does not stop the next.
 */
export function splitTopLevel(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (inStr) {
      if (c === "\\") i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === "\\") {
      i += src[i + 1] === "\r" ? 2 : 1;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth = Math.max(0, depth - 1);
    else if (c === "\n" && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  out.push(src.slice(start));
  return out;
}
