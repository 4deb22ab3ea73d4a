/**
 * Schema fields as tool arguments and results: zod types that validate
 * values locally, and items converted from raw router values (keys named
 * by `naming.ts`'s `argName`) with secrets masked (and the passwords in
 * scripts the router runs).
 *
 * @module
 */
import * as z from "zod";
import type { CommandValue } from "../../routeros/command.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import type { Release } from "../../routeros/release.ts";
import { fromRaw, type Value } from "../../routeros/schema/convert.ts";
import { enumValues, type Field } from "../../routeros/schema/field.ts";
import { type FieldOn, fieldsOn, type MenuSchema } from "../../routeros/schema/menu.ts";
import { validateValue } from "../../routeros/schema/validate.ts";
import { ArgumentError } from "../../routeros/errors.ts";
import { SECRET_MASK } from "../../secret_mask.ts";
import { type ScriptText, shownScript } from "../../routeros/export_secrets.ts";
import { argName } from "./naming.ts";

/** Largest free-text value accepted (4 KiB). */
export const MAX_TEXT = 4096;
/** Largest list accepted. */
export const MAX_LIST = 1000;

const TOO_LONG = `must be at most ${MAX_TEXT} characters`;
const TOO_MANY = `must have at most ${MAX_LIST} entries`;

/**
 * Each field's input type, shared by the tools of its menu while one of them
 * holds it: held weakly, like the tools' own zod objects (`lazyObject`), so
 * that listing every tool does not keep a zod type for every field of every
 * menu (fields live as long as the catalogue).
 */
const cache = new WeakMap<Field, WeakRef<z.ZodType>>();

/** The zod type of a field's value in tool input, checking the value locally. */
export function inputType(field: Field): z.ZodType {
  const hit = cache.get(field)?.deref();
  if (hit) return hit;
  let t: z.ZodType;
  switch (field.kind) {
    case "bool":
      t = z.boolean();
      break;
    case "int": {
      let n = z.number().int();
      if (field.min !== undefined) n = n.min(field.min);
      if (field.max !== undefined) n = n.max(field.max);
      t = n;
      break;
    }
    case "enum":
      t = z.enum(enumValues(field) as [string, ...string[]]);
      break;
    case "list":
      t = z.array(z.string().max(MAX_TEXT, TOO_LONG)).max(MAX_LIST, TOO_MANY).superRefine(
        check(field),
      );
      break;
    default:
      t = z.string().max(MAX_TEXT, TOO_LONG).superRefine(check(field));
  }
  cache.set(field, new WeakRef(t));
  return t;
}

/** A zod refinement that runs the field's local validation. */
function check(field: Field) {
  if (field.kind === "text" || (field.kind === "list" && (field.item ?? "text") === "text")) {
    return () => {};
  }
  return (value: unknown, ctx: z.RefinementCtx) => {
    try {
      validateValue(field, undefined, value);
    } catch (err) {
      if (!(err instanceof ArgumentError)) throw err;
      ctx.addIssue({ code: "custom", message: err.message });
    }
  };
}

/** The zod type of a field's value in tool output (no description: the input carries it). */
export function outputType(field: Field): z.ZodType {
  switch (field.kind) {
    case "bool":
      return z.boolean();
    case "int":
      return z.number();
    case "list":
      return z.array(z.string());
    default:
      return z.string();
  }
}

/** The RouterOS value of a tool argument. */
export function toRaw(field: Field, value: unknown): CommandValue {
  if (field.kind === "list") return (value as string[]).join(",");
  return value as CommandValue;
}

/** Shown instead of a secret that is set. */
export const MASK = SECRET_MASK;

/**
 * Convert a raw item to the typed item tools return (tool-side names). A
 * write-only secret shows only whether it is set; a script the router runs
 * shows as `scripts` says (a read passes its caller's `ctx.scriptText`;
 * anything else, a write's result, shows none).
 */
export function toItem(
  menu: MenuSchema,
  release: Release,
  raw: RawItem,
  scripts: ScriptText = "withheld",
): Record<string, Value> {
  const item: Record<string, Value> = {};
  if (menu.kind === "list") item.id = String(raw[".id"] ?? "");
  for (const [tool, field, ros] of itemFieldsOf(menu, release)) {
    const value = fromRaw(field, raw[ros]);
    if (value === undefined) continue;
    item[tool] = field.secret && value !== ""
      ? MASK
      : field.script && typeof value === "string"
      ? shownScript(value, scripts)
      : value;
  }
  return item;
}

/** A field of an item: its tool-side name, the field, its RouterOS name on the release. */
export type ItemField = readonly [tool: string, field: Field, ros: string];

/** A menu's fields on a release with their tool-side names, made once per menu and release. */
const itemFields = new WeakMap<readonly FieldOn[], readonly ItemField[]>();

export function itemFieldsOf(menu: MenuSchema, release: Release): readonly ItemField[] {
  const on = fieldsOn(menu, release);
  let fields = itemFields.get(on);
  if (!fields) {
    fields = Object.freeze(on.map(([name, field, ros]) => [argName(name), field, ros] as const));
    itemFields.set(on, fields);
  }
  return fields;
}
