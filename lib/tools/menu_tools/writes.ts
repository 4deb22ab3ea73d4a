/**
 * The write tools of a menu: add, update, remove, enable, disable and move.
 * Each builds one script (the write and its read-back in one exec); the
 * handler runs it, the dry run shows it and reads what it would touch.
 *
 * @module
 */
import * as z from "zod";
import {
  bracket,
  cmd,
  type CommandValue,
  type ItemRef,
  local,
  refCondition,
} from "../../routeros/command.ts";
import type { Dialect } from "../../routeros/dialect.ts";
import { ArgumentError, unparsable } from "../../routeros/errors.ts";
import type { ReadItems, Section } from "../../routeros/script.ts";
import { Script, type ScriptOutput } from "../../routeros/script.ts";
import type { Field } from "../../routeros/schema/field.ts";
import { hasWrite, type MenuWrite, readSpecOf, rosName } from "../../routeros/schema/menu.ts";
import { checkOnRelease } from "../../routeros/schema/validate.ts";
import { renderTable } from "../render.ts";
import {
  type Annotations,
  DESTRUCTIVE,
  type DryRunResult,
  type ToolContext,
  type ToolDef,
  type ToolResult,
  type Verb,
  WRITE,
  WRITE_IDEMPOTENT,
} from "../tool.ts";
import {
  ID_SCHEMA,
  itemObject,
  itemResult,
  lazyObject,
  notFound,
  refInput,
  refOf,
  refOn,
  refRequirement,
  writeDialect,
} from "./read_tools.ts";
import { notes, titleOf, toolNameOf, words } from "./naming.ts";
import { inputType, MASK, toItem, toRaw } from "./fields.ts";
import type { ScriptText } from "../../routeros/export_secrets.ts";
import { argName } from "./naming.ts";
import { mayCut } from "../guard/lockout.ts";
import { refuseClockMove } from "../system/clock_guard.ts";
import { lockoutRuleOf } from "./lockout_rule.ts";
import { grantsThroughOf, heldPrivilegesOf, privilegedArgsOf, writeDoc } from "./privileges.ts";
import type { MenuTools } from "./spec.ts";

type Args = Record<string, unknown>;

/** A write, planned: the script and how to read its answer. */
interface Plan {
  script: Script;
  finish(out: ScriptOutput): ToolResult;
}

/** The writable fields of a menu. */
export function writableFields(spec: MenuTools): [string, Field][] {
  return Object.entries(spec.schema.fields).filter(([, f]) => f.writable);
}

/** Argument values of a write, converted and named for the release (checked against it). */
export function writeProps(
  spec: MenuTools,
  dialect: Dialect,
  args: Args,
): Record<string, CommandValue> {
  const props: Record<string, CommandValue> = {};
  for (const [name, field] of writableFields(spec)) {
    const value = args[argName(name)];
    if (value === undefined) continue;
    checkOnRelease(field, argName(name), value, dialect.release);
    props[rosName(field, name, dialect.release)] = toRaw(field, value);
  }
  return props;
}

/** Tool args of an update, with `new_<key>` renamed to the key field. */
export function updateValues(spec: MenuTools, args: Args): Args {
  const values = { ...args };
  const key = spec.schema.key;
  if (key) {
    delete values[argName(key)];
    const renamed = args[`new_${argName(key)}`];
    if (renamed !== undefined) values[argName(key)] = renamed;
  }
  return values;
}

function one(section: ReadItems, spec: MenuTools, ref?: ItemRef) {
  if (section.items.length === 0) {
    throw ref ? notFound(spec, ref) : unparsable("", "the item could not be read back");
  }
  return section.items[0];
}

function readBack(spec: MenuTools, dialect: Dialect) {
  return readSpecOf(spec.schema, dialect.release);
}

/** A verb's plan: its script, and its result read back, scripts shown as the caller may see them. */
type PlanOf = (s: MenuTools, d: Dialect, a: Args, scripts: ScriptText) => Plan;

