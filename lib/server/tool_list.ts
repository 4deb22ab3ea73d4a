/**
 * The `tools/list` entries of the catalogue: JSON Schemas made once per
 * process from each tool's zod objects, with the arguments the server adds
 * (`device` in fleet mode, `dry_run` and `confirm` on writes), shared by
 * every session.
 *
 * An agent pays for every byte of this list on every turn, so the entries
 * say each thing once and keep every type: the server-wide caps on text and
 * lists (checked on every call) are not restated per argument; `dry_run`
 * and `confirm` are explained in the instructions; output schemas carry no
 * descriptions and no `additionalProperties`; a property whose schema
 * equals an earlier one's (`after` beside `before`) is a `$ref` to it; and
 * annotations omit the title (the tool has one), the hints that mean
 * nothing on a read-only tool and the default `idempotentHint: false`.
 *
 * An input schema is what every model provider accepts: a flat
 * `type: "object"` with no composition at its root and no `$ref`
 * (tests/unit/provider_rules.test.ts holds the rules).
 *
 * @module
 */
import * as z from "zod";
import type { Tool } from "../mcp_sdk/types.ts";
import { MAX_LIST, MAX_TEXT } from "../tools/menu_tools/fields.ts";
import type { Annotations, ToolDef } from "../tools/tool.ts";

type Json = Record<string, unknown>;

/**
 * What the server adds to a write tool's input. `dry_run` and `confirm` are
 * explained once, in the server instructions (and a refusal says when
 * `confirm` is needed), not in each write tool.
 */
const DRY_RUN = { type: "boolean" };
const CONFIRM = { type: "boolean" };

/** The result of a dry run, in every write tool's output (the server always fills all three). */
const DRY_RUN_OUTPUT = {
  type: "object",
  properties: {
    commands: { type: "array", items: { type: "string" } },
    preview: { type: "object" },
    problems: { type: "array", items: { type: "string" } },
  },
};

const SAFE_LIMIT = 9007199254740991;

/** A keyword's value that allows anything: `{}`, or `{"type":"string"}` for property names. */
function allowsAll(k: string, x: unknown): boolean {
  // The key first: stringifying every keyword's value, at every depth, was most of `lean`'s time.
  if (k !== "additionalProperties" && k !== "propertyNames") return false;
  const text = JSON.stringify(x);
  return (k === "additionalProperties" && text === "{}") ||
    (k === "propertyNames" && text === '{"type":"string"}');
}

/** Whether a schema keyword is one that costs bytes and says nothing to an agent. */
function idle(k: string, x: unknown, output: boolean): boolean {
  return k === "$schema" ||
    (k === "maximum" && x === SAFE_LIMIT) || (k === "minimum" && x === -SAFE_LIMIT) ||
    (k === "maxLength" && x === MAX_TEXT) || (k === "maxItems" && x === MAX_LIST) ||
    allowsAll(k, x) || (output && (k === "additionalProperties" || k === "description"));
}

/**
 * A JSON Schema without what costs bytes and says nothing: the draft URI,
 * safe-integer bounds, the server-wide text and list caps, a free-form
 * object's `additionalProperties: {}` and `propertyNames` (JSON keys are
 * strings), and in output schemas descriptions and `additionalProperties`.
 */
function lean(schema: Json, output: boolean): Json {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (!idle(k, x, output)) out[k] = walk(x);
    }
    return out;
  };
  return walk(schema) as Json;
}

/**
 * Top-level properties whose schema repeats an earlier one's become a
 * `$ref` to it (an update's `after` is its `before`).
 */
function shareRepeats(schema: Json): Json {
  const properties = schema.properties as Json | undefined;
  if (!properties) return schema;
  const seen = new Map<string, string>();
  const out: Json = {};
  for (const [name, sub] of Object.entries(properties)) {
    const text = JSON.stringify(sub);
    const first = seen.get(text);
    if (first !== undefined && text.length > 40) out[name] = { $ref: `#/properties/${first}` };
    else {
      seen.set(text, name);
      out[name] = sub;
    }
  }
  return { ...schema, properties: out };
}

/** Annotations without the title (the tool carries it) and, on reads, the write-only hints. */
function hints(a: Annotations): Partial<Annotations> {
  if (!a.readOnlyHint) {
    // idempotentHint defaults to false: say it only when true.
    const { idempotentHint, ...rest } = a;
    return idempotentHint ? a : rest;
  }
  return { readOnlyHint: true, openWorldHint: a.openWorldHint };
}

