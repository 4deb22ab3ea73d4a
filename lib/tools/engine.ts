/**
 * The tool engine: turns a {@linkcode Menu} declaration into MCP tools
 * (`router_list_*`, `router_get_*`, `router_add_*`, `router_update_*`,
 * `router_remove_*`, `router_enable_*`, `router_disable_*`, `router_move_*`).
 *
 * @module
 */
import * as z from "zod";
import { SECTION_MARK } from "../routeros/client.ts";
import {
  type CommandValue,
  type Condition,
  itemRef,
  menuPath,
  readStatement,
  refCondition,
  renderArgs,
} from "../routeros/commands.ts";
import type { Dialect } from "../routeros/dialect.ts";
import { RouterOsError } from "../routeros/errors.ts";
import type { RawItem } from "../routeros/parse_json.ts";
import { checkId } from "../routeros/quote.ts";
import { printByVariable } from "../routeros/scripts.ts";
import { type Field, fromRaw, inputType, MASK, outputType, toRaw } from "./fields.ts";
import { describeVersions, type Menu, onVersion, type Verb } from "./menu.ts";
import { renderTable } from "./render.ts";
import { READ, type ToolContext, type ToolDef, type ToolResult } from "./tool.ts";

/**
 * Tool-side name of a RouterOS property: `actual-interface` →
 * `actual_interface`, `configuration.ssid` → `configuration_ssid`.
 */
export const toolName = (ros: string): string => ros.replace(/[-.]/g, "_");

/** Argument names the engine's tools use for themselves. */
const RESERVED = new Set(["id", "limit", "destination", "device"]);

/**
 * Refuse a menu whose declaration would make ambiguous tools: two properties
 * with one tool name, or a property named like an engine argument.
 */
export function checkMenu(menu: Menu): void {
  const seen = new Map<string, string>();
  const fail = (why: string) => {
    throw new Error(`menu ${menu.path}: ${why}`);
  };
  for (const [name, field] of Object.entries(menu.fields)) {
    const tool = toolName(name);
    if (seen.has(tool)) fail(`${name} and ${seen.get(tool)} both become ${tool}`);
    seen.set(tool, name);
    // `limit` is an argument of list tools only; the others of every tool.
    if (tool === "limit" ? field.filter : RESERVED.has(tool) && (field.filter || field.writable)) {
      fail(`${name} clashes with the ${tool} argument of the generated tools`);
    }
    if (field.required && !field.writable) fail(`${name} is required but read-only`);
  }
  if (menu.key) {
    const key = menu.fields[menu.key];
    if (!key) fail(`key ${menu.key} is not a field`);
    if (seen.has(`new_${toolName(menu.key)}`)) fail(`a field clashes with new_${menu.key}`);
  }
  if (menu.singleton && menu.verbs.some((v) => v !== "get" && v !== "update")) {
    fail("a singleton menu has only get and update");
  }
  for (const verb of ["enable", "disable"] as const) {
    if (menu.verbs.includes(verb) && !menu.fields.disabled) {
      fail(`${verb} needs a disabled field`);
    }
  }
}

/** Item ids look like `*1A`. */
const ID_SCHEMA = z.string().regex(
  /^\*[0-9A-F]{1,8}$/,
  "must be a RouterOS item id such as *1A (from a list tool)",
).describe(
  "RouterOS item id (`.id`), such as *1A, from a list or get tool",
);

/** The RouterOS name of a field on this dialect. */
export function rosName(menu: Menu, field: string, dialect: Dialect): string {
  return dialect.major < 7 ? menu.v6Names?.[field] ?? field : field;
}

/** The fields of a menu that exist on this dialect. */
function fieldsOn(menu: Menu, dialect: Dialect): [string, Field][] {
  return Object.entries(menu.fields).filter(([, f]) => onVersion(f.versions, dialect));
}

/** A field's description for schemas, with the versions that have it. */
function fieldDoc(field: Field): string {
  return field.versions
    ? `${field.description} (${describeVersions(field.versions)})`
    : field.description;
}

/**
 * The router's dialect, after checking that its version has the menu: a
 * menu missing from a version is a clear error, not a RouterOS syntax error.
 */
