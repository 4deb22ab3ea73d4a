/**
 * `/console inspect request=child path=ip,address [as-value]`: the menu
 * tree of this release as a real RouterOS 7 reports it - a `self` record for
 * the node, then one `child` record per sub-menu (`dir`), command (`cmd`) or
 * argument (`arg`). The argument lists of the generic verbs are those of the
 * real trees (`../shared/fidelity`, `/ip/address` on 7.16.2). Other requests
 * (`completion`, `syntax`, ...) answer an empty list here.
 *
 * @module
 */
import type { CommandCtx, CommandDef, MenuDef, MenuNode } from "./menu_types.ts";
import { onRelease } from "./releases.ts";
import { fail } from "./errors.ts";
import type { RouterState } from "./state.ts";
import { sortedMap, type Val } from "./values.ts";
import { verbsOf } from "./verbs.ts";

const PRINT_LIST = [
  "append",
  "as-value",
  "brief",
  "count-only",
  "detail",
  "file",
  "follow",
  "follow-only",
  "from",
  "interval",
  "proplist",
  "show-ids",
  "terse",
  "value-list",
  "where",
  "without-paging",
];
const PRINT_SINGLE = ["as-value", "file", "interval", "without-paging"];
const EXPORT = ["compact", "file", "hide-sensitive", "show-sensitive", "terse", "verbose", "where"];

/** The writable properties of a menu on this release. */
function writable(menu: MenuDef, st: RouterState): string[] {
  return menu.props.filter((p) => !p.ro && onRelease(st.release, p.releases)).map((p) => p.name);
}

/** The argument names of a generic verb, as the real trees list them. */
function verbArgs(menu: MenuDef, verb: string, st: RouterState): string[] {
  const single = menu.kind === "single";
  switch (verb) {
    case "add":
      return [...writable(menu, st), "copy-from", ...(menu.ordered ? ["place-before"] : [])];
    case "set":
      return single ? writable(menu, st) : [...writable(menu, st), "numbers"];
    case "print":
      return single ? PRINT_SINGLE : PRINT_LIST;
    case "get":
      return single
        ? ["as-string", "as-string-value", "value-name"]
        : ["as-string", "as-string-value", "number", "value-name"];
    case "find":
      return ["where"];
    case "comment":
      return ["comment", "numbers"];
    case "move":
      return ["destination", "numbers"];
    case "unset":
      return ["numbers", "value-name"];
    default:
      return ["numbers"];
  }
}

/** The commands at a node: its menu's verbs and own commands, loose commands, `export`. */
function commandsAt(node: MenuNode, st: RouterState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const menu = node.menu;
  if (menu) {
    for (const verb of verbsOf(menu, st)) out.set(verb, verbArgs(menu, verb, st));
    for (const [name, def] of Object.entries(menu.commands ?? {})) {
      if (onRelease(st.release, def.releases)) out.set(name, argsOf(def));
    }
  }
  for (const [name, def] of node.commands) out.set(name, argsOf(def));
  if (node.path !== "") out.set("export", EXPORT);
  return out;
}

function argsOf(def: CommandDef): string[] {
  return [...(def.args ?? []), ...(def.switches ?? []), ...(def.numbers ? ["numbers"] : [])];
}

function record(type: string, name: string, nodeType: string): Map<string, Val> {
  return sortedMap([["type", type], ["name", name], ["node-type", nodeType]]);
}

/** The `/console inspect` command (RouterOS 7). */
export const CONSOLE_INSPECT: CommandDef = {
  args: ["input", "path", "proplist", "request"],
  // The 7.12.2 and 7.13.5 trees have no proplist; the 7.16.2 one has.
  argReleases: { proplist: { from: "7.16" } },
  switches: ["as-value", "without-paging"],
  run: (c: CommandCtx) => {
    const request = c.named.get("request") ?? "";
    if (!["child", "completion", "error", "highlight", "self", "syntax"].includes(request)) {
      throw fail("input does not match any value of request");
    }
    const words = (c.named.get("path") ?? "").split(",").filter((w) => w !== "");
    const out: Val[] = request === "child" ? inspectChild(c.st, words) : [];
    if (c.switches.has("as-value")) return out;
    return out.map((r) => {
      const m = r as Map<string, Val>;
      return `${m.get("type")} ${m.get("name")} ${m.get("node-type")}`;
    }).join("\n");
  },
};

function inspectChild(st: RouterState, words: string[]): Val[] {
  let node = st.menus.tree(st.release, st.packages);
  for (let i = 0; i < words.length; i++) {
    const next = node.children.get(words[i]);
    if (next) {
      node = next;
      continue;
    }
    const args = commandsAt(node, st).get(words[i]);
    if (args && i === words.length - 1) {
      return [
        record("self", words[i], "cmd"),
        ...args.toSorted().map((a) => record("child", a, "arg")),
      ];
    }
    return [];
  }
  const self = record("self", node.name, "dir");
  const dirs = [...node.children.keys()].toSorted().map((n) => record("child", n, "dir"));
  const cmds = [...commandsAt(node, st).keys()].toSorted().map((n) => record("child", n, "cmd"));
  return [self, ...dirs, ...cmds];
}
