/**
 * The read tools of the engine (`router_list_*`, `router_get_*`) and what
 * the write tools (`writes.ts`) share with them: the release checks of a
 * menu and a write, item references (`id` or the menu's key), the lazily
 * built zod objects and the typed results. Names, titles and descriptions
 * follow `naming.ts`. Reads are scripts of the RouterOS layer.
 *
 * @module
 */
import * as z from "zod";
import type { Dialect } from "../../routeros/dialect.ts";
import {
  ArgumentError,
  RouterOsError,
  unparsable,
  UnsupportedError,
} from "../../routeros/errors.ts";
import { describeRange, type Release } from "../../routeros/release.ts";
import { type Condition, type ItemRef, refCondition } from "../../routeros/command.ts";
import {
  hasWrite,
  menuOnRelease,
  type MenuSchema,
  type MenuWrite,
  readSpecOf,
  rosName,
} from "../../routeros/schema/menu.ts";
import type { Field } from "../../routeros/schema/field.ts";
import type { ScriptText } from "../../routeros/export_secrets.ts";
import { checkOnRelease } from "../../routeros/schema/validate.ts";
import { renderTable } from "../render.ts";
import { READ, type ToolContext, type ToolDef, type ToolResult } from "../tool.ts";
import { inputType, itemFieldsOf, outputType, toItem } from "./fields.ts";
import { argName, describeRef, notes, titleOf, toolNameOf, words } from "./naming.ts";
import type { MenuTools } from "./spec.ts";

const ID_PATTERN = /^\*[0-9A-F]{1,8}$/;
const ID_FORM = "must be a RouterOS item id such as *1A (from a list tool)";

/** Item ids look like `*1A`. */
export const ID_SCHEMA = z.string().regex(ID_PATTERN, ID_FORM);

const keyedIds = new Map<string, z.ZodString>();

/**
 * The id of a menu whose items also have a name: the same check, and an
 * error that points at the name argument (`id: "ssh"` on `/ip/service`).
 */
function keyedIdSchema(keyArg: string): z.ZodString {
  let schema = keyedIds.get(keyArg);
  if (!schema) {
    schema = z.string().regex(ID_PATTERN, `${ID_FORM}; to name the item, use ${keyArg}`);
    keyedIds.set(keyArg, schema);
  }
  return schema;
}

/**
 * The router's dialect, after checking that its release has the menu: a
 * menu missing from a release is a clear error, not a RouterOS syntax error.
 */
export async function menuDialect(menu: MenuSchema, ctx: ToolContext): Promise<Dialect> {
  const dialect = await ctx.client.dialect();
  if (!menuOnRelease(menu, dialect.release)) {
    throw new UnsupportedError(
      `${words(menu)} is not on RouterOS ${dialect.release.text}: it needs ${
        describeRange(menu.releases!)
      }`,
    );
  }
  return dialect;
}

/**
 * {@linkcode menuDialect}, after also checking that the release takes the
 * write (`/container/envs enable` only from 7.22): a clear error, nothing sent.
 */
export async function writeDialect(
  menu: MenuSchema,
  write: MenuWrite,
  ctx: ToolContext,
): Promise<Dialect> {
  const dialect = await menuDialect(menu, ctx);
  if (!hasWrite(menu, write, dialect.release)) {
    const decl = menu.writes.find((w) => typeof w !== "string" && w[0] === write);
    const range = decl && typeof decl !== "string" ? describeRange(decl[1]) : "another release";
    throw new UnsupportedError(
      `${words(menu)} ${write} is not on RouterOS ${dialect.release.text}: it needs ${range}`,
    );
  }
  return dialect;
}

/**
 * A tool's zod object, built on first use (its `tools/list` entry or its
 * first call) rather than with the catalogue: most tools of a session are
 * never listed or called, and building them all cost most of the start-up.
 * The first build is held weakly: `tools/list` with every toolset turns
 * every tool into a JSON Schema once, and keeping all of their zod objects
 * would hold memory no call needs. A second use (a call) builds it again if
 * it was collected and keeps it for good.
 */