async function menuDialect(menu: Menu, client: ToolContext["client"]): Promise<Dialect> {
  const dialect = await client.dialect();
  if (!onVersion(menu.versions, dialect)) {
    throw new RouterOsError(
      "bad-command",
      `${words(menu)} is not on RouterOS ${dialect.version}: it needs ${
        describeVersions(menu.versions!)
      }`,
      "",
    );
  }
  return dialect;
}

/** The zod shape of one item in output. */
export function itemShape(menu: Menu): Record<string, z.ZodType> {
  return itemObject(menu).shape;
}

/** One item's output object, built once per menu (zod schemas are costly to build). */
const itemObjects = new WeakMap<Menu, z.ZodObject>();

/** The zod object of one item in output, shared by every tool of the menu. */
export function itemObject(menu: Menu): z.ZodObject {
  const cached = itemObjects.get(menu);
  if (cached) return cached;
  const shape: Record<string, z.ZodType> = {};
  if (!menu.singleton) shape.id = z.string().describe("RouterOS item id (.id)");
  for (const [name, field] of Object.entries(menu.fields)) {
    shape[toolName(name)] = outputType(field).optional().describe(fieldDoc(field));
  }
  const object = z.object(shape);
  itemObjects.set(menu, object);
  return object;
}

/** Convert a raw item to the typed item tools return. */
export function toItem(menu: Menu, dialect: Dialect, raw: RawItem): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  if (!menu.singleton) item.id = String(raw[".id"] ?? "");
  for (const [name, field] of fieldsOn(menu, dialect)) {
    const value = fromRaw(field, raw[rosName(menu, name, dialect)]);
    if (value !== undefined) item[toolName(name)] = value;
  }
  return item;
}

export function readSpec(menu: Menu, dialect: Dialect) {
  return {
    path: menu.path,
    keys: fieldsOn(menu, dialect).map(([f]) => rosName(menu, f, dialect)),
    flags: menu.flags,
    singleton: menu.singleton,
  };
}

function words(menu: Menu): string {
  return menu.path.split("/").filter(Boolean).join(" ");
}

/** The menu's notes and version availability, for descriptions. */
function notes(menu: Menu): string {
  const parts = [];
  if (menu.notes) parts.push(menu.notes);
  if (menu.versions) parts.push(`Only on ${describeVersions(menu.versions)}.`);
  return parts.length ? " " + parts.join(" ") : "";
}

const verbName: Record<Verb, (m: Menu) => string> = {
  list: (m) => `router_list_${m.plural}`,
  get: (m) => `router_get_${m.singular}`,
  add: (m) => `router_add_${m.singular}`,
  update: (m) => `router_update_${m.singular}`,
  remove: (m) => `router_remove_${m.singular}`,
  enable: (m) => `router_enable_${m.singular}`,
  disable: (m) => `router_disable_${m.singular}`,
  move: (m) => `router_move_${m.singular}`,
};

/** Generate every tool a menu declares. */
export function menuTools(menu: Menu): ToolDef[] {
  checkMenu(menu);
  return menu.verbs.map((verb) => VERBS[verb](menu));
}

type Build = (menu: Menu) => ToolDef;

function refInput(menu: Menu): Record<string, z.ZodType> {
  const input: Record<string, z.ZodType> = { id: ID_SCHEMA.optional() };
  if (menu.key) {
    input[toolName(menu.key)] = z.string().max(4096).optional().describe(
      `${
        menu.fields[menu.key]?.description ?? menu.key
      } (identifies the item when id is not given)`,
    );
  }
  return input;
}

/** Resolve `{id}` or `{<key>}` from tool args to an item reference. */
export function refOf(menu: Menu, args: Record<string, unknown>) {
  if (typeof args.id === "string") return { id: checkId(args.id) };
  const keyValue = menu.key ? args[toolName(menu.key)] : undefined;
  if (menu.key && typeof keyValue === "string") {
    return { key: { key: menu.key, value: keyValue } };
  }
  throw new RouterOsError(
    "invalid-value",
    `give id${menu.key ? ` or ${toolName(menu.key)}` : ""} to say which ${menu.noun} item`,
    "",
  );
}

