/**
 * The privileged fields of a menu's write tools, as data the role guard
 * reads (lib/tools/guard/roles.ts): which arguments grant a privilege when
 * set (`privilegedArgs`), which privileges the item a write acts on holds
 * now (`heldPrivileges`), and which an argument grants through other items
 * (`grantsThrough`: a privilege by reference), both read from the router
 * before the write; and what a privileged field's description says of who
 * may set it.
 *
 * @module
 */
import type { Release } from "../../routeros/release.ts";
import { refCondition } from "../../routeros/command.ts";
import { fromRaw } from "../../routeros/schema/convert.ts";
import {
  type Field,
  grantsPrivilege,
  type Privilege,
  privilegeOf,
  type PrivilegeThrough,
} from "../../routeros/schema/field.ts";
import {
  itemsAreInterfaces,
  menuOnRelease,
  type MenuSchema,
  readSpecOf,
  rosName,
} from "../../routeros/schema/menu.ts";
import { MENU_SCHEMAS, menuAt } from "../../routeros/schema/registry.ts";
import type { ToolContext, ToolDef, Verb } from "../tool.ts";
import { itemFieldsOf } from "./fields.ts";
import { argName, fieldDoc } from "./naming.ts";
import { menuDialect, refOf, refOn } from "./read_tools.ts";
import type { MenuTools } from "./spec.ts";

type Args = Record<string, unknown>;
type Raw = Record<string, unknown>;

/** The tool-side names of the menu's privileged fields, with what each grants and which values. */
export function privilegedArgsOf(spec: MenuTools): Record<string, Privilege> {
  return Object.fromEntries(
    Object.entries(spec.schema.fields).flatMap(([n, f]) => {
      const p = privilegeOf(f);
      return p ? [[argName(n), p]] : [];
    }),
  );
}

/** A field's description in write input; a privileged one's says who may set it. */
export function writeDoc(spec: MenuTools, field: Field): string {
  const through = field.privilegedThrough;
  if (through && spec.writeRole !== "admin") {
    return `${fieldDoc(field)}; ${
      through.items === "named" ? "naming" : "turning it on while there is"
    } a ${through.path} item with privileged ${through.field} needs the admin role`;
  }
  if (!field.privileged || spec.writeRole === "admin") return fieldDoc(field);
  const set = field.privilegedValues
    ? field.privilegedValues.join(" or ")
    : field.kind === "bool"
    ? "turning it on"
    : "setting it";
  return `${fieldDoc(field)}; ${set} needs the admin role, as does changing an item that has it`;
}

/** Whether an item of `menu` can hold a privilege (a privileged field, or a reference to one). */
function holdsAny(menu: MenuSchema): boolean {
  return Object.values(menu.fields).some((f) =>
    f.privileged || f.privilegedThrough?.items === "named"
  );
}

/**
 * The `heldPrivileges` of a write verb (none for add, or a menu whose items
 * hold none): the item it names is read, and each privileged field whose
 * value grants its privilege is said, and each reference to an item that
 * holds one (a User Manager user's `group`). Read errors propagate (the
 * guard refuses); an item not found holds nothing.
 */
export function heldPrivilegesOf(
  spec: MenuTools,
  verb: Exclude<Verb, "list" | "get">,
): ToolDef["heldPrivileges"] {
  const menu = spec.schema;
  const aliased = aliasedMenus(menu);
  if (verb === "add" || (!holdsAny(menu) && !aliased.length)) return undefined;
  return async (args: Args, ctx: ToolContext): Promise<string[]> => {
    const release = (await menuDialect(menu, ctx)).release;
    const rs = readSpecOf(menu, release);
    const where = menu.kind === "singleton"
      ? []
      : [refCondition(refOn(menu, refOf(menu, args), release))];
    const [raw] = await ctx.client.read(rs, where);
    if (!raw) return [];
    const held = await heldBy(menu, release, raw, ctx);
    // The same item through its own menu: a VRRP interface changed as an interface.
    const own = aliased.find((m) => typeOf(m) === raw.type && menuOnRelease(m, release));
    if (!own || typeof raw.name !== "string") return held;
    const [item] = await ctx.client.read(readSpecOf(own, release), [{
      key: "name",
      value: raw.name,
    }]);
    const through = item ? await heldBy(own, release, item, ctx) : [];
    return [...held, ...through.map((g) => `${g} (as ${own.path} "${raw.name}")`)];
  };
}

/**
 * The menus whose items `menu` also lists and writes, and that can hold a
 * privilege: for `/interface` (every interface, by its `type`), each menu
 * of interfaces with a privileged field (`/interface/vrrp`'s scripts), so
 * that enabling or renaming an item as an interface is checked as its own
 * menu would check it.
 */
