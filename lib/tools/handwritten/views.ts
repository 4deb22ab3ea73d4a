/**
 * Shared pieces of the hand-written tools: read-only views of menus (typed
 * items without CRUD tools), annotations, and dry-run results.
 *
 * @module
 */
import * as z from "zod";
import { type ReadSpec, type RouterOsClient, SECTION_MARK } from "../../routeros/client.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { RouterOsError } from "../../routeros/errors.ts";
import type { RawItem } from "../../routeros/parse_json.ts";
import { type Filter, printStatement } from "../../routeros/scripts.ts";
import { itemShape, toItem } from "../engine.ts";
import type { Field } from "../fields.ts";
import type { Menu } from "../menu.ts";
import { type Annotations, type DryRunResult, type Toolset, WRITE } from "../tool.ts";

/** A read-only view of a menu: its typed fields, no generated tools. */
export function view(
  path: string,
  toolset: Toolset,
  noun: string,
  fields: Record<string, Field>,
  options: Partial<Pick<Menu, "flags" | "singleton" | "columns">> = {},
): Menu {
  return {
    path,
    toolset,
    singular: "",
    plural: "",
    noun,
    fields,
    verbs: [],
    columns: options.columns ?? Object.keys(fields).slice(0, 6),
    flags: options.flags,
    singleton: options.singleton,
  };
}

/** How the client reads a view (property names for the terse parser). */
export function viewSpec(menu: Menu): ReadSpec {
  return {
    path: menu.path,
    keys: [...Object.keys(menu.fields), ...Object.values(menu.v6Names ?? {})],
    flags: menu.flags,
    singleton: menu.singleton,
  };
}

/** The zod object of one typed item of a view. */
export function itemSchema(menu: Menu): z.ZodObject {
  return z.object(itemShape(menu));
}

/** Convert raw items to typed items (secrets masked). */
export function typed(menu: Menu, dialect: Dialect, raws: RawItem[]): Record<string, unknown>[] {
  return raws.map((r) => toItem(menu, dialect, r));
}

/** Read a view's items with filters (equality or literal regex matches). */
export async function readView(
  client: RouterOsClient,
  menu: Menu,
  filters: readonly Filter[] = [],
): Promise<Record<string, unknown>[]> {
  const dialect = await client.dialect();
  const command = printStatement(dialect, menu.path, { filters, singleton: menu.singleton });
  const output = await client.run(command, menu.path, true);
  return typed(menu, dialect, client.parseRead(dialect, viewSpec(menu), output));
}

/**
 * Read a view's items, taking "no such item" (an unknown id in `from=`) as
 * no items: dry runs report a missing item as a problem, not a failure.
 */
export async function readViewOrNone(
  client: RouterOsClient,
  menu: Menu,
  filters: readonly Filter[] = [],
): Promise<Record<string, unknown>[]> {
  try {
    return await readView(client, menu, filters);
  } catch (err) {
    if (err instanceof RouterOsError && err.kind === "not-found") return [];
    throw err;
  }
}

/** A read statement of a view, with a section mark on terse dialects. */
export function viewSection(dialect: Dialect, menu: Menu, filters: readonly Filter[]): string {
  const read = printStatement(dialect, menu.path, { filters, singleton: menu.singleton });
  return dialect.json ? read : `${read}; :put "${SECTION}"`;
}

/** Section mark (the same one the client's `write` splits on). */
export const SECTION = SECTION_MARK;

export { WRITE };

/** Annotations of a destructive write. */
export const DESTRUCTIVE: Annotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Annotations of a read that reaches beyond the router (ping, DNS). */
export const PROBE: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};

/** A dry-run result. */
export function planned(
  commands: string[],
  preview: Record<string, unknown> = {},
  problems: string[] = [],
): DryRunResult {
  return { commands, preview, problems };
}

/** Item ids look like `*1A`. */
export const ID = z.string().regex(
  /^\*[0-9A-F]{1,8}$/,
  "must be a RouterOS item id such as *1A (from a list tool)",
);