export function lazyObject(make: () => z.ZodObject): () => z.ZodObject {
  let kept: z.ZodObject | undefined;
  let weak: WeakRef<z.ZodObject> | undefined;
  return () => {
    if (kept) return kept;
    const object = weak?.deref() ?? make();
    if (weak) kept = object;
    else weak = new WeakRef(object);
    return object;
  };
}

const itemObjects = new WeakMap<MenuSchema, WeakRef<z.ZodObject>>();

/**
 * The zod object of one item in output, shared by its menu's tools while
 * any of them holds it (held weakly here, like {@linkcode lazyObject}'s).
 */
export function itemObject(menu: MenuSchema): z.ZodObject {
  const hit = itemObjects.get(menu)?.deref();
  if (hit) return hit;
  const shape: Record<string, z.ZodType> = {};
  if (menu.kind === "list") shape.id = z.string();
  for (const [name, field] of Object.entries(menu.fields)) {
    shape[argName(name)] = outputType(field).optional();
  }
  const object = z.object(shape);
  itemObjects.set(menu, new WeakRef(object));
  return object;
}

/** How an item is named in a call: `{ id }` or `{ <key> }`. */
export function refOf(menu: MenuSchema, args: Record<string, unknown>): ItemRef {
  if (typeof args.id === "string") return { id: args.id };
  const key = menu.key ? args[argName(menu.key)] : undefined;
  if (menu.key && typeof key === "string") return { key: menu.key, value: key };
  throw new ArgumentError(
    `give id${menu.key ? ` or ${argName(menu.key)}` : ""} to say which item`,
  );
}

/** The reference on a release (RouterOS 6 names of the key). */
export function refOn(menu: MenuSchema, ref: ItemRef, release: Release): ItemRef {
  if ("id" in ref) return ref;
  const field = menu.fields[ref.key];
  return { key: field ? rosName(field, ref.key, release) : ref.key, value: ref.value };
}

/** The error for an item that is not there. */
export function notFound(spec: MenuTools, ref: ItemRef): RouterOsError {
  return new RouterOsError(
    "not-found",
    `no ${spec.noun.one} with ${describeRef(ref)}`,
    "no such item",
  );
}

/**
 * The item reference input: `id`, and the natural key where the menu has
 * one (then one of the two is required: {@linkcode refRequirement}, said in
 * the key's description, since a flat input schema cannot say it).
 */
export function refInput(spec: MenuTools): Record<string, z.ZodType> {
  const key = spec.schema.key;
  // The id's pattern says its form and the server instructions where it comes from.
  if (!key) return { id: ID_SCHEMA };
  return {
    id: keyedIdSchema(argName(key)).optional(),
    [argName(key)]: z.string().max(4096).optional().describe(
      `Or the item's ${key}; give id or ${argName(key)}`,
    ),
  };
}

/** `requireOneOf` of a tool that takes an item reference. */
export function refRequirement(spec: MenuTools): readonly string[] | undefined {
  return spec.schema.key ? ["id", argName(spec.schema.key)] : undefined;
}

/** The typed items of a read, converted for the release (scripts shown whole when `reveal`). */
export function typedItems(
  menu: MenuSchema,
  release: Release,
  raws: readonly Record<string, unknown>[],
  scripts?: ScriptText,
): Record<string, unknown>[] {
  return raws.map((r) => toItem(menu, release, r as never, scripts));
}

/**
 * `{ items, count }` and a table, rendered when read: a call nested in a
 * fleet query returns only its structured result.
 */
export function itemsResult(spec: MenuTools, items: Record<string, unknown>[]): ToolResult {
  let text: string | undefined;
  return {
    structured: { items, count: items.length },
    get text() {
      return text ??= renderTable(items, ["id", ...spec.columns.map(argName)]);
    },
  };
}

/** `{ item }` and a one-row table, rendered when read (see {@linkcode itemsResult}). */
export function itemResult(spec: MenuTools, item: Record<string, unknown>): ToolResult {
  const cols = spec.schema.kind === "list" ? ["id"] : [];
  let text: string | undefined;
  return {
    structured: { item },
    get text() {
      return text ??= renderTable([item], [...cols, ...spec.columns.map(argName)]);
    },
  };
}

