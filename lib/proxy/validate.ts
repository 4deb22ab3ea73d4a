/**
 * Checking tool arguments against the tool's JSON input schema with ajv,
 * before the call, so a bad request gets a 422 that lists every failing
 * field. The schema's own `$schema` picks the draft (07 when absent, as
 * MCP servers send it). A schema ajv cannot compile is not checked here;
 * the server still checks it.
 *
 * @module
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Tool } from "../mcp_sdk/types.ts";
import { log } from "../log.ts";

/** One failing field. */
export interface FieldError {
  /** Dotted path of the field, e.g. `address` or `items[0].name`; "" for the whole object. */
  field: string;
  /** JSON Pointer of the field within the arguments. */
  pointer: string;
  /** What is wrong, e.g. "must be string". */
  message: string;
  /** The JSON Schema keyword that failed. */
  keyword: string;
}

type AjvLike = { compile: (schema: object) => ValidateFunction };
const addFormats = addFormatsModule as unknown as (ajv: unknown) => void;
const engines = new Map<string, AjvLike>();
const cache = new WeakMap<object, ValidateFunction | null>();

function engine(schemaUri: string | undefined): AjvLike {
  const key = /2020-12/.test(schemaUri ?? "")
    ? "2020"
    : /2019-09/.test(schemaUri ?? "")
    ? "2019"
    : "07";
  let ajv = engines.get(key);
  if (!ajv) {
    const options = { allErrors: true, strict: false, validateSchema: false };
    const made = key === "2020"
      ? new Ajv2020(options)
      : key === "2019"
      ? new Ajv2019(options)
      : new Ajv(options);
    addFormats(made);
    ajv = made as unknown as AjvLike;
    engines.set(key, ajv);
  }
  return ajv;
}

function validatorFor(tool: Tool): ValidateFunction | null {
  const schema = tool.inputSchema as Record<string, unknown>;
  if (cache.has(schema)) return cache.get(schema)!;
  let fn: ValidateFunction | null = null;
  try {
    const { $schema, $id: _id, ...rest } = schema;
    fn = engine(typeof $schema === "string" ? $schema : undefined).compile(rest);
  } catch (err) {
    log("warning", `proxy: tool ${tool.name}: input schema not checked here: ${String(err)}`);
  }
  cache.set(schema, fn);
  return fn;
}

/** The failing fields of `args` for `tool`, empty when they are fine. */
export function checkArguments(tool: Tool, args: Record<string, unknown>): FieldError[] {
  const fn = validatorFor(tool);
  if (!fn || fn(args)) return [];
  return (fn.errors ?? []).map(fieldError);
}

function fieldError(e: ErrorObject): FieldError {
  const params = e.params as Record<string, unknown>;
  let pointer = e.instancePath;
  let message = e.message ?? "is invalid";
  if (e.keyword === "required") {
    pointer += `/${escapePointer(String(params.missingProperty))}`;
    message = "is required";
  } else if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") {
    pointer += `/${escapePointer(String(params.additionalProperty ?? params.unevaluatedProperty))}`;
    message = "is not an accepted argument";
  } else if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return { field: dotted(pointer), pointer, message, keyword: e.keyword };
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function dotted(pointer: string): string {
  return pointer.split("/").slice(1).map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((acc, seg) => /^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg, "");
}
