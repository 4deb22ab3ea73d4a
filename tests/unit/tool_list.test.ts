/**
 * The `tools/list` entries say each thing once and keep every type:
 * output schemas without descriptions or `additionalProperties`, repeated
 * properties as `$ref`, no server-wide caps restated, lean annotations;
 * and an entry collected while the server idles comes back the same.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { listedEntries } from "../../lib/server/list_size.ts";
import { ToolList } from "../../lib/server/tool_list.ts";
import { catalogue } from "../../lib/tools/catalogue.ts";

const entries = listedEntries(["all"]);
const byName = new Map(entries.map((e) => [e.name, e]));

function keysIn(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysIn(x, out));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      keysIn(x, out);
    }
  }
  return out;
}

Deno.test("output schemas carry types only, and compile as JSON Schema 2020-12", () => {
  const ajv = new Ajv2020({ strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat("cidrv4", true); // zod's name; ajv-formats has none for it
  for (const e of entries) {
    const keys = keysIn(e.outputSchema);
    assert.ok(!keys.has("description"), `${e.name}: a description in its output schema`);
    assert.ok(!keys.has("additionalProperties"), `${e.name}: additionalProperties in output`);
    ajv.compile(e.outputSchema!);
    ajv.compile(e.inputSchema);
  }
});

Deno.test("an update's `after` is a $ref to its `before`", () => {
  const out = byName.get("router_update_firewall_filter_rule")!.outputSchema!;
  const props = out.properties as Record<string, Record<string, unknown>>;
  assert.equal((props.before.properties as Record<string, unknown>).chain !== undefined, true);
  assert.deepEqual(props.after, { $ref: "#/properties/before" });
});

Deno.test("the 4 KiB text and 1000-entry list caps are not restated; other bounds are", () => {
  const add = byName.get("router_add_firewall_filter_rule")!.inputSchema;
  const props = add.properties as Record<string, Record<string, unknown>>;
  assert.equal(props.comment.maxLength, undefined);
  assert.equal(props.connection_state.maxItems, undefined);
  const ping = byName.get("router_ping")!.inputSchema.properties as Record<string, object>;
  assert.ok(JSON.stringify(ping).includes('"maximum"'), "ping keeps its own bounds");
});

Deno.test("annotations: no title copy; reads say only readOnlyHint and openWorldHint", () => {
  for (const e of entries) {
    const a = e.annotations!;
    assert.equal(a.title, undefined, e.name);
    assert.equal(typeof a.readOnlyHint, "boolean", e.name);
    assert.equal(typeof a.openWorldHint, "boolean", e.name);
    if (a.readOnlyHint) assert.deepEqual(Object.keys(a).sort(), ["openWorldHint", "readOnlyHint"]);
    else assert.equal(typeof a.destructiveHint, "boolean", e.name);
  }
});

Deno.test("dry_run, confirm and an item id are typed without a per-tool description", () => {
  const remove = byName.get("router_remove_ip_address")!.inputSchema;
  const props = remove.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.dry_run, { type: "boolean" });
  assert.deepEqual(props.confirm, { type: "boolean" });
  assert.equal(typeof props.id.pattern, "string");
});

Deno.test("a menu's notes are said once, on its add (else update, list, get) tool", () => {
  const notes = "Rules run top to bottom within their chain";
  const carrying = entries.filter((e) =>
    e.name.endsWith("_firewall_filter_rule") || e.name.endsWith("_firewall_filter_rules")
  ).filter((e) => e.name.includes("ipv6") === false && e.description?.includes(notes));
  assert.deepEqual(carrying.map((e) => e.name), ["router_add_firewall_filter_rule"]);
  const resource = byName.get("router_get_system_resource")!;
  assert.match(resource.description!, /Memory and disk are bytes/, "a read-only menu: on get");
});

Deno.test("an entry collected while idle comes back the same from its JSON (entries are held weakly)", async () => {
  const v8 = await import("node:v8");
  const vm = await import("node:vm");
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const tool = catalogue().find((t) => t.name === "router_update_ip_address")!;
  const list = new ToolList(["r1", "r2"]);
  let first: object | undefined = list.entry(tool);
  const text = JSON.stringify(first);
  const weak = new WeakRef(first);
  first = undefined;
  // A WeakRef's target lives to the end of the job that made or read it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  assert.equal(weak.deref(), undefined, "the entry's object was kept after a full collection");
  const again = list.entry(tool);
  assert.equal(JSON.stringify(again), text);
  assert.equal(list.entry(tool), again, "the entry made again is shared while held");
});
