/**
 * Regenerate the generated parts of the docs: the options table in
 * README.md (between the `options:begin`/`options:end` markers),
 * docs/tools.md (every tool of the registry), the client and toolset tables
 * of docs/clients.md, the client profiles in server.json's `_meta`, and the
 * figures of README.md and docs/*.md that the code computes (tool counts,
 * sizes, pages: `scripts/doc_figures.ts`).
 * `deno run -A scripts/gen_docs.ts` writes them; `--check` fails when stale.
 *
 * @module
 */
import { SETTINGS } from "../lib/config/settings.ts";
import { profilesTable, registryMeta, toolsetTable } from "./client_profiles.ts";
import { applyFigures, figurePages } from "./doc_figures.ts";
import { catalogueSizes, LIST_BUDGET, listedEntries } from "../lib/server/list_size.ts";
import { PAGE_BYTES } from "../lib/server/tool_pages.ts";
import { ToolList } from "../lib/server/tool_list.ts";
import { catalogue, DISCOVERY } from "../lib/tools/catalogue.ts";
import { type ToolDef, TOOLSETS } from "../lib/tools/tool.ts";

/** The README options table, from the settings table. */
export function optionsTable(): string {
  const rows = SETTINGS.map((s) => {
    const def = s.default === undefined
      ? ""
      : Array.isArray(s.default)
      ? s.default.join(",")
      : typeof s.default === "boolean"
      ? "off"
      : String(s.default);
    const flag = `\`--${s.name}${s.arg ? ` ${s.arg}` : ""}\``;
    return `| ${flag} | \`${s.env}\` | ${def === "" ? "" : `\`${def}\``} | ${s.description} |`;
  });
  return ["| flag | environment | default | what it sets |", "|---|---|---|---|", ...rows]
    .join("\n");
}

/** Replace the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->`. */
export function splice(doc: string, name: string, body: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`markers ${begin} / ${end} not found`);
  return doc.slice(0, a + begin.length) + "\n" + body + "\n" + doc.slice(b);
}

/** Format markdown the way `deno fmt` does, so generated files stay fmt-clean. */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** Every tool the server can offer (raw commands included), in catalogue order. */
export function registry(): readonly ToolDef[] {
  return catalogue();
}

/** The tool list a single-device server sends. */
const LIST = new ToolList([]);

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
};

function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(", ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" or ");
  if (s.type === "array") return `list of ${s.items ? typeOf(s.items) : "values"}`;
  let t = Array.isArray(s.type) ? s.type.join(" or ") : s.type ?? "object";
  if (s.minimum !== undefined && s.maximum !== undefined) t += ` ${s.minimum}-${s.maximum}`;
  return t;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function annotationWords(t: ToolDef): string {
  const a = t.annotations;
  return [
    a.readOnlyHint ? "read-only" : "write",
    ...(a.destructiveHint ? ["destructive"] : []),
    ...(a.idempotentHint ? ["idempotent"] : []),
    ...(a.openWorldHint ? ["open-world"] : []),
  ].join(", ");
}

function toolSection(t: ToolDef): string {
  const schema = LIST.entry(t).inputSchema as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const rows = Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const required = schema.required?.includes(name) && p.default === undefined;
    const def = p.default === undefined ? "" : ` (default \`${JSON.stringify(p.default)}\`)`;
    return `| \`${name}\` | ${cell(typeOf(p))} | ${required ? "yes" : ""} | ${
      cell((p.description ?? "") + def)
    } |`;
  });
  return [
    `### ${t.name}`,
    "",
    `**${t.title}** · toolset \`${t.toolset}\` · ${annotationWords(t)}${
      t.name === "router_run_command" ? " · only with `--allow-raw-commands`" : ""
    }`,
    "",
    t.description,
    "",
    ...(rows.length
      ? ["| argument | type | required | description |", "|---|---|---|---|", ...rows]
      : ["No arguments."]),
    ...(t.example ? ["", `Example: \`${JSON.stringify(t.example)}\``] : []),
    "",
  ].join("\n");
}