function describeRef(ref: { id?: string; key?: Condition }): string {
  return ref.id ?? `${ref.key?.key}=${JSON.stringify(ref.key?.value)}`;
}

export function writableFields(menu: Menu): [string, Field][] {
  return Object.entries(menu.fields).filter(([, f]) => f.writable);
}

/** The props of a write, converted and renamed for the dialect. */
function writeProps(
  menu: Menu,
  dialect: Dialect,
  args: Record<string, unknown>,
): Record<string, CommandValue> {
  const props: Record<string, CommandValue> = {};
  for (const [name, field] of writableFields(menu)) {
    const value = args[toolName(name)];
    if (value === undefined) continue;
    if (!onVersion(field.versions, dialect)) {
      throw new RouterOsError(
        "invalid-value",
        `${toolName(name)} is not a property of ${words(menu)} on RouterOS ${dialect.version} ` +
          `(it needs ${describeVersions(field.versions!)}); leave it out`,
        "",
      );
    }
    props[rosName(menu, name, dialect)] = toRaw(field, value);
  }
  return props;
}

/** A read statement that also prints a section mark on terse dialects. */
function section(dialect: Dialect, menu: Menu, conditions: Condition[] | string): string {
  const read = typeof conditions === "string"
    ? printByVariable(dialect, menu.path, conditions, readSpec(menu, dialect).keys)
    : readStatement(dialect, menu.path, conditions, menu.singleton, readSpec(menu, dialect).keys);
  return dialect.json ? read : `${read}; :put "${SECTION_MARK}"`;
}

function itemsResult(menu: Menu, items: Record<string, unknown>[]): ToolResult {
  return {
    structured: { items, count: items.length },
    text: renderTable(items, ["id", ...menu.columns.map(toolName)]),
  };
}

function oneResult(menu: Menu, key: string, item: Record<string, unknown>): ToolResult {
  return {
    structured: { [key]: item },
    text: renderTable([item], [...(menu.singleton ? [] : ["id"]), ...menu.columns.map(toolName)]),
  };
}

function notFound(menu: Menu, ref: { id?: string; key?: Condition }): RouterOsError {
  return new RouterOsError("not-found", `no ${menu.noun} item ${describeRef(ref)}`, "no such item");
}

const list: Build = (menu) => {
  const filters: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(menu.fields)) {
    if (field.filter && field.kind !== "list") {
      filters[toolName(name)] = inputType(field).optional().describe(
        `Only items whose ${name} equals this. ${fieldDoc(field)}`,
      );
    }
  }
  filters.limit = z.number().int().min(1).max(100_000).optional().describe(
    "Return at most this many items",
  );
  return {
    name: verbName.list(menu),
    title: `List ${menu.noun}`,
    description: `List ${menu.noun} (${words(menu)}) with every property, as typed records. ` +
      `Filters match exactly; combine them to narrow the list.${notes(menu)}`,
    toolset: menu.toolset,
    input: filters,
    output: {
      items: z.array(itemObject(menu)).describe(`The ${menu.noun}`),
      count: z.number().describe("How many items were returned"),
    },
    annotations: READ,
    perDevice: true,
    async handler(args, { client }) {
      const dialect = await menuDialect(menu, client);
      // Text, enum and yes/no filters narrow the read on the router; numbers
      // compare on this side only (RouterOS does not equate "1500" and 1500).
      const conditions: Condition[] = [];
      for (const [name, field] of fieldsOn(menu, dialect)) {
        const value = args[toolName(name)];
        if (value !== undefined && field.filter && field.kind !== "number") {
          conditions.push({ key: rosName(menu, name, dialect), value: value as CommandValue });
        }
      }
      const raw = await client.read(readSpec(menu, dialect), conditions);
      let items = raw.map((r) => toItem(menu, dialect, r)).filter((item) =>
        Object.entries(menu.fields).every(([name, field]) => {
          // Only filter arguments count: `limit` is also a firewall property.
          const want = field.filter && field.kind !== "list" ? args[toolName(name)] : undefined;
          return want === undefined || item[toolName(name)] === want;
        })
      );
      if (typeof args.limit === "number") items = items.slice(0, args.limit);
      return itemsResult(menu, items);
    },
  };
};

