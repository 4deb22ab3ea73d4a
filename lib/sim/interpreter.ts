/**
 * Runs RouterOS console input against a router state: resolves menu paths
 * and commands, evaluates arguments (variables, `[cmd]`, `(expr)`), runs the
 * `:` built-ins and dispatches menu verbs (`verbs.ts`). Errors are printed as
 * a real router prints them; a `;` chain stops at its first error while the
 * next input line still runs.
 *
 * @module
 */
import type { Expr, Piece, Script, Statement, StrPart, Word } from "./ast.ts";
import { onRelease } from "./releases.ts";
import {
  at,
  badCommand,
  expectedCommand,
  expectedEnd,
  fail,
  NOT_ENOUGH_PERMISSIONS,
  type Pos,
  RosError,
  syntaxError,
} from "./errors.ts";
import { evalExpr, type ItemLookup } from "./expr_eval.ts";
import type { CommandDef, MenuDef, MenuNode } from "./menu_types.ts";
import type { RouterState } from "./state.ts";
import { parseExpr, parseScript, splitTopLevel } from "./tokenizer.ts";
import { Code, toStr, truthy, type Val } from "./values.ts";
import { literal } from "./literals.ts";
import { isBuiltin, runBuiltin } from "./builtins.ts";
import { runVerb, verbsOf } from "./verbs.ts";
import { runExport } from "./export_command.ts";
import { runImport } from "./import_command.ts";
import { exportConfig } from "./export.ts";
import { checkDeclared } from "./undeclared.ts";
import {
  type Arg,
  type Args,
  type Interp,
  plainText,
  type Resolved,
  ReturnSignal,
  Scope,
  type Session,
} from "./interp_types.ts";

const NAME_RE = /^[a-zA-Z0-9.][a-zA-Z0-9.\-]*$/;

/** One console session (one exec, one scheduler run...). */
export class Interpreter implements Interp {
  readonly out: string[] = [];
  failed = false;
  cwd: MenuNode;
  readonly root: MenuNode;
  /** Ids shown by the last print of each menu (print numbers). */
  readonly lastPrint = new Map<string, string[]>();
  scope: Scope = new Scope(null);
  /** Depth of `[ ... ]` substitutions being run. */
  cmdDepth = 0;
  /** How long the commands run so far take on a real router, in ms (see `CommandCtx.runFor`). */
  runMs = 0;

  constructor(readonly st: RouterState, readonly session: Session) {
    this.root = st.menus.tree(st.release, st.packages);
    this.cwd = this.root;
  }

  /** Prints one output line. */
  print(line: string): void {
    this.out.push(line);
  }

  /** False while running a stored script (no confirmation prompts). */
  interactive = true;

  /** Runs console input (an exec command string). */
  runInput(src: string): void {
    this.st.currentUser = this.session.user;
    for (const chunk of splitTopLevel(src)) {
      if (!chunk.trim()) continue;
      this.scope = new Scope(null);
      try {
        const script = parseScript(chunk);
        this.checkVars(script);
        this.execScript(script);
      } catch (e) {
        this.report(e);
      }
    }
  }