function aliasedMenus(menu: MenuSchema): MenuSchema[] {
  if (menu.path !== "/interface") return [];
  return MENU_SCHEMAS.filter((m) => m !== menu && itemsAreInterfaces(m) && holdsAny(m));
}

/** The `type` `/interface` shows for the items of an interface menu: its last word (`vrrp`). */
function typeOf(menu: MenuSchema): string {
  return menu.path.split("/").at(-1)!;
}

/** What item `raw` of `menu` holds: its privileged fields' grants, and those it references. */
async function heldBy(
  menu: MenuSchema,
  release: Release,
  raw: Raw,
  ctx: ToolContext,
): Promise<string[]> {
  const held: string[] = [];
  for (const [name, field, ros] of itemFieldsOf(menu, release)) {
    const p = privilegeOf(field);
    if (p && grantsPrivilege(p, fromRaw(field, raw[ros]))) held.push(p.grants);
    const through = field.privilegedThrough;
    const value = raw[ros];
    if (through?.items !== "named" || typeof value !== "string" || value === "") continue;
    const grants = await namedGrants(through, value, release, ctx);
    if (grants) held.push(`${grants} (through ${name} "${value}")`);
  }
  return held;
}

/**
 * The `grantsThrough` of an add or update whose menu has a privilege by
 * reference ({@linkcode Field.privilegedThrough}): for each such argument
 * given a value that turns it on, the item it names (or any item of the
 * menu it opens) is read, and what that item holds is said.
 */
export function grantsThroughOf(
  spec: MenuTools,
  verb: Exclude<Verb, "list" | "get">,
): ToolDef["grantsThrough"] {
  const fields = Object.entries(spec.schema.fields).filter(([, f]) =>
    f.writable && f.privilegedThrough
  ) as [string, Field & { privilegedThrough: PrivilegeThrough }][];
  if (!fields.length || (verb !== "add" && verb !== "update")) return undefined;
  return async (args: Args, ctx: ToolContext): Promise<string[]> => {
    const release = (await menuDialect(spec.schema, ctx)).release;
    const said: string[] = [];
    for (const [n, field] of fields) {
      const arg = argName(n);
      const value = args[arg];
      // Empty, off or not given turns nothing on.
      if (!grantsPrivilege({ grants: "" }, value)) continue;
      const through = field.privilegedThrough;
      if (through.items === "named") {
        const grants = await namedGrants(through, String(value), release, ctx);
        if (grants) said.push(`${arg} to "${value}" (${through.path} "${value}" holds ${grants})`);
        continue;
      }
      const holder = await anyHolder(through, release, ctx);
      if (holder) said.push(`${arg} (${through.path} "${holder[0]}" holds ${holder[1]})`);
    }
    return said;
  };
}

/** The privilege held by `through`'s referenced menu and field, as data. */
function referenced(through: PrivilegeThrough, release: Release) {
  const menu = menuAt(through.path, release);
  const field = menu?.fields[through.field];
  const privilege = field && privilegeOf(field);
  if (!menu || !field || !privilege || !menu.key) {
    throw new Error(`${through.path} ${through.field} is no declared privileged field of a list`);
  }
  return { menu, field, privilege, ros: rosName(field, through.field, release) };
}

/** What the item of `through.path` named `value` grants (undefined: nothing, or no such item). */
async function namedGrants(
  through: PrivilegeThrough,
  value: string,
  release: Release,
  ctx: ToolContext,
): Promise<string | undefined> {
  const { menu, field, privilege, ros } = referenced(through, release);
  if (!menuOnRelease(menu, release)) return undefined;
  const key = rosName(menu.fields[menu.key!], menu.key!, release);
  const [item] = await ctx.client.read(readSpecOf(menu, release), [{ key, value }]);
  return item && grantsPrivilege(privilege, fromRaw(field, item[ros]))
    ? privilege.grants
    : undefined;
}

/** The first item of `through.path` that holds its privilege: its key, and what it grants. */
async function anyHolder(
  through: PrivilegeThrough,
  release: Release,
  ctx: ToolContext,
): Promise<[string, string] | undefined> {
  const { menu, field, privilege, ros } = referenced(through, release);
  if (!menuOnRelease(menu, release)) return undefined;
  const key = rosName(menu.fields[menu.key!], menu.key!, release);
  const item = (await ctx.client.read(readSpecOf(menu, release))).find((i) =>
    grantsPrivilege(privilege, fromRaw(field, i[ros]))
  );
  return item ? [String(item[key] ?? item[".id"]), privilege.grants] : undefined;
}
