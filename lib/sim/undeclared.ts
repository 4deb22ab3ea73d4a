/**
 * RouterOS 7 refuses a script that uses a variable it never declares, with a
 * syntax error at the variable, before running any of it (6.x runs it and
 * reads nothing). This walks a parsed script for such uses.
 *
 * @module
 */
import type { Expr, Piece, Script, Statement, StrPart } from "./ast.ts";
import { syntaxError } from "./errors.ts";
import { plainText } from "./interp_types.ts";

/** Throw a syntax error at the first variable of `script` that `known` does not declare. */
export function checkDeclared(script: Script, known: Set<string>): void {
  walkScript(script, known);
}

function walkScript(script: Script, known: Set<string>): void {
  for (const line of script.lines) {
    for (const stmt of line.stmts) walkStatement(stmt, known);
  }
}

function walkStatement(stmt: Statement, known: Set<string>): void {
  const t0 = plainText(stmt.words[0]);
  const declares = t0 === ":local" || t0 === ":global";
  let inner = known;
  if (t0 === ":foreach" || t0 === ":for") {
    let v = stmt.words[1] && plainText(stmt.words[1]);
    const next = stmt.words[2] && plainText(stmt.words[2]);
    if (v && v.endsWith(",") && next) v += next;
    inner = new Set(known);
    if (v) { for (const n of v.split(",")) inner.add(n); }
  }
  stmt.words.forEach((w, i) => {
    if (declares && i === 1) return;
    for (const p of w.pieces) walkPiece(p, i > 1 && inner !== known ? inner : known);
  });
  if (declares && stmt.words[1]) {
    const name = plainText(stmt.words[1]);
    if (name) known.add(name);
  }
}

function walkPiece(p: Piece | StrPart, known: Set<string>): void {
  switch (p.k) {
    case "var":
      if (!known.has(p.name)) throw syntaxError(p.pos);
      return;
    case "str":
      for (const x of p.parts) walkPiece(x, known);
      return;
    case "cmd":
      walkScript(p.script, new Set(known));
      return;
    case "block":
      walkScript(p.script, new Set(known));
      return;
    case "expr":
      walkExpr(p.expr, known);
      return;
  }
}

function walkExpr(e: Expr, known: Set<string>): void {
  switch (e.k) {
    case "var":
      if (!known.has(e.name)) throw syntaxError(e.pos);
      return;
    case "str":
      for (const x of e.parts) walkPiece(x, known);
      return;
    case "cmd":
      walkScript(e.script, new Set(known));
      return;
    case "un":
      walkExpr(e.a, known);
      return;
    case "bin":
      walkExpr(e.a, known);
      walkExpr(e.b, known);
      return;
    case "arr":
      for (const it of e.items) {
        if (it.key) walkExpr(it.key, known);
        for (const v of it.vals) walkExpr(v, known);
      }
      return;
  }
}