const get: Build = (menu) => ({
  name: verbName.get(menu),
  title: `Get one ${menu.noun.replace(/s$/, "")}`,
  description:
    (menu.singleton
      ? `Show the ${menu.noun} (${words(menu)}).`
      : `Get one of the ${menu.noun} (${words(menu)}) by id${
        menu.key ? ` or ${toolName(menu.key)}` : ""
      }.`) + notes(menu),
  toolset: menu.toolset,
  input: menu.singleton ? {} : refInput(menu),
  output: { item: itemObject(menu) },
  annotations: READ,
  perDevice: true,
  async handler(args, { client }) {
    const dialect = await menuDialect(menu, client);
    const spec = readSpec(menu, dialect);
    if (menu.singleton) {
      const [raw] = await client.read(spec);
      return oneResult(menu, "item", toItem(menu, dialect, raw ?? {}));
    }
    const ref = refOf(menu, args);
    const [raw] = await client.read(spec, [keyCondition(menu, dialect, ref)]);
    if (!raw) throw notFound(menu, ref);
    return oneResult(menu, "item", toItem(menu, dialect, raw));
  },
});

function keyCondition(menu: Menu, dialect: Dialect, ref: { id?: string; key?: Condition }) {
  const c = refCondition(ref);
  return c.key === ".id" ? c : { ...c, key: rosName(menu, c.key, dialect) };
}

export function dialectRef(menu: Menu, dialect: Dialect, ref: { id?: string; key?: Condition }) {
  return ref.key ? { key: keyCondition(menu, dialect, ref) } : ref;
}

/** A write, planned: the exact script and how to read its answer. */
interface WritePlan {
  script: string;
  /** Read-back sections the script prints. */
  sections: number;
  finish(sections: RawItem[][]): ToolResult;
}

/** How a write verb plans its script and previews its outcome. */
interface WriteVerb {
  plan(menu: Menu, dialect: Dialect, args: Record<string, unknown>): WritePlan;
  /** The item as it would look, from the current one (undefined for add). */
  preview(menu: Menu, args: Record<string, unknown>, current?: Record<string, unknown>): Record<
    string,
    unknown
  >;
}

/** A write tool from its verb's planner: handler and dry run share the plan. */
function writeTool(
  menu: Menu,
  verb: Verb,
  verbPlan: WriteVerb,
  meta: Omit<ToolDef, "handler" | "dryRun" | "secretArgs" | "crud" | "perDevice" | "toolset">,
): ToolDef {
  return {
    ...meta,
    toolset: menu.toolset,
    perDevice: true,
    secretArgs: Object.entries(menu.fields).filter(([, f]) => f.secret).map(([n]) => toolName(n)),
    crud: { menu, verb },
    async handler(args, { client }) {
      const dialect = await menuDialect(menu, client);
      const plan = verbPlan.plan(menu, dialect, args);
      const sections = await client.write(
        dialect,
        readSpec(menu, dialect),
        plan.script,
        plan.sections,
      );
      return plan.finish(sections);
    },
    async dryRun(args, { client }) {
      const dialect = await menuDialect(menu, client);
      const plan = verbPlan.plan(menu, dialect, args);
      const problems: string[] = [];
      let current: Record<string, unknown> | undefined;
      if (verb !== "add" && !menu.singleton) {
        const ref = dialectRef(menu, dialect, refOf(menu, args));
        const [raw] = await client.read(readSpec(menu, dialect), [refCondition(ref)]);
        if (raw) current = toItem(menu, dialect, raw);
        else problems.push(notFound(menu, refOf(menu, args)).message);
      } else if (menu.singleton) {
        const [raw] = await client.read(readSpec(menu, dialect));
        current = toItem(menu, dialect, raw ?? {});
      }
      if (verb === "add" || verb === "update") {
        problems.push(...await checkReferences(menu, args, client));
      }
      if (verb === "add" && menu.key) {
        const keyValue = args[toolName(menu.key)];
        if (typeof keyValue === "string") {
          const dup = await client.read(readSpec(menu, dialect), [
            { key: rosName(menu, menu.key, dialect), value: keyValue },
          ]);
          if (dup.length) {
            problems.push(`a ${menu.noun} item with ${menu.key}="${keyValue}" already exists`);
          }
        }
      }
      if (verb === "move") {
        const dest = await client.read(readSpec(menu, dialect), [
          { key: ".id", value: checkId(String(args.destination)) },
        ]);
        if (!dest.length) problems.push(`destination ${String(args.destination)} does not exist`);
      }
      return { commands: [plan.script], preview: verbPlan.preview(menu, args, current), problems };
    },
  };
}

