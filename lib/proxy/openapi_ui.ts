/**
 * The documents Swagger UI reads beside each docs page: the OpenAPI 3.1
 * document written as OpenAPI 3.0 and split in two. Swagger UI resolves
 * 3.1 documents with a far slower engine (ApiDOM), which takes seconds for
 * a router's hundreds of tools; the 3.0 form renders in a fraction of that.
 * And as the page reads its whole document before showing anything, the
 * schemas go to a second document (`docs/schemas.json`) that the operations
 * refer to: Swagger UI fetches it once, when an operation is first opened.
 * Machines should read the 3.1 document (`openapi.json`), which the page
 * links to.
 *
 * The schemas are rewritten for display: `type: [T, "null"]` becomes
 * `nullable`, `const` a one-value `enum`, `examples` an `example`, numeric
 * exclusive bounds the 3.0 boolean form, tuples a list of any of their
 * items; keywords 3.0 lacks are dropped.
 *
 * @module
 */

type Json = Record<string, unknown>;

/** Keywords OpenAPI 3.0 schemas do not have, dropped for display. */
const DROPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "contains",
  "minContains",
  "maxContains",
  "if",
  "then",
  "else",
  "additionalItems",
]);
/** Keywords whose value is data, not schemas. */
const DATA = new Set(["enum", "default", "example", "const", "examples"]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One JSON Schema (2020-12) as an OpenAPI 3.0 schema, for display. */
export function schemaFor30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaFor30);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (DATA.has(key)) {
      if (key === "const") out.enum = [value];
      else if (key === "examples") {
        if (Array.isArray(value) && value.length && !("example" in schema)) out.example = value[0];
      } else out[key] = value;
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaFor30(v)]));
    } else if (key === "prefixItems" && Array.isArray(value)) {
      if (!("items" in schema)) {
        out.items = value.length ? { anyOf: value.map(schemaFor30) } : {};
      }
    } else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      if (value.includes("null")) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
    } else if (key === "type" && value === "null") {
      out.nullable = true;
    } else if (
      (key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "number"
    ) {
      out[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
      out[key] = true;
    } else {
      out[key] = schemaFor30(value);
    }
  }
  return out;
}

/** Rewrite every media type's schema under `node` (paths, responses). */
function mediaSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mediaSchemas);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "schema") out[key] = schemaFor30(value);
    else if (key === "example" || key === "examples") out[key] = value;
    else out[key] = mediaSchemas(value);
  }
  return out;
}

/** Where the page's operations find the schemas, relative to `docs/openapi.json`. */
const SCHEMAS_DOC = "schemas.json";

/** Point local schema references at the schemas document. */
function externalRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(externalRefs);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/")
        ? SCHEMAS_DOC + value
        : externalRefs(value),
    ]),
  );
}

/** The page's document (`docs/openapi.json`): a 3.1 document from `buildOpenApi` as 3.0, schemas elsewhere. */
export function openApiForUi(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const info = (doc.info ?? {}) as Json;
  const { schemas: _, ...rest } = components;
  return {
    ...doc,
    openapi: "3.0.3",
    info: {
      ...info,
      description: `${info.description ?? ""}\n\nThis page shows the document as OpenAPI 3.0; ` +
        "programs should read the OpenAPI 3.1 document, [openapi.json](openapi.json).",
    },
    paths: externalRefs(mediaSchemas(doc.paths ?? {})),
    components: {
      ...rest,
      ...(components.responses
        ? { responses: externalRefs(mediaSchemas(components.responses)) }
        : {}),
    },
  };
}

/** The schemas the page's operations refer to (`docs/schemas.json`), as 3.0. */
export function schemasForUi(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  return {
    openapi: "3.0.3",
    info: { title: "schemas", version: String((doc.info as Json | undefined)?.version ?? "") },
    paths: {},
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, schemaFor30(v)])),
    },
  };
}