  /** Runs a stored script (scheduler on-event, /system/script); stops at the first error. */
  runScriptText(src: string): void {
    this.st.currentUser = this.session.user;
    const savedInteractive = this.interactive;
    this.interactive = false;
    const saved = this.scope;
    this.scope = new Scope(null);
    try {
      const script = parseScript(src);
      this.checkVars(script);
      this.execScript(script);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) this.report(e);
    } finally {
      this.scope = saved;
      this.interactive = savedInteractive;
    }
  }

  private report(e: unknown): void {
    this.failed = true;
    if (e instanceof RosError) this.print(e.text);
    else if (e instanceof ReturnSignal) this.failed = false;
    else this.print(`failure: ${e instanceof Error ? e.message : String(e)}`);
  }

  /** v7 refuses scripts using undeclared variables before running anything. */
  checkVars(script: Script): void {
    if (this.st.v6) return;
    const known = new Set<string>([...this.st.globals.keys()]);
    for (let s: Scope | null = this.scope; s; s = s.parent) {
      for (const k of s.vars.keys()) known.add(k);
    }
    checkDeclared(script, known);
  }

  /** Runs every statement; throws at the first error. Returns the last value. */
  execScript(script: Script): Val {
    let last: Val = null;
    for (const line of script.lines) {
      for (const stmt of line.stmts) last = this.execStatement(stmt);
    }
    return last;
  }

  /** Runs a `[ ... ]` substitution and returns its value. */
  runCmd(script: Script): Val {
    const savedCwd = this.cwd;
    this.cmdDepth++;
    try {
      return this.execScript(script);
    } finally {
      this.cmdDepth--;
      this.cwd = savedCwd;
    }
  }

  /** Runs a `{ ... }` block in a child scope. */
  runBlock(script: Script): Val {
    const saved = this.scope;
    const savedCwd = this.cwd;
    this.scope = new Scope(saved);
    try {
      return this.execScript(script);
    } finally {
      this.scope = saved;
      this.cwd = savedCwd;
    }
  }

  getVar(name: string, _pos: Pos): Val {
    const m = this.scope.find(name);
    if (m) return m.get(name)!;
    if (this.st.globals.has(name)) return this.st.globals.get(name)!;
    return null;
  }

  strParts(parts: StrPart[]): string {
    let s = "";
    for (const p of parts) {
      if (p.k === "lit") s += p.v;
      else if (p.k === "var") s += toStr(this.getVar(p.name, p.pos));
      else if (p.k === "cmd") s += toStr(this.runCmd(p.script));
      else s += toStr(evalExpr(p.expr, this));
    }
    return s;
  }

  /** Value of word pieces: one piece keeps its type, several concatenate. */
  evalPieces(pieces: Piece[]): Val {
    if (pieces.length === 1) return this.evalPiece(pieces[0]);
    return pieces.map((p) => toStr(this.evalPiece(p))).join("");
  }

  evalPiece(p: Piece): Val {
    switch (p.k) {
      case "text":
        return p.v;
      case "str":
        return this.strParts(p.parts);
      case "var":
        return this.getVar(p.name, p.pos);
      case "cmd":
        return this.runCmd(p.script);
      case "expr":
        return evalExpr(p.expr, this);
      case "block":
        if (!p.arr) return new Code(p.src);
        // RouterOS 6 refuses the empty array literal: `:global array {}` is
        // `syntax error (line 1 column 17)`, the column just past the `}`
        // (real-output/asvalue-find-and-typeof-docs.txt)
        if (this.st.v6 && p.arr.items.length === 0) throw syntaxError(p.end);
        return evalExpr(p.arr, this);
    }
  }

  /** Evaluates an argument's value. */
  argVal(a: Arg): Val {
    return this.evalPieces(a.pieces);
  }

  /**
   * The value of an argument of a `:` command: an unquoted word is typed
   * (`:local a 1234` is a num, `1s` a time; `literals.ts`), anything else
   * as {@linkcode argVal}.
   */
  scriptVal(a: Arg): Val {
    const p = a.pieces;
    return p.length === 1 && p[0].k === "text" ? literal(p[0].v) : this.argVal(a);
  }

  /** Evaluates an argument to a string. */
  argStr(a: Arg): string {
    return toStr(this.argVal(a));
  }

  /** Evaluates a where-clause for an item. */
  whereMatch(e: Expr, lookup: ItemLookup): boolean {
    return truthy(evalExpr(e, this, lookup));
  }

  /** Refuses writes for users without the policy. */
  requirePolicy(policy: string): void {
    if (!this.session.policies.has(policy)) throw fail(NOT_ENOUGH_PERMISSIONS);
  }

  // --------------------------------------------------------------- statements

  execStatement(stmt: Statement): Val {
    const only = stmt.words.length === 1 ? stmt.words[0].pieces : [];
    if (only.length === 1 && only[0].k === "block") return this.runBlock(only[0].script);
    const r = this.resolve(stmt);
    if (r.kind === "cd") {
      this.cwd = r.node;
      return null;
    }
    if (r.kind === "builtin") {
      const args = this.splitArgs(stmt, r.argStart, false);
      return runBuiltin(this, r.name, r.word, args, stmt);
    }
    const allowWhere = (r.kind === "verb" && (r.verb === "print" || r.verb === "find")) ||
      (r.kind === "export");
    const args = this.splitArgs(stmt, r.argStart, allowWhere);
    // `[find ...]` inside the arguments runs relative to the command's menu
    const savedCwd = this.cwd;
    this.cwd = r.node;
    try {
      if (r.kind === "verb") return runVerb(this, r.menu, r.verb, args, stmt);
      if (r.kind === "export") return runExport(this, r.node, args);
      if (r.kind === "import") return runImport(this, args);
      return this.runCommand(r.node, r.def, args);
    } finally {
      this.cwd = savedCwd;
    }
  }

  private runCommand(node: MenuNode, def: CommandDef, args: Args): Val {
    if (def.write) this.requirePolicy("write");
    if (def.policy) this.requirePolicy(def.policy);
    const named = new Map<string, string>();
    const selection = def.numbersName ?? "numbers";
    for (const [k, a] of args.named) {
      if (k === selection && def.numbers) continue;
      if (!def.args?.includes(k) || !onRelease(this.st.release, def.argReleases?.[k])) {
        if (k === "numbers" && !def.numbers) throw at(`bad parameter ${k}`, a.word.pos);
        throw expectedEnd(a.word.pos);
      }
      named.set(k, this.argStr(a));
    }
    if (args.whereWord) throw expectedEnd(args.whereWord.pos);
    let ids: string[] = [];
    const switches = new Set<string>();
    let posArgs = args.positional.filter((a) => {
      const t = plainText(a.word);
      if (t === null || !def.switches?.includes(t)) return true;
      switches.add(t);
      return false;
    });
    const menu = node.menu;
    if (def.numbers && menu) {
      const numArg = args.named.get(selection);
      if (numArg) ids = this.selectIds(menu, this.argVal(numArg), true);
      else if (posArgs.length) {
        ids = this.selectIds(menu, this.argVal(posArgs[0]), false);
        posArgs = posArgs.slice(1);
      }
    }
    const max = Math.max(
      0,
      (def.positional ?? 0) - (def.positionalArg && args.named.has(def.positionalArg) ? 1 : 0),
    );
    if (posArgs.length > max) throw expectedEnd(posArgs[max].word.pos);
    return def.run({
      st: this.st,
      menu,
      user: this.session.user,
      named,
      positional: posArgs.map((a) => this.argVal(a)),
      ids,
      switches,
      cmdDepth: this.cmdDepth,
      interactive: this.interactive,
      print: (l) => this.print(l),
      runScript: (src) => this.runScriptText(src),
      runFor: (ms) => void (this.runMs += ms),
      exportText: (o) => exportConfig(this.st, o),
    }) ?? null;
  }

  /** Resolves `numbers` (ids, print numbers, names, lists) to item ids. */
  selectIds(menu: MenuDef, v: Val, named: boolean): string[] {
    const items = this.st.list(menu);
    const out: string[] = [];
    const notFound = () => fail(named ? "no such item (4)" : "no such item");
    const one = (x: string) => {
      if (x === "") return;
      if (/^\*[0-9A-Fa-f]+$/.test(x)) {
        const id = "*" + x.slice(1).toUpperCase();
        if (!items.some((i) => i[".id"] === id)) throw notFound();
        out.push(id);
        return;
      }
      if (/^\d+$/.test(x)) {
        const shown = this.lastPrint.get(menu.path) ?? items.map((i) => i[".id"]);
        const id = shown[Number(x)];
        if (!id || !items.some((i) => i[".id"] === id)) throw notFound();
        out.push(id);
        return;
      }
      const key = menu.key;
      const it = key ? items.find((i) => i[key] === x) : undefined;
      if (!it) throw notFound();
      out.push(it[".id"]);
    };
    const walk = (x: Val) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x === null) return;
      else for (const part of toStr(x).split(",")) one(part);
    };
    walk(v);
    return [...new Set(out)];
  }

  // ------------------------------------------------------------------ parsing

  private commandAt(node: MenuNode, name: string, word: Word, argStart: number): Resolved | null {
    if (name === "export" && (node.menu?.noExport !== true)) {
      return { kind: "export", node, word, argStart };
    }
    if (name === "import" && node === this.root) return { kind: "import", node, word, argStart };
    const extra = node.menu?.commands?.[name];
    if (extra && onRelease(this.st.release, extra.releases)) {
      return { kind: "command", node, def: extra, name, word, argStart };
    }
    if (node.menu && verbsOf(node.menu, this.st).includes(name)) {
      return { kind: "verb", node, menu: node.menu, verb: name, word, argStart };
    }
    const loose = node.commands.get(name);
    if (loose) return { kind: "command", node, def: loose, name, word, argStart };
    return null;
  }

  /** The menu, command or built-in a statement names (a dry run checks it without running). */
  resolve(stmt: Statement): Resolved {
    const words = stmt.words;
    const w0 = words[0];
    const t0 = plainText(w0);
    if (t0 !== null && t0.startsWith(":") && t0.length > 1) {
      return { kind: "builtin", name: t0.slice(1), word: w0, argStart: 1 };
    }
    let node = this.cwd;
    let i = 0;
    if (t0 !== null && t0.startsWith("/")) {
      if (this.st.v6) {
        const k = t0.indexOf("/", 1);
        if (k > 0) throw expectedCommand({ line: w0.pos.line, col: w0.pos.col + k });
      }
      node = this.root;
      const segs = t0.split("/");
      let off = 0;
      for (let s = 0; s < segs.length; s++) {
        const seg = segs[s];
        const pos = { line: w0.pos.line, col: w0.pos.col + off };
        off += seg.length + 1;
        if (seg === "") continue;
        if (seg === "..") {
          node = this.parentOf(node);
          continue;
        }
        const child = node.children.get(seg);
        if (child) {
          node = child;
          continue;
        }
        const rest = segs.slice(s + 1).filter(Boolean);
        const c = rest.length === 0 ? this.commandAt(node, seg, w0, 1) : null;
        if (c) return c;
        throw badCommand(seg, pos);
      }
      i = 1;
    }
    for (; i < words.length; i++) {
      const w = words[i];
      const t = plainText(w);
      if (t === null) throw expectedCommand(w.pos);
      if (t === "..") {
        node = this.parentOf(node);
        continue;
      }
      if (t.startsWith("/") && i > 0) throw badCommand(t, w.pos);
      const child = node.children.get(t);
      if (child) {
        node = child;
        continue;
      }
      const c = this.commandAt(node, t, w, i + 1);
      if (c) return c;
      // at the root the `:` commands also go without their colon: `put`,
      // `[typeof ...]` (the Scripting manual's examples; the root menu of the
      // command trees in ../shared/fidelity lists them)
      if (node === this.root && i === 0 && isBuiltin(t)) {
        return { kind: "builtin", name: t, word: w, argStart: 1 };
      }
      throw badCommand(t, w.pos);
    }
    return { kind: "cd", node };
  }

  private parentOf(node: MenuNode): MenuNode {
    const segs = node.path.split("/").filter(Boolean);
    segs.pop();
    let n = this.root;
    for (const s of segs) n = n.children.get(s)!;
    return n;
  }

  /** Splits the words after a command into named and positional arguments. */
  splitArgs(stmt: Statement, start: number, allowWhere: boolean): Args {
    const args: Args = { named: new Map(), positional: [] };
    const words = stmt.words;
    for (let i = start; i < words.length; i++) {
      const w = words[i];
      const first = w.pieces[0];
      if (allowWhere && plainText(w) === "where") {
        const last = words[words.length - 1];
        const src = stmt.src.slice(w.end, last.end);
        args.whereWord = w;
        if (i === words.length - 1) throw syntaxError({ line: w.pos.line, col: w.pos.col + 5 });
        args.where = parseExpr(src, { line: w.pos.line, col: w.pos.col + 5 });
        break;
      }
      if (first.k === "text" && first.v.includes("=")) {
        const eqi = first.v.indexOf("=");
        const name = first.v.slice(0, eqi);
        if (NAME_RE.test(name)) {
          const rest = first.v.slice(eqi + 1);
          const pieces: Piece[] = rest ? [{ k: "text", v: rest, pos: first.pos }] : [];
          pieces.push(...w.pieces.slice(1));
          if (!pieces.length) throw expectedEnd(w.pos);
          args.named.set(name, { name, word: w, pieces });
          continue;
        }
      }
      args.positional.push({ word: w, pieces: w.pieces });
    }
    return args;
  }
}