/** Check that fields naming other items (an interface, a pool) name existing ones. */
async function checkReferences(
  menu: Menu,
  args: Record<string, unknown>,
  client: ToolContext["client"],
): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, field] of Object.entries(menu.fields)) {
    const value = args[toolName(name)];
    if (!field.ref || typeof value !== "string" || value === "") continue;
    const found = await client.read(
      { path: field.ref, keys: ["name"] },
      [{ key: "name", value }],
    );
    if (!found.length) problems.push(`${name} "${value}" does not exist in ${field.ref}`);
  }
  return problems;
}

/** The typed values of the tool args that a write would set. */
function givenValues(menu: Menu, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of writableFields(menu)) {
    const v = args[toolName(name)];
    if (v !== undefined) out[toolName(name)] = field.secret ? MASK : v;
  }
  return out;
}

const addVerb: WriteVerb = {
  plan(menu, dialect, args) {
    const script =
      `:local id [${menuPath(menu.path)} add ${renderArgs(writeProps(menu, dialect, args))}]; ` +
      section(dialect, menu, "id");
    return {
      script,
      sections: 1,
      finish([items]) {
        if (items.length !== 1) {
          throw new RouterOsError("unparsable", "the added item could not be read back", "");
        }
        return oneResult(menu, "item", toItem(menu, dialect, items[0]));
      },
    };
  },
  preview: (menu, args) => ({ id: "(new)", ...givenValues(menu, args) }),
};

/** Tool args of an update, with `new_<key>` renamed to the key field. */
function updateValues(menu: Menu, args: Record<string, unknown>): Record<string, unknown> {
  const values = { ...args };
  if (menu.key) {
    const newKey = args[`new_${toolName(menu.key)}`];
    delete values[toolName(menu.key)];
    if (newKey !== undefined) values[toolName(menu.key)] = newKey;
  }
  return values;
}

const updateVerb: WriteVerb = {
  plan(menu, dialect, args) {
    const path = menuPath(menu.path);
    const props = writeProps(menu, dialect, updateValues(menu, args));
    if (Object.keys(props).length === 0) {
      throw new RouterOsError("invalid-value", "nothing to change: give at least one property", "");
    }
    let script: string;
    if (menu.singleton) {
      script = `${section(dialect, menu, [])}; ${path} set ${renderArgs(props)}; ${
        section(dialect, menu, [])
      }`;
    } else {
      const ref = dialectRef(menu, dialect, refOf(menu, args));
      const renamed = menu.key && ref.key && props[rosName(menu, menu.key, dialect)];
      const after = [renamed ? { key: ref.key!.key, value: renamed } : refCondition(ref)];
      script = `${section(dialect, menu, [refCondition(ref)])}; ${path} set ${itemRef(ref)} ${
        renderArgs(props)
      }; ${section(dialect, menu, after)}`;
    }
    return {
      script,
      sections: 2,
      finish([before, now]) {
        if (before.length === 0) throw notFound(menu, refOf(menu, args));
        const b = toItem(menu, dialect, before[0]);
        const a = toItem(menu, dialect, now[0] ?? {});
        return {
          structured: { before: b, after: a },
          text: "before:\n" + renderTable([b], Object.keys(b)) + "\nafter:\n" +
            renderTable([a], Object.keys(a)),
        };
      },
    };
  },
  preview: (menu, args, current) => ({
    ...current,
    ...givenValues(menu, updateValues(menu, args)),
  }),
};

