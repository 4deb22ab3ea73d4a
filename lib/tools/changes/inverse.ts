/**
 * Inverse statements for engine-made writes, computed from the state before
 * the change, so a change can be reverted by the router itself.
 *
 * @module
 */
import { cmd, type CommandValue, type Condition, forEachExcept } from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { hasWrite, type MenuSchema, rosName } from "../../routeros/schema/menu.ts";
import { toRaw } from "../menu_tools/fields.ts";
import { argName } from "../menu_tools/naming.ts";
import type { Verb } from "../tool.ts";

/** Raised when a change cannot be reverted (it is then not applied). */
export class IrreversibleError extends Error {}

/** What an inverse needs to know about the state before an operation. */
export interface Before {
  /** The item as it was (raw RouterOS values), for every verb but add. */
  item?: RawItem;
  /** Id of the item that followed it in its list (ordered menus). */
  nextId?: string;
  /**
   * For an add: the ids of the items its properties found before it
   * ({@linkcode addedItemConditions}), which its undo leaves alone.
   */
  existing?: string[];
}

/**
 * Most items already there with an add's properties that its undo step
 * tells apart by id (one comparison each, in the revert job's script).
 */
export const MAX_EXISTING_MATCHES = 50;

function rawValue(value: RawItem[string]): CommandValue {
  return Array.isArray(value) ? value.join(",") : value;
}

function writable(menu: MenuSchema) {
  return Object.entries(menu.fields).filter(([, f]) => f.writable);
}

/**
 * Conditions that find the item an `add` created, from its given
 * properties. Items already there may match them too: the undo step
 * excludes those by id ({@linkcode Before.existing}).
 */
export function addedItemConditions(
  menu: MenuSchema,
  dialect: Dialect,
  args: Record<string, unknown>,
): Condition[] {
  const conditions: Condition[] = [];
  for (const [name, field] of writable(menu)) {
    const v = args[argName(name)];
    if (v === undefined || field.secret) continue;
    conditions.push({ key: rosName(field, name, dialect.release), value: toRaw(field, v) });
  }
  if (conditions.length === 0) {
    throw new IrreversibleError(`an add to ${menu.path} with no properties cannot be found again`);
  }
  return conditions;
}

/**
 * The statement that undoes one operation. For an add, pass the new item's
 * id once known; before that, the inverse finds the item by its properties
 * and removes what it finds but the items that had them before the add
 * (`before.existing`): an add whose outcome is unknown, rolled back, or a
 * revert job that fires before the new id is known, removes only what the
 * change made, never a rule that was there (the defconf input rules share
 * `chain=input action=accept`).
 */
export function inverseStatement(
  menu: MenuSchema,
  verb: Verb,
  dialect: Dialect,
  args: Record<string, unknown>,
  before: Before,
  newId?: string,
): string {
  if (verb === "add") {
    if (newId) return cmd(menu.path, "remove", { numbers: { id: newId } });
    const existing = before.existing ?? [];
    if (existing.length > MAX_EXISTING_MATCHES) {
      throw new IrreversibleError(
        `an add to ${menu.path} cannot be told apart from the ${existing.length} items that ` +
          "already have its properties (its revert would compare each): give it a property " +
          "that sets it apart (a comment)",
      );
    }
    return forEachExcept(menu.path, "remove", addedItemConditions(menu, dialect, args), existing);
  }
  if (menu.kind === "singleton") {
    if (verb !== "update") throw new IrreversibleError(`${verb} on ${menu.path} is not reversible`);
    return cmd(menu.path, "set", { args: restoredProps(menu, dialect, args, before.item ?? {}) });
  }
  const item = before.item;
  if (!item) throw new IrreversibleError(`the item to change in ${menu.path} was not found`);
  const id = String(item[".id"]);
  switch (verb) {
    case "enable":
      return cmd(menu.path, "disable", { numbers: { id } });
    case "disable":
      return cmd(menu.path, "enable", { numbers: { id } });
    case "update":
      return cmd(menu.path, "set", {
        numbers: { id },
        args: restoredProps(menu, dialect, args, item),
      });
    case "move":
      return cmd(menu.path, "move", { numbers: { id }, ids: { destination: before.nextId } });
    case "remove": {
      const props: Record<string, CommandValue> = {};
      for (const [name, field] of writable(menu)) {
        const key = rosName(field, name, dialect.release);
        const value = item[key];
        if (field.secret && (value === undefined || value === "")) {
          throw new IrreversibleError(
            `removing from ${menu.path} cannot be reverted: RouterOS does not show the old ${name}`,
          );
        }
        if (value !== undefined && value !== "") props[key] = rawValue(value);
      }
      if (item.disabled === true || item.disabled === "true" || item.disabled === "yes") {
        props.disabled = true;
      }
      return cmd(menu.path, "add", {
        args: props,
        ids: {
          "place-before": before.nextId && hasWrite(menu, "move") ? before.nextId : undefined,
        },
      });
    }
    default:
      throw new IrreversibleError(`${verb} is not reversible`);
  }
}

/** The old values of the properties an update changes. */
function restoredProps(
  menu: MenuSchema,
  dialect: Dialect,
  args: Record<string, unknown>,
  item: RawItem,
): Record<string, CommandValue> {
  const props: Record<string, CommandValue> = {};
  for (const [name, field] of writable(menu)) {
    const given = name === menu.key ? args[`new_${argName(name)}`] : args[argName(name)];
    if (given === undefined) continue;
    if (field.secret) {
      throw new IrreversibleError(
        `changing ${name} in ${menu.path} cannot be reverted: RouterOS does not show the old value`,
      );
    }
    const key = rosName(field, name, dialect.release);
    const old = item[key];
    props[key] = old === undefined ? (field.kind === "bool" ? false : "") : rawValue(old);
  }
  return props;
}