/**
 * Fields usable in a list's `where` (equality). Never a secret, nor a
 * script (which may hold one): a filter on one answers whether a guess is
 * right, whatever the items show.
 */
function filterFields(menu: MenuSchema): [string, Field][] {
  return Object.entries(menu.fields).filter(([, f]) =>
    f.filter && !f.secret && !f.script && f.kind !== "list"
  );
}

export function listTool(spec: MenuTools): ToolDef {
  const menu = spec.schema;
  const input = lazyObject(() => {
    const where: Record<string, z.ZodType> = {};
    for (const [name, field] of filterFields(menu)) {
      where[argName(name)] = inputType(field).optional();
    }
    return z.object({
      where: z.object(where).strict().optional(),
      limit: z.number().int().min(1).max(100_000).optional(),
    }).strict();
  });
  const output = lazyObject(() =>
    z.object({ items: z.array(itemObject(menu)), count: z.number() })
  );
  return {
    name: toolNameOf(spec, "list"),
    title: titleOf(spec, "list"),
    description: `List ${spec.noun.many} (${words(menu)}).${notes(spec, "list")}`,
    toolset: spec.toolset,
    core: spec.core?.includes("list"),
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    annotations: READ,
    perDevice: true,
    async handler(args: { where?: Record<string, unknown>; limit?: number }, ctx) {
      const dialect = await menuDialect(menu, ctx);
      const release = dialect.release;
      const wanted = Object.entries(args.where ?? {}).filter(([, v]) => v !== undefined);
      // Text, enum and yes/no filters narrow the read on the router; numbers
      // compare on this side only (RouterOS does not equate "1500" and 1500).
      const conditions: Condition[] = [];
      if (wanted.length) {
        const given = Object.fromEntries(wanted);
        for (const [tool, field, ros] of itemFieldsOf(menu, release)) {
          const value = given[tool];
          if (value === undefined) continue;
          checkOnRelease(field, tool, value, release);
          if (field.kind !== "int") conditions.push({ key: ros, value: value as string | boolean });
        }
      }
      const raw = await ctx.client.read(readSpecOf(menu, release), conditions);
      let items = typedItems(menu, release, raw, ctx.scriptText);
      if (wanted.length) items = items.filter((item) => wanted.every(([k, v]) => item[k] === v));
      if (args.limit !== undefined) items = items.slice(0, args.limit);
      return itemsResult(spec, items);
    },
  };
}

export function getTool(spec: MenuTools): ToolDef {
  const menu = spec.schema;
  const single = menu.kind === "singleton";
  const input = lazyObject(() => z.object(single ? {} : refInput(spec)).strict());
  const output = lazyObject(() => z.object({ item: itemObject(menu) }));
  return {
    name: toolNameOf(spec, "get"),
    title: titleOf(spec, "get"),
    description:
      (single
        ? `Show the ${spec.noun.one} settings (${words(menu)}).`
        : `Get one ${spec.noun.one} (${words(menu)}) by id${
          menu.key ? ` or ${argName(menu.key)}` : ""
        }.`) + notes(spec, "get"),
    toolset: spec.toolset,
    core: spec.core?.includes("get"),
    get input() {
      return input();
    },
    requireOneOf: single ? undefined : refRequirement(spec),
    get output() {
      return output();
    },
    annotations: READ,
    perDevice: true,
    async handler(args: Record<string, unknown>, ctx) {
      const dialect = await menuDialect(menu, ctx);
      const release = dialect.release;
      const rs = readSpecOf(menu, release);
      if (single) {
        const [raw] = await ctx.client.read(rs);
        return itemResult(spec, toItem(menu, release, raw, ctx.scriptText));
      }
      const ref = refOf(menu, args);
      const raws = await ctx.client.read(rs, [refCondition(refOn(menu, ref, release))]);
      if (raws.length === 0) throw notFound(spec, ref);
      if (raws.length > 1) {
        throw unparsable(JSON.stringify(raws).slice(0, 200), "more than one item matched");
      }
      return itemResult(spec, toItem(menu, release, raws[0], ctx.scriptText));
    },
  };
}
