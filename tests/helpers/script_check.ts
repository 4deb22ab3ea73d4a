/**
 * Hold a RouterOS script (what the product sends) against a real command
 * tree (`trees.ts`): every menu path, command and argument name must exist
 * in the tree, and every literal value of an argument with a value list must
 * be on that list. Scripts are read with the simulator's own tokenizer, so
 * nested `[ ... ]` commands, `{ ... }` blocks, `( ... )` expressions and
 * quoted strings are seen as RouterOS sees them.
 *
 * @module
 */
import type { Expr, Piece, Script, Statement, StrPart, Word } from "../../lib/sim/ast.ts";
import { parseScript, splitTopLevel } from "../../lib/sim/tokenizer.ts";
import type { Tree } from "./trees.ts";

/** A name or value the tree lacks, as one line: `/ip route add: no argument routing-mark`. */
export type Mismatch = string;

/** Arguments named with `=`: the same rule as the console's (`name=value`). */
const NAME = /^[a-zA-Z0-9.][a-zA-Z0-9.\-]*$/;
/** Commands whose bare words are switches (`print detail as-value`), checked as arguments. */
const SWITCHED = new Set(["print", "export"]);

/** Every menu path of a tree and its ancestors (`/ip` for `/ip/address`). */
const prefixes = new WeakMap<Tree, Set<string>>();
function menusOf(tree: Tree): Set<string> {
  let set = prefixes.get(tree);
  if (set) return set;
  set = new Set(["/"]);
  for (const path of Object.keys(tree.menus)) {
    const segs = path.split("/").filter(Boolean);
    for (let i = 1; i <= segs.length; i++) set.add("/" + segs.slice(0, i).join("/"));
  }
  prefixes.set(tree, set);
  return set;
}

function join(path: string, seg: string): string {
  return path === "/" ? `/${seg}` : `${path}/${seg}`;
}

function plain(w: Word | undefined): string | null {
  return w && w.pieces.length === 1 && w.pieces[0].k === "text" ? w.pieces[0].v : null;
}

/** The text of a word made only of literal text and quoted literal parts, else null. */
function literal(pieces: Piece[]): string | null {
  let out = "";
  for (const p of pieces) {
    if (p.k === "text") out += p.v;
    else if (p.k === "str" && p.parts.every((x) => x.k === "lit")) {
      out += p.parts.map((x) => (x as { v: string }).v).join("");
    } else return null;
  }
  return out;
}

/** Checks scripts against one tree; collects what the tree lacks. */
export class ScriptChecker {
  readonly #tree: Tree;
  readonly #menus: Set<string>;
  readonly #unchecked: ReadonlyMap<string, string>;
  #found: Mismatch[] = [];
  /** Commands checked, and commands left alone because their menu is unchecked (by reason). */
  readonly counts = { checked: 0, skipped: new Map<string, number>() };

  /**
   * `unchecked`: menus (and their submenus) whose commands the tree cannot
   * judge, with the reason (hardware a CHR lacks).
   */
  constructor(tree: Tree, unchecked: ReadonlyMap<string, string> = new Map()) {
    this.#tree = tree;
    this.#menus = menusOf(tree);
    this.#unchecked = unchecked;
  }