/** A write that acts on one item by reference (remove, enable, disable, move). */
function itemVerb(verb: "remove" | "enable" | "disable" | "move"): WriteVerb {
  return {
    plan(menu, dialect, args) {
      const ref = dialectRef(menu, dialect, refOf(menu, args));
      const cond = [refCondition(ref)];
      const dest = verb === "move" ? ` destination=${checkId(String(args.destination))}` : "";
      const action = `${menuPath(menu.path)} ${verb} numbers=${itemRef(ref)}${dest}`;
      const script = verb === "remove"
        ? `${section(dialect, menu, cond)}; ${action}`
        : `${action}; ${section(dialect, menu, cond)}`;
      return {
        script,
        sections: 1,
        finish([items]) {
          if (items.length === 0) throw notFound(menu, refOf(menu, args));
          return oneResult(menu, "item", toItem(menu, dialect, items[0]));
        },
      };
    },
    preview(_menu, _args, current) {
      if (!current) return {};
      if (verb === "enable") return { ...current, disabled: false };
      if (verb === "disable") return { ...current, disabled: true };
      return current;
    },
  };
}

const add: Build = (menu) => {
  const input: Record<string, z.ZodType> = {};
  for (const [name, field] of writableFields(menu)) {
    const t = inputType(field).describe(fieldDoc(field));
    input[toolName(name)] = field.required ? t : t.optional();
  }
  return writeTool(menu, "add", addVerb, {
    name: verbName.add(menu),
    title: `Add ${menu.noun.replace(/s$/, "")}`,
    description: `Add one of the ${menu.noun} (${words(menu)}) and return it as stored, ` +
      `with its new id.${notes(menu)}`,
    input,
    output: { item: itemObject(menu) },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  });
};

const update: Build = (menu) => {
  const input: Record<string, z.ZodType> = menu.singleton ? {} : refInput(menu);
  for (const [name, field] of writableFields(menu)) {
    const key = toolName(name);
    if (name === menu.key) {
      input[`new_${key}`] = inputType(field).optional().describe(`Rename: the new ${name}`);
    } else input[key] = inputType(field).optional().describe(fieldDoc(field));
  }
  const shape = itemObject(menu);
  return writeTool(menu, "update", updateVerb, {
    name: verbName.update(menu),
    title: `Update ${menu.noun.replace(/s$/, "")}`,
    description:
      `Change properties of ${menu.singleton ? "the" : "one of the"} ${menu.noun} (${
        words(menu)
      }). Only the properties given change. ` +
      `Returns the item before and after.${notes(menu)}`,
    input,
    output: { before: shape, after: shape },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  });
};

/** A tool that acts on one item by reference (remove, enable, disable, move). */
function itemAction(
  verb: "remove" | "enable" | "disable" | "move",
  describe: string,
  annotations: ToolDef["annotations"],
): Build {
  return (menu) => {
    const input = refInput(menu);
    if (verb === "move") {
      input.destination = ID_SCHEMA.describe(
        "Id of the item to move before; the item lands just above it",
      );
    }
    return writeTool(menu, verb, itemVerb(verb), {
      name: verbName[verb](menu),
      title: `${verb[0].toUpperCase()}${verb.slice(1)} ${menu.noun.replace(/s$/, "")}`,
      description: `${describe} one of the ${menu.noun} (${words(menu)}), by id${
        menu.key ? ` or ${toolName(menu.key)}` : ""
      }. Returns the item${verb === "remove" ? " as it was before removal" : ""}.${
        verb === "move" ? " Order matters: RouterOS evaluates the items top to bottom." : ""
      }${notes(menu)}`,
      input,
      output: { item: itemObject(menu) },
      annotations,
    });
  };
}

const WRITE_IDEMPOTENT = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const VERBS: Record<Verb, Build> = {
  list,
  get,
  add,
  update,
  remove: itemAction("remove", "Remove", {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  }),
  enable: itemAction("enable", "Enable", WRITE_IDEMPOTENT),
  disable: itemAction("disable", "Disable", WRITE_IDEMPOTENT),
  move: itemAction("move", "Move", WRITE_IDEMPOTENT),
};
