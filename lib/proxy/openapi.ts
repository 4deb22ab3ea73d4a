/**
 * OpenAPI 3.1 documents for the proxied tools: one operation per tool,
 * its request body the tool's input schema, its 200 answer the tool's
 * output schema, the error answers the proxy's envelope, and the bearer
 * security scheme when an API key is set.
 *
 * The whole-proxy document (`/openapi.json`) has paths `/<server>/<tool>`;
 * a server's own document (`/<server>/openapi.json`) has paths `/<tool>`
 * under the server URL `/<server>`, the layout OpenAPI tool clients such
 * as Open WebUI expect from one base URL per tool server.
 *
 * Operations are tagged with their tool's group (its toolset, see
 * tool_groups.ts; `<server>/<group>` when the proxy has several servers),
 * each request body's example holds the required arguments only (so "Try
 * it out" in Swagger UI starts without filters), and repeated schemas are
 * shared components (see openapi_shared.ts).
 *
 * @module
 */
import type { Tool } from "../mcp_sdk/types.ts";
import type { ChildState } from "./children.ts";
import { shareRepeatedSchemas } from "./openapi_shared.ts";
import { OTHER_GROUP, toolGroups } from "./tool_groups.ts";

/** What the builder needs of one server. */
export interface OpenApiServer {
  name: string;
  state: ChildState;
  tools: Tool[];
}

/** Options of a document. */
export interface OpenApiOptions {
  /** Product version, shown as the document's version. */
  version: string;
  /** Whether tool calls need `Authorization: Bearer <key>`. */
  bearer: boolean;
  /** Build the document of this one server instead of all. */
  only?: string;
}

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", description: "Stable machine-readable code" },
        message: { type: "string", description: "What went wrong and what to do" },
        details: { description: "Extra facts, such as the failing fields" },
      },
    },
  },
};

const ERRORS: Record<string, [string, string]> = {
  "400": ["BadRequest", "Malformed JSON, or a body that is not a JSON object"],
  "401": ["Unauthorized", "API key missing or wrong"],
  "413": ["PayloadTooLarge", "Body larger than 4 MiB"],
  "415": ["UnsupportedMediaType", "Body not sent as application/json"],
  "422": ["InvalidArguments", "Arguments fail the tool's input schema; details list each field"],
  "502": ["ToolError", "The tool reported an error"],
  "503": ["ServerUnavailable", "The MCP server is starting or down; retry later"],
  "504": ["ToolTimeout", "The tool did not answer in time"],
};

/** Build an OpenAPI 3.1 document for `servers`. */
export function buildOpenApi(servers: OpenApiServer[], options: OpenApiOptions): Json {
  const selected = options.only ? servers.filter((s) => s.name === options.only) : servers;
  const schemas: Json = { Error: ERROR_SCHEMA };
  const responses: Json = {};
  for (const [status, [name, description]] of Object.entries(ERRORS)) {
    if (status === "401" && !options.bearer) continue;
    responses[name] = {
      description,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const paths: Json = {};
  const operationIds = new Set<string>();
  const componentNames = new Set<string>(["Error"]);
  const tags = new Map<string, number>(); // tag -> operations
  const tagOwners = new Map<string, [OpenApiServer, string]>();
  for (const server of selected) {
    const groups = toolGroups(server.tools, server.name);
    for (const tool of server.tools) {
      const group = groups.get(tool.name) ?? server.name;
      const tag = servers.length > 1 && !options.only && group !== server.name
        ? `${server.name}/${group}`
        : group;
      tags.set(tag, (tags.get(tag) ?? 0) + 1);
      tagOwners.set(tag, [server, group]);
      const path = options.only
        ? `/${encodeURIComponent(tool.name)}`
        : `/${server.name}/${encodeURIComponent(tool.name)}`;
      const base = componentName(`${server.name}.${tool.name}`, componentNames);
      const input = `${base}.input`;
      schemas[input] = toOas31(tool.inputSchema as Json, `#/components/schemas/${input}`);
      let okSchema: Json = {
        description: "The tool's text content, parsed as JSON where it is JSON",
      };
      const example = requiredExample(tool.inputSchema as Json);
      if (tool.outputSchema) {
        const output = `${base}.output`;
        schemas[output] = toOas31(tool.outputSchema as Json, `#/components/schemas/${output}`);
        okSchema = { $ref: `#/components/schemas/${output}` };
      }
      const errorRefs: Json = {};
      for (const [status, [name]] of Object.entries(ERRORS)) {
        if (status === "401" && !options.bearer) continue;
        errorRefs[status] = { $ref: `#/components/responses/${name}` };
      }
      const annotations = (tool.annotations ?? {}) as Json;
      paths[path] = {
        post: {
          operationId: uniqueOperationId(
            options.only ? tool.name : `${server.name}__${tool.name}`,
            operationIds,
          ),
          summary: tool.title ?? (annotations.title as string | undefined) ?? tool.name,
          description: tool.description ?? "",
          tags: [tag],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { $ref: `#/components/schemas/${input}` },
                ...(example ? { example } : {}),
              },
            },
          },
          responses: {
            "200": {
              description: "The tool's result",
              content: { "application/json": { schema: okSchema } },
            },
            ...errorRefs,
          },
          ...(annotations.readOnlyHint === true ? { "x-mcp-read-only": true } : {}),
          ...(annotations.destructiveHint === true ? { "x-mcp-destructive": true } : {}),
        },
      };
    }
  }
  const doc: Json = {
    openapi: "3.1.0",
    info: {
      title: options.only
        ? `${options.only} (MCP server via mcp-server-router proxy)`
        : "mcp-server-router proxy",
      version: options.version,
      description: description(selected),
    },
    ...(options.only ? { servers: [{ url: `/${options.only}` }] } : {}),
    tags: [...tags].map(([name, n]) => ({
      name,
      description: tagDescription(tagOwners.get(name)!, n),
    }))
      .sort((a, b) => Number(isOther(a.name)) - Number(isOther(b.name))),
    paths,
    components: {
      schemas: shareRepeatedSchemas(schemas as Record<string, Json>),
      responses,
      ...(options.bearer
        ? { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } }
        : {}),
    },
  };
  if (options.bearer) doc.security = [{ bearerAuth: [] }];
  return doc;
}

