/**
 * RouterOS script tokenizer/parser: turns source text into the tree of
 * `ast.ts`. It follows the console's rules: `;` and newline end a command,
 * `[ ]` runs a command, `{ }` is a block, `( )` an expression, and double
 * quotes take the escapes `\\ \" \$ \? \_ \a \b \f \n \r \t \v` and `\XX`
 * (two UPPERCASE hex digits); anything else after `\` is a syntax error.
 * `$name`, `$[...]` and `$(...)` are substituted, also inside quotes.
 * Expressions and array literals are read by `expr_parser.ts`.
 *
 * @module
 */
import type { Expr, Line, Piece, Script, Statement, StrPart, Word } from "./ast.ts";
import { type Pos, syntaxError } from "./errors.ts";
import { arrayLiteralAt, ExprParser } from "./expr_parser.ts";

/** The start of a block whose first word is a command: blanks, then `:` or `/`. */
const COMMAND_START = /^[ \t\r\n]*[:/]/;

export { parseExpr } from "./expr_parser.ts";

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

/** Reads script source: statements, words, strings and `$` substitutions. */
export class Scanner {
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
        // A block that starts with a command (`:put`, `/ip ...`) is never an
        // array literal: not probed (the probe fails with a syntax error).
        const arr = COMMAND_START.test(this.src.slice(s + 1, s + 64))
          ? undefined
          : arrayLiteralAt(this.src, s, p, this.i);
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

  /** Parses an expression up to the matching `)`; the scanner is past `(`. */
  exprUntilClose(): Expr {
    const p = new ExprParser(this);
    const e = p.parse();
    const t = p.take();
    if (t.t !== "rpar") throw syntaxError(t.pos);
    return e;
  }
}

/** Parses a whole script. Throws `RosError` (syntax error) on bad input. */
export function parseScript(src: string, base?: Pos): Script {
  return new Scanner(src, base).script("");
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
