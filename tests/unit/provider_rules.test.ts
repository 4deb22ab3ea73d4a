/**
 * Every `tools/list` entry is one that the model providers behind MCP
 * clients accept, so that enabling a toolset never costs an agent its
 * session:
 *
 * - Anthropic (Claude Desktop, Claude Code, Bedrock), Vertex/Gemini and
 *   Azure OpenAI refuse a request whose tool list has an input schema with
 *   `anyOf`, `oneOf` or `allOf` at its root (`input_schema does not support
 *   oneOf, allOf, or anyOf at the top level`); `not` and `if`/`then`/`else`
 *   fare no better. The root is `type: "object"`, input schemas carry no
 *   `$ref` or `$defs` at any depth, and property keys match
 *   `^[a-zA-Z0-9_.-]{1,64}$` (Anthropic's rule).
 * - OpenAI: tool names match `^[a-zA-Z0-9_-]{1,64}$` and descriptions stay
 *   under 1,024 characters (titles and property descriptions too, here).
 * - "Give id or name" (`requireOneOf`) is said in words, in the tool's or a
 *   property's description, and checked at call time.
 *
 * The entries are the real ones (`ToolList.entry`) of every tool of every
 * toolset, with `--allow-raw-commands` and the discovery tools, in single
 * mode and in fleet mode (where tools take `device`). They do not depend on
 * the RouterOS release: the catalogue and `ToolList` take none (a release
 * decides at call time, where a menu it lacks answers "needs RouterOS
 * 7.x"), so one pass covers 6.49, 7.12 to 7.16 and 7.17 on. The first test
 * fails if that ever changes, and this file must then loop over the
 * releases.
 */
import assert from "node:assert/strict";
import { ToolList } from "../../lib/server/tool_list.ts";
import { selectTools } from "../../lib/server/tool_selection.ts";
import { catalogue } from "../../lib/tools/catalogue.ts";
import type { ToolDef } from "../../lib/tools/tool.ts";
import { serveInProcess } from "../helpers/in_process.ts";
import { callTool } from "../helpers/mcp.ts";

type Json = Record<string, unknown>;

const COMPOSITION = ["anyOf", "oneOf", "allOf", "not", "if", "then", "else"];
const REFERENCES = ["$ref", "$defs", "definitions"];
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const MAX_DESCRIPTION = 1024;

/** Every tool a server can offer: all toolsets, raw commands, the discovery tools. */
function everyTool(): ToolDef[] {
  const selection = selectTools({
    settings: {
      toolsets: ["all"],
      "read-only": false,
      "allow-raw-commands": true,
      "dynamic-toolsets": true,
    },
  });
  return selection.all.filter((t) => selection.offered.has(t.name));
}

const tools = everyTool();
const MODES = [
  { mode: "single device", list: new ToolList([]) },
  { mode: "fleet", list: new ToolList(["edge-1", "core.lab", "branch office"]) },
];

/** The schemas nested in `schema` (properties, items, compositions), with their paths. */
function* subschemas(schema: Json, path: string): Generator<[string, Json]> {
  yield [path, schema];
  for (const [k, v] of Object.entries(schema.properties as Json ?? {})) {
    yield* subschemas(v as Json, `${path}.${k}`);
  }
  for (const key of ["items", "additionalProperties"]) {
    const v = schema[key];
    if (v && typeof v === "object") yield* subschemas(v as Json, `${path}[${key}]`);
  }
  for (const key of COMPOSITION) {
    const v = schema[key];
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) yield* subschemas(x, `${path}.${key}[${i}]`);
    }
  }
}

/** Every key used anywhere in `v`, with the path where it first appears. */
function keysIn(v: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(v)) v.forEach((x, i) => keysIn(x, `${path}[${i}]`, out));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (!out.has(k)) out.set(k, `${path}/${k}`);
      keysIn(x, `${path}/${k}`, out);
    }
  }
  return out;
}

Deno.test("tools/list entries take no release: one pass covers every release", () => {
  // `catalogue()` and `new ToolList(titles)` are all an entry is made from.
  assert.equal(catalogue.length, 0, "catalogue() takes an argument now: check per release");
  assert.equal(ToolList.length, 1, "ToolList takes more than device titles: check per release");
  assert.ok(tools.length > 700, `${tools.length} tools`);
  assert.ok(tools.some((t) => t.name === "router_run_command"), "raw commands are covered");
  assert.ok(tools.some((t) => t.name === "router_enable_toolsets"), "discovery is covered");
});

