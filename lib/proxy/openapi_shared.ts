/**
 * Shrinking an OpenAPI document where it repeats itself: an object schema
 * (or a list of objects) that occurs more than once among the component
 * schemas (the item
 * record a server's list, get, add and update tools all return, the dry-run
 * report of every write tool) becomes one component, and each occurrence a
 * `$ref` to it. Simple values (a string, a list of strings) stay inline,
 * where Swagger UI shows them without a click.
 *
 * A component holding a `$ref` of its own is left alone: a reference into
 * its inside (`#/.../properties/x`) could otherwise point at a moved part.
 *
 * @module
 */

type Json = Record<string, unknown>;

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/** Shorter than this (as JSON), a repeat is not worth a `$ref`. */
const MIN_CHARS = 80;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON with keys sorted, so equal schemas give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (!isObject(v)) return JSON.stringify(v);
  return `{${
    Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")
  }}`;
}

/** Each subschema of `node` with a name hint for it. */
function subschemas(node: Json): [key: string, hint: string, sub: Json, index?: string][] {
  const out: [string, string, Json, string?][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        if (isObject(sub)) out.push([key, name, sub, name]);
      }
    } else if (SCHEMA_ONE.has(key) && isObject(value)) {
      out.push([key, key === "items" ? "item" : key, value]);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      value.forEach((sub, i) => {
        if (isObject(sub)) out.push([key, `${key}${i}`, sub, String(i)]);
      });
    }
  }
  return out;
}

/** An object schema, or a list of them: worth a name of its own. */
function composite(node: Json): boolean {
  if (node.type === "object" || "properties" in node) return true;
  return isObject(node.items) && composite(node.items);
}

function holdsRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsRef);
  if (!isObject(node)) return false;
  return "$ref" in node || Object.values(node).some(holdsRef);
}

/**
 * `schemas` (components by name) with repeated object and array schemas
 * moved into components of their own, named after where each was first
 * seen (`router.router_get_ip_address.output.item`).
 */
export function shareRepeatedSchemas(schemas: Record<string, Json>): Record<string, Json> {
  const counts = new Map<string, number>();
  const count = (node: Json, top: boolean) => {
    for (const [, , sub] of subschemas(node)) count(sub, false);
    if (top || !composite(node)) return;
    const text = canonical(node);
    if (text.length >= MIN_CHARS) counts.set(text, (counts.get(text) ?? 0) + 1);
  };
  const eligible = Object.entries(schemas).filter(([, s]) => !holdsRef(s));
  for (const [, schema] of eligible) count(schema, true);

  const shared = new Map<string, string>(); // canonical text -> component name
  const added: Record<string, Json> = {};
  const taken = new Set(Object.keys(schemas));
  const rewrite = (node: Json, hint: string, top: boolean): Json => {
    const text = top ? "" : canonical(node);
    const known = shared.get(text);
    if (known) return { $ref: `#/components/schemas/${known}` };
    const out: Json = { ...node };
    for (const [key, name, sub, index] of subschemas(node)) {
      const child = rewrite(sub, `${hint}.${name.replace(/[^A-Za-z0-9._-]/g, "_")}`, false);
      if (index === undefined) out[key] = child;
      else if (Array.isArray(out[key])) {
        out[key] = (out[key] as unknown[]).map((v, i) => (String(i) === index ? child : v));
      } else out[key] = { ...(out[key] as Json), [index]: child };
    }
    if (top || (counts.get(text) ?? 0) < 2) return out;
    let name = hint;
    for (let i = 2; taken.has(name); i++) name = `${hint}_${i}`;
    taken.add(name);
    shared.set(text, name);
    added[name] = out;
    return { $ref: `#/components/schemas/${name}` };
  };
  const result: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    result[name] = holdsRef(schema) ? schema : rewrite(schema, name, true);
  }
  return inlineSingles({ ...result, ...added }, new Set(Object.keys(added)));
}

/**
 * Put back inline the added components referenced once only (a part that
 * repeats only inside a repeated whole).
 */
function inlineSingles(schemas: Record<string, Json>, added: Set<string>): Record<string, Json> {
  const refs = new Map<string, number>();
  const tally = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(tally);
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const name = ref.slice("#/components/schemas/".length);
      refs.set(name, (refs.get(name) ?? 0) + 1);
    }
    Object.values(node).forEach(tally);
  };
  tally(schemas);
  const single = new Set([...added].filter((name) => refs.get(name) === 1));
  const expand = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(expand);
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === "string" && single.has(ref.slice("#/components/schemas/".length))) {
      return expand(schemas[ref.slice("#/components/schemas/".length)]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v)]));
  };
  const out: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!single.has(name)) out[name] = expand(schema) as Json;
  }
  return out;
}