const PLANS: Record<Exclude<Verb, "list" | "get">, PlanOf> = {
  add(spec, dialect, args, scripts) {
    const script = new Script(dialect);
    script.do(
      local("id", bracket(cmd(spec.schema.path, "add", { args: writeProps(spec, dialect, args) }))),
    );
    const after = script.readVar(readBack(spec, dialect), "id");
    return {
      script,
      finish: (out) =>
        itemResult(spec, toItem(spec.schema, dialect.release, one(out.get(after), spec), scripts)),
    };
  },
  update(spec, dialect, args, scripts) {
    const props = writeProps(spec, dialect, updateValues(spec, args));
    if (Object.keys(props).length === 0) {
      throw new ArgumentError("nothing to change: give at least one property");
    }
    const script = new Script(dialect);
    const rs = readBack(spec, dialect);
    let before: Section<ReadItems>, after: Section<ReadItems>;
    let ref: ItemRef | undefined;
    if (spec.schema.kind === "singleton") {
      before = script.read(rs);
      script.do(cmd(spec.schema.path, "set", { args: props }));
      after = script.read(rs);
    } else {
      ref = refOn(spec.schema, refOf(spec.schema, args), dialect.release);
      const key = spec.schema.key && "key" in ref
        ? props[rosName(spec.schema.fields[spec.schema.key], spec.schema.key, dialect.release)]
        : undefined;
      const afterRef: ItemRef = key !== undefined && "key" in ref
        ? { key: ref.key, value: String(key) }
        : ref;
      before = script.read(rs, [refCondition(ref)]);
      script.do(cmd(spec.schema.path, "set", { numbers: ref, args: props }));
      after = script.read(rs, [refCondition(afterRef)]);
    }
    return {
      script,
      finish(out) {
        const b = toItem(spec.schema, dialect.release, one(out.get(before), spec, ref), scripts);
        const a = toItem(spec.schema, dialect.release, one(out.get(after), spec, ref), scripts);
        return {
          structured: { before: b, after: a },
          text: `before:\n${renderTable([b], Object.keys(b))}\nafter:\n${
            renderTable([a], Object.keys(a))
          }`,
        };
      },
    };
  },
  remove: itemVerb("remove"),
  enable: itemVerb("enable"),
  disable: itemVerb("disable"),
  move: itemVerb("move"),
};

/** A write that acts on one item by reference. */
function itemVerb(verb: "remove" | "enable" | "disable" | "move") {
  return (spec: MenuTools, dialect: Dialect, args: Args, scripts: ScriptText): Plan => {
    const ref = refOn(spec.schema, refOf(spec.schema, args), dialect.release);
    const script = new Script(dialect);
    const rs = readBack(spec, dialect);
    const action = cmd(spec.schema.path, verb, {
      numbers: ref,
      ids: verb === "move" ? { destination: String(args.destination) } : undefined,
    });
    let read: Section<ReadItems>;
    if (verb === "remove") {
      read = script.read(rs, [refCondition(ref)]);
      script.do(action);
    } else {
      script.do(action);
      read = script.read(rs, [refCondition(ref)]);
    }
    return {
      script,
      finish: (out) =>
        itemResult(
          spec,
          toItem(spec.schema, dialect.release, one(out.get(read), spec, ref), scripts),
        ),
    };
  };
}

/** The typed values a write would set (secrets masked), for previews. */
function givenValues(spec: MenuTools, args: Args): Args {
  const out: Args = {};
  for (const [name, field] of writableFields(spec)) {
    const v = args[argName(name)];
    if (v !== undefined) out[argName(name)] = field.secret ? MASK : v;
  }
  return out;
}

/** Check that fields naming other items (an interface, a pool) name existing ones. */
async function checkReferences(spec: MenuTools, args: Args, ctx: ToolContext): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, field] of Object.entries(spec.schema.fields)) {
    const value = args[argName(name)];
    if (!field.ref || typeof value !== "string" || value === "") continue;
    const found = await ctx.client.read({ path: field.ref, keys: ["name"] }, [
      { key: "name", value },
    ]);
    if (!found.length) problems.push(`${name} "${value}" does not exist in ${field.ref}`);
  }
  return problems;
}

/** The item a write acts on, read now (undefined for add, or when it is not found). */
async function currentOf(
  spec: MenuTools,
  verb: Verb,
  args: Args,
  ctx: ToolContext,
  release: Dialect["release"],
): Promise<Args | undefined> {
  const rs = readSpecOf(spec.schema, release);
  if (spec.schema.kind === "singleton") {
    return toItem(spec.schema, release, (await ctx.client.read(rs))[0], ctx.scriptText);
  }
  if (verb === "add") return undefined;
  const ref = refOn(spec.schema, refOf(spec.schema, args), release);
  const [raw] = await ctx.client.read(rs, [refCondition(ref)]).catch(() => []);
  return raw ? toItem(spec.schema, release, raw, ctx.scriptText) : undefined;
}

/** The item as a write would leave it (for remove: as it was), secrets masked. */
function afterOf(spec: MenuTools, verb: Verb, args: Args, current: Args | undefined): Args {
  if (verb === "add") return { id: "(new)", ...givenValues(spec, args) };
  if (verb === "update") return { ...current, ...givenValues(spec, updateValues(spec, args)) };
  if (verb === "enable" && current) return { ...current, disabled: false };
  if (verb === "disable" && current) return { ...current, disabled: true };
  return current ?? {};
}

