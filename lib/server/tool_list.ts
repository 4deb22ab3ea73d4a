/**
 * The `tools/list` entries of the catalogue: JSON Schemas made once per
 * process from each tool's zod objects, with the arguments the server adds
 * (`device` in fleet mode, `dry_run` and `confirm` on writes), shared by
 * every session.
 *
 * @module
 */
import * as z from "zod";
import type { Tool } from "../mcp_sdk/types.ts";
import type { ToolDef } from "../tools/tool.ts";

type Json = Record<string, unknown>;

/** What the server adds to a write tool's input. */
const DRY_RUN = {
  type: "boolean",
  description: "Return the exact RouterOS commands this call would send, changing nothing",
};
const CONFIRM = {
  type: "boolean",
  description:
    "Must be true to carry out a destructive change or one that cuts this server's own access",
};

/** The result of a dry run, in every write tool's output. */
const DRY_RUN_OUTPUT = {
  type: "object",
  properties: {
    commands: { type: "array", items: { type: "string" } },
    preview: { type: "object" },
    problems: { type: "array", items: { type: "string" } },
  },
  required: ["commands", "preview", "problems"],
};

const SAFE_LIMIT = 9007199254740991;

/** A JSON Schema without what costs bytes and says nothing (the draft URI, safe-integer bounds). */
function lean(schema: Json): Json {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (k === "$schema") continue;
      if ((k === "maximum" && x === SAFE_LIMIT) || (k === "minimum" && x === -SAFE_LIMIT)) continue;
      out[k] = walk(x);
    }
    return out;
  };
  return walk(schema) as Json;
}

/** The input JSON Schema of a tool, with the server's own arguments. */
function inputSchema(tool: ToolDef, device: Json | undefined, deviceRequired: boolean): Json {
  const schema = lean(z.toJSONSchema(tool.input, { io: "input" }) as Json);
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
  if (required.length) out.required = [...new Set(required)];
  if (tool.requireOneOf?.length) out.anyOf = tool.requireOneOf.map((k) => ({ required: [k] }));
  return out;
}

/** The output JSON Schema; a write's fields are optional beside its `dry_run` result. */
function outputSchema(tool: ToolDef): Json {
  const schema = lean(z.toJSONSchema(tool.output, { io: "output" }) as Json);
  if (tool.annotations.readOnlyHint) return schema;
  const { required: _, ...rest } = schema;
  return {
    ...rest,
    properties: { ...(schema.properties as Json), dry_run: DRY_RUN_OUTPUT },
  };
}

/** `tools/list` entries, built once per tool and device list. */
export class ToolList {
  readonly #entries = new Map<string, Tool>();
  readonly #device: Json | undefined;
  readonly #deviceRequired: boolean;

  /** `titles`: the inventory in fleet mode (tools then take `device`); empty otherwise. */
  constructor(titles: readonly string[]) {
    this.#device = titles.length
      ? {
        type: "string",
        enum: titles,
        description: "Which router: the title of an inventory device (router_list_devices)",
      }
      : undefined;
    this.#deviceRequired = titles.length > 1;
  }

  /** The entry of one tool (made on first use, then shared). */
  entry(tool: ToolDef): Tool {
    let e = this.#entries.get(tool.name);
    if (!e) {
      e = {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: inputSchema(tool, this.#device, this.#deviceRequired) as Tool["inputSchema"],
        outputSchema: outputSchema(tool) as Tool["outputSchema"],
        annotations: { title: tool.title, ...tool.annotations },
      };
      this.#entries.set(tool.name, e);
    }
    return e;
  }
}
