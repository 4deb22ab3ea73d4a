/**
 * The privileged fields of a menu's write tools, as data the role guard
 * reads (lib/tools/guard/roles.ts): which arguments grant a privilege when
 * set (`privilegedArgs`), and which privileges the item a write acts on
 * holds now, read from the router before the write (`heldPrivileges`).
 *
 * @module
 */
import { refCondition } from "../../routeros/command.ts";
import { fromRaw } from "../../routeros/schema/convert.ts";
import { grantsPrivilege, type Privilege, privilegeOf } from "../../routeros/schema/field.ts";
import { readSpecOf } from "../../routeros/schema/menu.ts";
import type { ToolContext, ToolDef, Verb } from "../tool.ts";
import { itemFieldsOf } from "./fields.ts";
import { argName } from "./naming.ts";
import { menuDialect, refOf, refOn } from "./read_tools.ts";
import type { MenuTools } from "./spec.ts";

type Args = Record<string, unknown>;

/** The tool-side names of the menu's privileged fields, with what each grants and which values. */
export function privilegedArgsOf(spec: MenuTools): Record<string, Privilege> {
  return Object.fromEntries(
    Object.entries(spec.schema.fields).flatMap(([n, f]) => {
      const p = privilegeOf(f);
      return p ? [[argName(n), p]] : [];
    }),
  );
}

/**
 * The `heldPrivileges` of a write verb (none for add, or a menu without
 * privileged fields): the item it names is read, and each privileged field
 * whose value grants its privilege is said. Read errors propagate (the
 * guard refuses); an item not found holds nothing.
 */
export function heldPrivilegesOf(
  spec: MenuTools,
  verb: Exclude<Verb, "list" | "get">,
): ToolDef["heldPrivileges"] {
  if (verb === "add" || !Object.values(spec.schema.fields).some((f) => f.privileged)) {
    return undefined;
  }
  const menu = spec.schema;
  return async (args: Args, ctx: ToolContext): Promise<string[]> => {
    const release = (await menuDialect(menu, ctx)).release;
    const rs = readSpecOf(menu, release);
    const where = menu.kind === "singleton"
      ? []
      : [refCondition(refOn(menu, refOf(menu, args), release))];
    const [raw] = await ctx.client.read(rs, where);
    if (!raw) return [];
    return itemFieldsOf(menu, release).flatMap(([, field, ros]) => {
      const p = privilegeOf(field);
      return p && grantsPrivilege(p, fromRaw(field, raw[ros])) ? [p.grants] : [];
    });
  };
}