/** The RouterOS write of a tool verb. */
function writeOf(verb: Verb): MenuWrite {
  return verb === "update" ? "set" : verb as MenuWrite;
}

/** A dry run: the script, and what reads say about the call's chances. */
async function dryRunOf(
  spec: MenuTools,
  verb: Verb,
  args: Args,
  ctx: ToolContext,
): Promise<DryRunResult> {
  const dialect = await writeDialect(spec.schema, writeOf(verb), ctx);
  const release = dialect.release;
  const plan = PLANS[verb as Exclude<Verb, "list" | "get">](spec, dialect, args, ctx.scriptText);
  const rs = readSpecOf(spec.schema, release);
  const problems: string[] = [];
  const current = await currentOf(spec, verb, args, ctx, release);
  if (!current && verb !== "add") {
    problems.push(notFound(spec, refOn(spec.schema, refOf(spec.schema, args), release)).message);
  }
  if (verb === "add" || verb === "update") problems.push(...await checkReferences(spec, args, ctx));
  const key = spec.schema.key;
  if (verb === "add" && key && typeof args[argName(key)] === "string") {
    const dup = await ctx.client.read(rs, [{
      key: rosName(spec.schema.fields[key], key, release),
      value: String(args[argName(key)]),
    }]);
    if (dup.length) {
      problems.push(`a ${spec.noun.one} with ${key}="${args[argName(key)]}" already exists`);
    }
  }
  if (verb === "move") {
    const dest = await ctx.client.read(rs, [{ key: ".id", value: String(args.destination) }])
      .catch(() => []);
    if (!dest.length) problems.push(`destination ${String(args.destination)} does not exist`);
  }
  return {
    commands: [plan.script.toString()],
    preview: afterOf(spec, verb, args, current),
    problems,
  };
}

/** What the write would cut of this server's access (the menu's lock-out rule), read now. */
async function lockoutOf(
  spec: MenuTools,
  verb: Verb,
  args: Args,
  ctx: ToolContext,
): Promise<string | undefined> {
  const rule = lockoutRuleOf(spec)!;
  if (!mayCut(rule, verb, args)) return undefined;
  // What the release refuses is said before the rule reads anything.
  const dialect = await writeDialect(spec.schema, writeOf(verb), ctx);
  writeProps(spec, dialect, args);
  const release = dialect.release;
  const before = rule.ownReads ? undefined : await currentOf(spec, verb, args, ctx, release);
  return await rule.check({ verb, before, after: afterOf(spec, verb, args, before), args }, ctx);
}

/** A write tool from its verb's plan: the handler and the dry run share the plan. */
function writeTool(
  spec: MenuTools,
  verb: Exclude<Verb, "list" | "get">,
  input: () => Record<string, z.ZodType>,
  output: () => Record<string, z.ZodType>,
  description: string,
  annotations: Annotations,
): ToolDef {
  const inputObject = lazyObject(() => z.object(input()).strict());
  // Fields that may move the router's clock, which revert jobs run by.
  const clock = {
    name: toolNameOf(spec, verb),
    clockArgs: Object.entries(spec.schema.fields).filter(([, f]) => f.movesClock).map(([n]) =>
      argName(n)
    ),
    clockArgsWith: Object.fromEntries(
      Object.entries(spec.schema.fields).flatMap(([n, f]) =>
        f.movesClockWith ? [[argName(n), f.movesClockWith]] : []
      ),
    ),
    crud: { menu: spec.schema },
  };
  const outputObject = lazyObject(() => z.object(output()));
  return {
    name: toolNameOf(spec, verb),
    title: titleOf(spec, verb),
    description: description + notes(spec, verb),
    toolset: spec.toolset,
    core: spec.core?.includes(verb),
    get input() {
      return inputObject();
    },
    get output() {
      return outputObject();
    },
    annotations,
    ...(spec.writeRole ? { role: spec.writeRole } : {}),
    perDevice: true,
    secretArgs: Object.entries(spec.schema.fields).filter(([, f]) => f.secret).map(([n]) =>
      argName(n)
    ),
    // A privileged field (a script the router runs, SNMP write access, a
    // login RADIUS server): setting one needs admin (roles.ts). The passwords in a script's text
    // are masked like raw console text.
    // A write to an item that holds one needs admin as well, and so does a
    // value that grants one through other items (a privilege by reference).
    privilegedArgs: privilegedArgsOf(spec),
    heldPrivileges: heldPrivilegesOf(spec, verb),
    grantsThrough: grantsThroughOf(spec, verb),
    rawCommandArgs: scriptArgsOf(spec),
    clockArgs: clock.clockArgs,
    clockArgsWith: clock.clockArgsWith,
    crud: { menu: spec.schema, verb },
    readBack: spec.verbs.includes("list")
      ? toolNameOf(spec, "list")
      : spec.verbs.includes("get")
      ? toolNameOf(spec, "get")
      : undefined,
    requireOneOf: verb === "add" || spec.schema.kind === "singleton"
      ? undefined
      : refRequirement(spec),
    async handler(args: Args, ctx) {
      await refuseClockMove(clock, args, ctx);
      await spec.checkWrite?.(clock.name, verb, args, ctx);
      const dialect = await writeDialect(spec.schema, writeOf(verb), ctx);
      const plan = PLANS[verb](spec, dialect, args, ctx.scriptText);
      return plan.finish(
        await ctx.client.run(plan.script, { idempotent: false, what: spec.schema.path }),
      );
    },
    async dryRun(args: Args, ctx) {
      await refuseClockMove(clock, args, ctx);
      await spec.checkWrite?.(clock.name, verb, args, ctx);
      return await dryRunOf(spec, verb, args, ctx);
    },
    lockout: lockoutRuleOf(spec)
      ? (args: Args, ctx) => lockoutOf(spec, verb, args, ctx)
      : undefined,
  };
}

