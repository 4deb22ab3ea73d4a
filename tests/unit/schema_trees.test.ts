/**
 * The schema registry against every real command tree: each declared menu,
 * write, property and value exists on exactly the releases the declaration
 * claims (a menu that changed shape has one declaration per shape, on
 * disjoint releases) (hardware-only facts excepted: a CHR has no PoE or RouterBOARD).
 */
import assert from "node:assert/strict";
import { inRange } from "../../lib/routeros/release.ts";
import { hasWrite } from "../../lib/routeros/schema/menu.ts";
import { MENU_SCHEMAS } from "../../lib/routeros/schema/registry.ts";
import { argsOf, trees, treesAvailable, valuesOf } from "../helpers/trees.ts";

const ignore = !treesAvailable();
const WRITES = ["add", "set", "remove", "enable", "disable", "move"] as const;

Deno.test({
  name: "schema: every menu, write, property and value holds against every real command tree",
  ignore,
  fn() {
    const problems: string[] = [];
    for (const tree of trees()) {
      for (const menu of MENU_SCHEMAS) {
        if (menu.hardware) continue;
        const at = `${tree.version} ${menu.path}`;
        const claimed = inRange(tree.release, menu.releases);
        const present = menu.path in tree.menus;
        // A menu that changed shape (settings, then a list) has one declaration per shape.
        const other = MENU_SCHEMAS.some((o) =>
          o !== menu && o.path === menu.path && inRange(tree.release, o.releases)
        );
        if (!claimed && other) continue;
        if (claimed !== present) {
          problems.push(`${at}: menu ${present ? "exists" : "is absent"} but the schema says not`);
          continue;
        }
        if (!present) continue;
        const commands = tree.menus[menu.path].c ?? {};
        const exports = menu.exports !== false && inRange(tree.release, menu.exports);
        if (("export" in commands) !== exports) {
          problems.push(`${at}: export ${"export" in commands ? "exists" : "is absent"}`);
        }
        for (const w of WRITES) {
          if ((w in commands) !== hasWrite(menu, w, tree.release)) {
            problems.push(`${at}: write ${w} ${w in commands ? "exists" : "is absent"}`);
          }
        }
        const settable = new Set([
          ...(argsOf(tree, menu.path, "set") ?? []),
          ...(argsOf(tree, menu.path, "add") ?? []),
        ]);
        const printed = tree.menus[menu.path].p?.split(" ");
        for (const [name, field] of Object.entries(menu.fields)) {
          if (field.hardware) continue;
          const on = inRange(tree.release, field.releases);
          if (field.writable) {
            if (on !== settable.has(name)) {
              problems.push(
                `${at}: property ${name} ${settable.has(name) ? "exists" : "is absent"} (claimed ${
                  on ? "present" : "absent"
                })`,
              );
            }
          } else if (on && printed && !printed.includes(name)) {
            problems.push(`${at}: read-only ${name} is not among the printed properties`);
          }
          if (field.kind !== "enum" || !on || !field.writable) continue;
          const list = valuesOf(tree, menu.path, "set", name) ??
            valuesOf(tree, menu.path, "add", name);
          if (!list) continue;
          const ours = (field.values ?? [])
            .filter((v) => typeof v === "string" || inRange(tree.release, v[1]))
            .map((v) => (typeof v === "string" ? v : v[0]));
          const missing = list.values.filter((v) => !ours.includes(v));
          const extra = list.complete ? ours.filter((v) => !list.values.includes(v)) : [];
          if (missing.length || extra.length) {
            problems.push(
              `${at}: ${name} values: missing ${missing.join(",") || "-"}, not on this release ${
                extra.join(",") || "-"
              }`,
            );
          }
        }
      }
    }
    assert.deepEqual(problems, []);
  },
});