for (const { mode, list } of MODES) {
  Deno.test(`${mode}: input schemas are flat objects without composition or $ref`, () => {
    const problems: string[] = [];
    for (const tool of tools) {
      const input = list.entry(tool).inputSchema as Json;
      if (input.type !== "object") problems.push(`${tool.name}: root type ${input.type}`);
      for (const k of COMPOSITION) {
        if (k in input) problems.push(`${tool.name}: ${k} at the root of its input schema`);
      }
      for (const [k, where] of keysIn(input)) {
        if (REFERENCES.includes(k)) problems.push(`${tool.name}: ${k} at ${where}`);
      }
      for (const [path, sub] of subschemas(input, "input")) {
        for (const key of Object.keys(sub.properties as Json ?? {})) {
          if (!PROPERTY_KEY.test(key)) problems.push(`${tool.name}: property key ${path}.${key}`);
        }
      }
    }
    assert.deepEqual(problems, [], `${problems.length} problems`);
  });

  Deno.test(`${mode}: output schemas are objects at the root`, () => {
    for (const tool of tools) {
      const output = list.entry(tool).outputSchema as Json | undefined;
      if (!output) continue;
      assert.equal(output.type, "object", tool.name);
      for (const k of COMPOSITION) assert.ok(!(k in output), `${tool.name}: ${k} at the root`);
      // Output schemas are not sent to a model (clients check results against them): the one
      // reference they hold is to an earlier sibling (an update's `after` is its `before`).
      for (const [path, sub] of subschemas(output, "output")) {
        if (!("$ref" in sub)) continue;
        const target = /^#\/properties\/(\w+)$/.exec(String(sub.$ref))?.[1];
        assert.ok(target && target in (output.properties as Json), `${tool.name}: ${path}`);
      }
    }
  });

  Deno.test(`${mode}: names, titles and descriptions fit every provider`, () => {
    const problems: string[] = [];
    const names = new Set<string>();
    for (const tool of tools) {
      const e = list.entry(tool);
      if (!NAME.test(e.name)) problems.push(`${e.name}: name`);
      // Claude Code names a tool mcp__<server>__<tool> and the model takes 64 characters: with
      // the server named "router" (docs/clients.md), a tool name has 51.
      if (`mcp__router__${e.name}`.length > 64) problems.push(`${e.name}: too long to prefix`);
      if (names.has(e.name)) problems.push(`${e.name}: listed twice`);
      names.add(e.name);
      const texts: [string, unknown][] = [["description", e.description], ["title", e.title]];
      for (const [path, sub] of subschemas(e.inputSchema as Json, "input")) {
        if ("description" in sub) texts.push([`${path} description`, sub.description]);
        if ("title" in sub) texts.push([`${path} title`, sub.title]);
      }
      for (const [what, text] of texts) {
        if (typeof text !== "string" || !text.trim() || text.length >= MAX_DESCRIPTION) {
          problems.push(`${e.name}: ${what} (${typeof text}, ${String(text).length} characters)`);
        }
      }
    }
    assert.deepEqual(problems, [], `${problems.length} problems`);
  });
}

Deno.test("'id or name' is said in words once per tool, and checked at call time", () => {
  const list = MODES[0].list;
  const choosing = tools.filter((t) => t.requireOneOf?.length);
  assert.ok(choosing.length > 200, `${choosing.length} tools take one of two arguments`);
  for (const tool of choosing) {
    const e = list.entry(tool);
    const [first, second] = tool.requireOneOf!;
    const texts = [e.description ?? ""];
    for (const [, sub] of subschemas(e.inputSchema as Json, "input")) {
      if (typeof sub.description === "string") texts.push(sub.description);
    }
    const sentence = new RegExp(`\\bgive ${first} or ${second}\\b`, "i");
    const saying = texts.filter((t) => sentence.test(t));
    assert.equal(saying.length, 1, `${tool.name}: "give ${first} or ${second}" said once`);
    const props = e.inputSchema.properties as Json;
    assert.ok(first in props && second in props, `${tool.name}: both arguments are listed`);
    assert.ok(!(e.inputSchema.required ?? []).includes(first), `${tool.name}: ${first} optional`);
  }
});

Deno.test("without id or name, a call is refused with one clear sentence, before SSH", async () => {
  // Nothing listens on port 9 of this host: the check comes before any connection.
  const session = await serveInProcess(["--host", "127.0.0.1", "--port", "9"]);
  try {
    for (
      const [tool, args, text] of [
        ["router_get_interface", {}, "router_get_interface: give id or name to say which item"],
        ["router_update_pppoe_server", { dry_run: true }, "give id or service_name"],
        ["router_run_script", { confirm: true }, "give id or name"],
        ["router_prune_snapshots", { dry_run: true }, "give keep or older_than_days"],
      ] as const
    ) {
      const r = await callTool(session, tool, args);
      assert.equal(r.isError, true, tool);
      assert.ok(r.content[0].text.includes(text), `${tool}: ${r.content[0].text}`);
    }
  } finally {
    await session.close();
  }
});