/** The tool-side names of the menu's script fields. */
function scriptArgsOf(spec: MenuTools): string[] {
  return Object.entries(spec.schema.fields).filter(([, f]) => f.script).map(([n]) => argName(n));
}

/** Verb-specific input, description and annotations. */
export const WRITE_VERBS: Record<Exclude<Verb, "list" | "get">, (spec: MenuTools) => ToolDef> = {
  add(spec) {
    const input = () => {
      const shape: Record<string, z.ZodType> = {};
      for (const [name, field] of writableFields(spec)) {
        const t = inputType(field).describe(writeDoc(spec, field));
        shape[argName(name)] = field.required ? t : t.optional();
      }
      return shape;
    };
    return writeTool(
      spec,
      "add",
      input,
      () => ({ item: itemObject(spec.schema) }),
      `Add one ${spec.noun.one} (${words(spec.schema)}); returns it as stored, with its id.`,
      WRITE,
    );
  },
  update(spec) {
    const single = spec.schema.kind === "singleton";
    // With an add tool beside it, the property descriptions are read there once.
    const described = !spec.verbs.includes("add");
    const input = () => {
      const shape: Record<string, z.ZodType> = single ? {} : refInput(spec);
      for (const [name, field] of writableFields(spec)) {
        const t = inputType(field);
        if (name === spec.schema.key) {
          shape[`new_${argName(name)}`] = t.optional().describe(`Rename: the new ${name}`);
        } else {shape[argName(name)] = (described ? t.describe(writeDoc(spec, field)) : t)
            .optional();}
      }
      return shape;
    };
    const item = () => itemObject(spec.schema);
    return writeTool(
      spec,
      "update",
      input,
      () => ({ before: item(), after: item() }),
      `Change properties of ${single ? "the" : "one"} ${spec.noun.one} (${words(spec.schema)}); ` +
        `only those given change${described ? "" : ` (as in ${toolNameOf(spec, "add")})`}. ` +
        "Returns the item before and after.",
      WRITE_IDEMPOTENT,
    );
  },
  remove: refVerb("remove", "Remove", DESTRUCTIVE, " Returns the item as it was."),
  enable: refVerb("enable", "Enable", WRITE_IDEMPOTENT, ""),
  disable: refVerb("disable", "Disable", WRITE_IDEMPOTENT, ""),
  move: refVerb(
    "move",
    "Move",
    WRITE_IDEMPOTENT,
    " It lands just above `destination`; items are evaluated top to bottom.",
  ),
};

function refVerb(
  verb: "remove" | "enable" | "disable" | "move",
  label: string,
  annotations: Annotations,
  extra: string,
) {
  return (spec: MenuTools): ToolDef => {
    if (!hasWrite(spec.schema, verb)) {
      throw new Error(`tools of ${spec.schema.path}: RouterOS has no ${verb} here`);
    }
    if ((verb === "enable" || verb === "disable") && !spec.schema.fields.disabled) {
      throw new Error(`tools of ${spec.schema.path}: ${verb} needs a disabled field`);
    }
    const input = () => {
      const shape = refInput(spec);
      if (verb === "move") shape.destination = ID_SCHEMA.describe("Id of the item to move above");
      return shape;
    };
    return writeTool(
      spec,
      verb,
      input,
      () => ({ item: itemObject(spec.schema) }),
      `${label} one ${spec.noun.one} (${words(spec.schema)}) by id${
        spec.schema.key ? ` or ${argName(spec.schema.key)}` : ""
      }.${extra}`,
      annotations,
    );
  };
}
