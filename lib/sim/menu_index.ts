/**
 * The simulator's menus as a value: menu descriptions and loose commands,
 * indexed by path and storage table, with one menu tree per release and
 * package set (built on first use). A router's state holds one
 * (`RouterState.menus`), so menus, verbs and commands look each other up
 * through the state they are given, never through a module-level registry.
 * `menus/registry.ts` builds the full one from every family's list; a test
 * builds one with a family of its own.
 *
 * @module
 */
import type { Release } from "../routeros/release.ts";
import type { CommandDef, LooseCommand, MenuDef, MenuNode, Menus } from "./menu_types.ts";
import { onRelease } from "./releases.ts";

/** `/ip address` or `ip/address` -> `/ip/address`. */
export function normPath(p: string): string {
  return "/" + p.split(/[\s/]+/).filter(Boolean).join("/");
}

function node(name: string, path: string): MenuNode {
  return { name, path, children: new Map(), commands: new Map<string, CommandDef>() };
}

/** Menus and loose commands, indexed (see the module doc). */
export class MenuIndex implements Menus {
  readonly #byPath = new Map<string, MenuDef[]>();
  readonly #byTable = new Map<string, MenuDef[]>();
  readonly #trees = new Map<string, MenuNode>();

  constructor(readonly all: readonly MenuDef[], readonly loose: readonly LooseCommand[]) {
    for (const m of all) {
      if (!this.#byPath.has(m.path)) this.#byPath.set(m.path, []);
      this.#byPath.get(m.path)!.push(m);
      const t = m.table ?? m.path;
      if (!this.#byTable.has(t)) this.#byTable.set(t, []);
      this.#byTable.get(t)!.push(m);
    }
  }

  byPath(p: string, v?: Release): MenuDef | undefined {
    const list = this.#byPath.get(normPath(p));
    if (!list) return undefined;
    if (!v) return list[0];
    return list.find((m) => onRelease(v, m.releases));
  }

  inTable(table: string): readonly MenuDef[] {
    return this.#byTable.get(table) ?? [];
  }

  present(m: MenuDef, v: Release, packages: readonly string[]): boolean {
    if (!onRelease(v, m.releases)) return false;
    return !m.package || !onRelease(v, m.package.releases) || packages.includes(m.package.name);
  }

  tree(v: Release, packages: readonly string[] = []): MenuNode {
    const key = `${v.text} ${packages.join(",")}`;
    let root = this.#trees.get(key);
    if (root) return root;
    const top = node("", "");
    const ensure = (path: string): MenuNode => {
      let n = top;
      for (const seg of path.split("/").filter(Boolean)) {
        let c = n.children.get(seg);
        if (!c) {
          c = node(seg, n.path + "/" + seg);
          n.children.set(seg, c);
        }
        n = c;
      }
      return n;
    };
    for (const m of this.all) {
      if (!this.present(m, v, packages)) continue;
      ensure(m.path).menu = m;
    }
    for (const c of this.loose) {
      if (!onRelease(v, c.releases)) continue;
      ensure(c.path).commands.set(c.name, c.def);
    }
    root = top;
    this.#trees.set(key, root);
    return root;
  }
}
