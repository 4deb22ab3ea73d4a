/**
 * Inverse statements for engine-made writes, computed from the state before
 * the change, so a change can be reverted by the router itself.
 *
 * @module
 */
import {
  type CommandValue,
  type Condition,
  menuPath,
  renderArgs,
  renderWhere,
} from "../../routeros/commands.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { checkId } from "../../routeros/quote.ts";
import { rosName, toolName, writableFields } from "../engine.ts";
import { toRaw } from "../fields.ts";
import type { Menu, Verb } from "../menu.ts";

/** Raised when a change cannot be reverted (it is then not applied). */
export class IrreversibleError extends Error {}

/** What an inverse needs to know about the state before an operation. */
export interface Before {
  /** The item as it was (raw RouterOS values), for every verb but add. */
  item?: RawItem;
  /** Id of the item that followed it in its list (ordered menus). */
  nextId?: string;
}

function rawValue(value: RawItem[string]): CommandValue {
  if (Array.isArray(value)) return value.join(",");
  return value;
}

/** Conditions that find the item an `add` created, from its given properties. */
function addedItemConditions(menu: Menu, dialect: Dialect, args: Record<string, unknown>) {
  const conditions: Condition[] = [];
  for (const [name, field] of writableFields(menu)) {
    const v = args[toolName(name)];
    if (v === undefined || field.secret) continue;
    conditions.push({ key: rosName(menu, name, dialect), value: toRaw(field, v) });
  }
  if (conditions.length === 0) {
    throw new IrreversibleError(`an add to ${menu.path} with no properties cannot be found again`);
  }
  return conditions;
}

/**
 * The statement that undoes one operation. For an add, pass the new item's
 * id once known; before that, the inverse finds the item by its properties.
 */
export function inverseStatement(
  menu: Menu,
  verb: Verb,
  dialect: Dialect,
  args: Record<string, unknown>,
  before: Before,
  newId?: string,
): string {
  const path = menuPath(menu.path);
  if (verb === "add") {
    return newId
      ? `${path} remove numbers=${checkId(newId)}`
      : `${path} remove [find${renderWhere(addedItemConditions(menu, dialect, args))}]`;
  }
  if (menu.singleton) {
    if (verb !== "update") throw new IrreversibleError(`${verb} on ${menu.path} is not reversible`);
    return `${path} set ${renderArgs(restoredProps(menu, dialect, args, before.item ?? {}))}`;
  }
  const item = before.item;
  if (!item) throw new IrreversibleError(`the item to change in ${menu.path} was not found`);
  const id = checkId(String(item[".id"]));
  switch (verb) {
    case "enable":
      return `${path} disable numbers=${id}`;
    case "disable":
      return `${path} enable numbers=${id}`;
    case "update":
      return `${path} set numbers=${id} ${renderArgs(restoredProps(menu, dialect, args, item))}`;
    case "move":
      return `${path} move numbers=${id}${
        before.nextId ? ` destination=${checkId(before.nextId)}` : ""
      }`;
    case "remove": {
      const props: Record<string, CommandValue> = {};
      for (const [name, field] of writableFields(menu)) {
        const key = rosName(menu, name, dialect);
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
      const place = before.nextId && menu.verbs.includes("move")
        ? ` place-before=${checkId(before.nextId)}`
        : "";
      return `${path} add ${renderArgs(props)}${place}`;
    }
    default:
      throw new IrreversibleError(`${verb} is not reversible`);
  }
}

/** The old values of the properties an update changes. */
function restoredProps(
  menu: Menu,
  dialect: Dialect,
  args: Record<string, unknown>,
  item: RawItem,
): Record<string, CommandValue> {
  const props: Record<string, CommandValue> = {};
  for (const [name, field] of writableFields(menu)) {
    const given = name === menu.key ? args[`new_${toolName(name)}`] : args[toolName(name)];
    if (given === undefined) continue;
    if (field.secret) {
      throw new IrreversibleError(
        `changing ${name} in ${menu.path} cannot be reverted: RouterOS does not show the old value`,
      );
    }
    const key = rosName(menu, name, dialect);
    const old = item[key];
    props[key] = old === undefined ? (field.kind === "boolean" ? false : "") : rawValue(old);
  }
  return props;
}