/** The `tools/list` sizes, as one sentence (docs/tools.md and the generator's output). */
export function sizeSentence(): string {
  const { default: d, all: a, pages } = catalogueSizes();
  return `\`tools/list\` of a single-device server: by default ${d.tools} tools in ` +
    `${d.bytes} bytes of JSON (budget ${LIST_BUDGET.defaultBytes}), one page; with ` +
    `\`--toolsets all\` ${a.tools} tools in ${a.bytes} bytes, ${a.average} per tool (budget ` +
    `${LIST_BUDGET.allAverage}), sent in ${pages.length} pages of at most ${PAGE_BYTES / 1024} ` +
    `KiB (the largest ${Math.max(...pages)} bytes); the largest tool is \`${a.largest.name}\` ` +
    `(${a.largest.bytes}).`;
}

/** docs/tools.md, from the registry. */
export function toolsMarkdown(): string {
  const tools = registry();
  const sets = TOOLSETS.filter((s) => tools.some((t) => t.toolset === s));
  const listed = new Set(listedEntries(["all"]).map((t) => t.name));
  const discovery = new Set(DISCOVERY.map((t) => t.name));
  const code = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");
  const others = tools.filter((t) => !listed.has(t.name) && !discovery.has(t.name));
  return [
    "# Tools",
    "",
    "<!-- Generated by scripts/gen_docs.ts from the tool registry; do not edit. Run `deno task docs`. -->",
    "",
    `${tools.length} tools in ${sets.length} toolsets: the ${listed.size} that \`--toolsets all\` ` +
    `lists, the ${discovery.size} toolset discovery tools (${code([...discovery])}) and ` +
    `${code(others.map((t) => t.name))} (only with \`--allow-raw-commands\`). ` +
    "In fleet mode (an inventory with several " +
    "devices) every per-device tool also takes `device`, the title of an inventory entry. " +
    "Write tools take `dry_run` (true: show the exact commands, change nothing); destructive " +
    "tools also need `confirm: true`.",
    "",
    sizeSentence(),
    "",
    "| toolset | tools |",
    "|---|---|",
    ...sets.map((s) => `| [\`${s}\`](#${s}) | ${tools.filter((t) => t.toolset === s).length} |`),
    "",
    ...sets.flatMap((s) => [
      `## ${s}`,
      "",
      ...tools.filter((t) => t.toolset === s).map(toolSection),
    ]),
  ].join("\n");
}

/** Every generated file and its new content. */
export async function generated(): Promise<Map<string, string>> {
  const root = new URL("../", import.meta.url);
  const readme = new URL("README.md", root);
  const out = new Map<string, string>();
  out.set(readme.pathname, splice(await Deno.readTextFile(readme), "options", optionsTable()));
  out.set(new URL("docs/tools.md", root).pathname, await formatMarkdown(toolsMarkdown()));
  const clients = new URL("docs/clients.md", root);
  out.set(
    clients.pathname,
    splice(
      splice(await Deno.readTextFile(clients), "profiles", profilesTable()),
      "toolsets",
      toolsetTable(),
    ),
  );
  for (const page of figurePages()) {
    const path = new URL(page, root).pathname;
    out.set(path, applyFigures(page, out.get(path) ?? await Deno.readTextFile(path)));
  }
  for (const [path, text] of out) {
    if (path.endsWith(".md") && !path.endsWith("/docs/tools.md")) {
      out.set(path, await formatMarkdown(text));
    }
  }
  const serverJson = new URL("server.json", root);
  const entry = JSON.parse(await Deno.readTextFile(serverJson));
  out.set(serverJson.pathname, JSON.stringify({ ...entry, _meta: registryMeta() }, null, 2) + "\n");
  return out;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = 0;
  for (const [path, text] of await generated()) {
    const old = await Deno.readTextFile(path).catch(() => "");
    if (old === text) continue;
    stale++;
    if (check) console.error(`${path} is stale: run deno task docs`);
    else await Deno.writeTextFile(path, text);
  }
  console.log(sizeSentence());
  Deno.exit(check && stale ? 1 : 0);
}