function description(servers: OpenApiServer[]): string {
  const down = servers.filter((s) => s.state !== "up").map((s) => s.name);
  return "Tools of MCP servers as JSON endpoints: POST the arguments as a JSON object " +
    '({} for none). Errors answer {"error": {"code", "message", "details"}}.' +
    (down.length ? ` Not up now: ${down.join(", ")} (their tools are as last listed).` : "");
}

function isOther(tag: string): boolean {
  return tag === OTHER_GROUP || tag.endsWith(`/${OTHER_GROUP}`);
}

function tagDescription([server, group]: [OpenApiServer, string], n: number): string {
  const tools = `${n} tool${n === 1 ? "" : "s"} of MCP server ${server.name} (${server.state})`;
  return group === OTHER_GROUP ? `${tools} in no other group` : tools;
}

/**
 * The request body example: the required arguments only, each with its
 * schema's own example, default, constant or first choice, else an empty
 * value of its type; optional arguments (list filters) are left out. None
 * when the schema is not a plain object (Swagger UI then makes its own).
 */
export function requiredExample(schema: Json): Json | undefined {
  if (!isObject(schema.properties)) return schema.type === "object" ? {} : undefined;
  const properties = schema.properties as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required as string[] : [];
  return Object.fromEntries(
    required.filter((name) => name in properties).map((name) => [name, sample(properties[name])]),
  );
}

function sample(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  for (const key of ["example", "default", "const"]) if (key in schema) return schema[key];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key]) && (schema[key] as unknown[]).length) {
      return sample((schema[key] as unknown[])[0]);
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A component name from `raw`: only [A-Za-z0-9._-], unique within `taken`. */
function componentName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^A-Za-z0-9._-]/g, "_");
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

function uniqueOperationId(raw: string, taken: Set<string>): string {
  let id = raw;
  for (let i = 2; taken.has(id); i++) id = `${raw}_${i}`;
  taken.add(id);
  return id;
}

const NOT_SCHEMAS = new Set(["enum", "const", "default", "examples", "example"]);
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/**
 * A tool's JSON Schema as an OpenAPI 3.1 schema placed at `home`: the
 * `$schema` and `$id` keywords dropped, local `$ref`s ("#/...") re-rooted at
 * `home`, and draft-07 forms that 2020-12 spells otherwise (tuple `items`,
 * boolean `exclusiveMinimum`/`exclusiveMaximum`) rewritten.
 */
export function toOas31(schema: Json, home: string): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const src = node as Json;
    const out: Json = {};
    for (const [key, value] of Object.entries(src)) {
      if (key === "$schema" || key === "$id") continue;
      if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
        out.$ref = home + value.slice(1);
      } else if (NOT_SCHEMAS.has(key)) {
        out[key] = value;
      } else if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
        out[key] = Object.fromEntries(
          Object.entries(value as Json).map(([name, sub]) => [name, walk(sub)]),
        );
      } else {
        out[key] = walk(value);
      }
    }
    if (Array.isArray(out.items)) {
      out.prefixItems = out.items;
      delete out.items;
      if (out.additionalItems !== undefined) out.items = out.additionalItems;
      delete out.additionalItems;
    }
    for (
      const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]
    ) {
      if (typeof out[flag] === "boolean") {
        if (out[flag] === true && typeof out[bound] === "number") {
          out[flag] = out[bound];
          delete out[bound];
        } else {
          delete out[flag];
        }
      }
    }
    return out;
  };
  return walk(schema) as Json;
}