/** The input JSON Schema of a tool, with the server's own arguments. */
function inputSchema(tool: ToolDef, device: Json | undefined, deviceRequired: boolean): Json {
  const schema = lean(z.toJSONSchema(tool.input, { io: "input" }) as Json, false);
  const properties = { ...(schema.properties as Json | undefined) };
  const required = [...((schema.required as string[] | undefined) ?? [])];
  if (tool.perDevice && device) {
    Object.assign(properties, { device });
    if (deviceRequired) required.unshift("device");
  }
  if (!tool.annotations.readOnlyHint) {
    properties.dry_run = DRY_RUN;
    if (tool.annotations.destructiveHint || tool.lockout) properties.confirm = CONFIRM;
  }
  const out: Json = { type: "object", properties, additionalProperties: false };
  // "id or name" (`requireOneOf`) is said in a description and checked at call time: the
  // Anthropic, Gemini and Azure APIs refuse a top-level anyOf in an input schema.
  if (required.length) out.required = [...new Set(required)];
  return out;
}

/** The output JSON Schema; a write's fields are optional beside its `dry_run` result. */
function outputSchema(tool: ToolDef): Json {
  const schema = shareRepeats(lean(z.toJSONSchema(tool.output, { io: "output" }) as Json, true));
  if (tool.annotations.readOnlyHint) return schema;
  const { required: _, ...rest } = schema;
  return {
    ...rest,
    properties: { ...(schema.properties as Json), dry_run: DRY_RUN_OUTPUT },
  };
}

/**
 * An entry once made: its JSON for good, its object while anything holds it.
 * The objects of every tool (`--toolsets all`) take about 3 MiB of heap,
 * their JSON 1.2 MB; a `tools/list` after the objects were collected parses
 * the JSON again (milliseconds, where making the entries again from the
 * zod objects takes a quarter of a second).
 */
interface Made {
  json: string;
  object: WeakRef<Tool>;
}

/**
 * Entries made so far, by tool and device list: one per process for each
 * (servers of one process, such as the tests' in-process servers, share
 * the catalogue's tool objects, so they share their entries too).
 */
const made = new WeakMap<ToolDef, Map<string, Made>>();

/** `tools/list` entries, built once per tool and device list. */
export class ToolList {
  readonly #device: Json | undefined;
  readonly #deviceRequired: boolean;
  /** The device list, as the key of an entry. */
  readonly #key: string;

  /**
   * `titles`: the inventory in fleet mode (tools then take `device`); empty
   * otherwise. `shape` is for {@linkcode scopedTo} (fleet mode with another
   * list of titles, perhaps none).
   */
  constructor(
    titles: readonly string[],
    shape = { fleet: titles.length > 0, required: titles.length > 1 },
  ) {
    this.#device = shape.fleet
      ? {
        type: "string",
        ...(titles.length ? { enum: titles } : {}),
        description: "Which router: the title of an inventory device (router_list_devices)",
      }
      : undefined;
    this.#deviceRequired = shape.fleet && shape.required;
    this.#key = JSON.stringify([titles, shape.fleet, shape.required]);
  }

  /**
   * The same list with only `titles` in the `device` enum: what a principal
   * whose scope admits only those devices is shown (`device` stays required
   * as for the whole fleet). A single-device server's list is unchanged.
   */
  scopedTo(titles: readonly string[]): ToolList {
    if (!this.#device) return this;
    return new ToolList(titles, { fleet: true, required: this.#deviceRequired });
  }

  /**
   * The entry of one tool (made on first use, then shared while held; a
   * caller must not change it).
   */
  entry(tool: ToolDef): Tool {
    let byDevices = made.get(tool);
    if (!byDevices) made.set(tool, byDevices = new Map());
    const m = byDevices.get(this.#key);
    let e = m?.object.deref();
    if (e) return e;
    if (m) {
      e = JSON.parse(m.json) as Tool;
      m.object = new WeakRef(e);
      return e;
    }
    e = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchema(tool, this.#device, this.#deviceRequired) as Tool["inputSchema"],
      outputSchema: outputSchema(tool) as Tool["outputSchema"],
      annotations: hints(tool.annotations),
    };
    byDevices.set(this.#key, { json: JSON.stringify(e), object: new WeakRef(e) });
    return e;
  }
}