  /** The reason a menu path is not checked, if it is not. */
  #skip(path: string): boolean {
    for (const [menu, why] of this.#unchecked) {
      if (path === menu || path.startsWith(menu + "/")) {
        this.counts.skipped.set(why, (this.counts.skipped.get(why) ?? 0) + 1);
        return true;
      }
    }
    return false;
  }

  /** What `src` uses that the tree lacks (empty when everything exists). */
  check(src: string): Mismatch[] {
    this.#found = [];
    for (const chunk of splitTopLevel(src)) {
      if (!chunk.trim()) continue;
      let script: Script;
      try {
        script = parseScript(chunk);
      } catch (e) {
        this.#found.push(`syntax error: ${(e as Error).message ?? String(e)}`);
        continue;
      }
      this.#script(script, "/");
    }
    return [...new Set(this.#found)];
  }

  #script(script: Script, cwd: string): void {
    for (const line of script.lines) {
      for (const stmt of line.stmts) cwd = this.#statement(stmt, cwd);
    }
  }

  /** Checks one statement; returns the menu the console is in afterwards. */
  #statement(stmt: Statement, cwd: string): string {
    const words = stmt.words;
    if (words.length === 0) return cwd;
    const only = words.length === 1 ? words[0].pieces : [];
    if (only.length === 1 && only[0].k === "block") {
      this.#script(only[0].script, cwd);
      return cwd;
    }
    const t0 = plain(words[0]);
    if (t0 !== null && t0.startsWith(":") && t0.length > 1) {
      return this.#builtin(t0.slice(1), stmt, cwd);
    }
    let path = cwd;
    let i = 0;
    if (t0 !== null && t0.startsWith("/")) {
      path = "/";
      const segs = t0.split("/").filter(Boolean);
      for (let s = 0; s < segs.length; s++) {
        const next = join(path, segs[s]);
        if (this.#skip(next)) return cwd;
        if (this.#menus.has(next)) path = next;
        else if (s === segs.length - 1) {
          this.#command(path, segs[s], stmt, 1);
          return cwd;
        } else {
          this.#found.push(`no menu ${next}`);
          return cwd;
        }
      }
      i = 1;
    }
    for (; i < words.length; i++) {
      const t = plain(words[i]);
      if (t === null) {
        this.#found.push(`${path}: a command name is not plain text`);
        return cwd;
      }
      const next = join(path, t);
      if (this.#skip(next)) return cwd;
      if (this.#menus.has(next)) {
        path = next;
        continue;
      }
      if (path === "/" && i === 0 && this.#commands("/")[t] === undefined) {
        this.#found.push(`no menu or command ${next}`);
        return cwd;
      }
      this.#command(path, t, stmt, i + 1);
      return cwd;
    }
    return path;
  }

  #commands(path: string): Record<string, string> {
    return this.#tree.menus[path]?.c ?? {};
  }

  /** A `:` command: the root menu's commands, and `:log <topic>` as `/log <topic>`. */
  #builtin(name: string, stmt: Statement, cwd: string): string {
    if (name === "log") {
      const topic = plain(stmt.words[1]);
      if (topic !== null) this.#command("/log", topic, stmt, 2, cwd);
      return cwd;
    }
    this.#command("/", name, stmt, 1, cwd);
    return cwd;
  }

  /**
   * Checks command `name` of menu `path` and its arguments from word
   * `start` on. Nested commands run in the command's menu (`[find]` in
   * `/ip address set [find ...]`); those of `:` commands where the console is.
   */
  #command(path: string, name: string, stmt: Statement, start: number, cwd?: string): void {
    const inner = cwd ?? path;
    this.counts.checked++;
    const args = this.#commands(path)[name];
    const where = `${path === "/" ? "" : path.slice(1).replaceAll("/", " ") + " "}${name}`;
    if (args === undefined) {
      this.#found.push(
        path in this.#tree.menus || path === "/"
          ? `${path}: no command ${name}`
          : `no menu ${path}`,
      );
    }
    const known = new Set((args ?? "").split(" ").filter(Boolean));
    const words = stmt.words;
    if (name === "find") {
      // `find name="x"` is a condition on properties, like `where`: only its commands are checked.
      for (const w of words.slice(start)) this.#pieces(w.pieces, inner);
      return;
    }
    for (let i = start; i < words.length; i++) {
      const w = words[i];
      const first = w.pieces[0];
      if (SWITCHED.has(name) && plain(w) === "where") {
        if (args !== undefined && !known.has("where")) this.#found.push(`${where}: no where`);
        // The rest is the where expression; only its nested commands are checked.
        for (const rest of words.slice(i + 1)) this.#pieces(rest.pieces, inner);
        return;
      }
      if (first.k === "text" && first.v.includes("=")) {
        const arg = first.v.slice(0, first.v.indexOf("="));
        if (NAME.test(arg)) {
          if (args !== undefined && !known.has(arg)) {
            this.#found.push(`${where}: no argument ${arg}`);
          }
          const rest = first.v.slice(arg.length + 1);
          const value: Piece[] = [
            ...(rest ? [{ ...first, v: rest }] : []),
            ...w.pieces.slice(1),
          ];
          this.#value(path, name, arg, value);
          this.#pieces(value, inner);
          continue;
        }
      }
      const t = plain(w);
      if (SWITCHED.has(name) && t !== null && /^[a-z][a-z-]*$/.test(t) && args !== undefined) {
        if (!known.has(t)) this.#found.push(`${where}: no argument ${t}`);
      }
      this.#pieces(w.pieces, inner);
    }
  }

  /** A literal value of an argument that has a value list must be on the list. */
  #value(path: string, command: string, arg: string, pieces: Piece[]): void {
    const e = this.#tree.menus[path]?.e?.[`${command} ${arg}`];
    const text = literal(pieces);
    if (!e || text === null || text === "") return;
    const values = this.#tree.enums[e[0]];
    for (const part of text.split(",")) {
      const v = part.replace(/^!/, "");
      if (!values.includes(v)) {
        this.#found.push(
          `${
            path === "/" ? "" : path.slice(1).replaceAll("/", " ") + " "
          }${command} ${arg}=${v}: ` +
            `not among ${values.join(",")}`,
        );
      }
    }
  }

  #pieces(pieces: (Piece | StrPart)[], cwd: string): void {
    for (const p of pieces) {
      if (p.k === "cmd") this.#script(p.script, cwd);
      else if (p.k === "block") this.#script(p.script, cwd);
      else if (p.k === "str") this.#pieces(p.parts, cwd);
      else if (p.k === "expr") this.#expr(p.expr, cwd);
    }
  }

  #expr(e: Expr, cwd: string): void {
    switch (e.k) {
      case "cmd":
        return this.#script(e.script, cwd);
      case "str":
        return this.#pieces(e.parts, cwd);
      case "un":
        return this.#expr(e.a, cwd);
      case "bin":
        this.#expr(e.a, cwd);
        return this.#expr(e.b, cwd);
      case "arr":
        for (const it of e.items) {
          if (it.key) this.#expr(it.key, cwd);
          for (const v of it.vals) this.#expr(v, cwd);
        }
    }
  }
}
