/**
 * The figures of README.md and docs/*.md that the code can compute (tool
 * and toolset counts, `tools/list` sizes and pages, budgets, the proxy's
 * OpenAPI document size), rewritten in place by `deno task docs` and
 * checked by its `--check` mode. Each figure is found by the words around
 * it, so the prose stays plain markdown: a sentence rewritten so that a
 * pattern no longer matches fails the generator, naming the figure.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
import { buildOpenApi } from "../lib/proxy/openapi.ts";
import { catalogueSizes, LIST_BUDGET, listedEntries } from "../lib/server/list_size.ts";
import { PAGE_BYTES } from "../lib/server/tool_pages.ts";
import { catalogue, DISCOVERY } from "../lib/tools/catalogue.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";
import { type Setting, toolCount } from "./client_profiles.ts";

type Json = Record<string, unknown>;

/** One figure: where it is (a pattern whose groups are the numbers) and what it must say. */
export interface Figure {
  /** README.md or docs/NAME.md. */
  page: string;
  /** What the numbers are, for the error when the pattern is not found. */
  what: string;
  /** The sentence with each number as a capture group; every match is rewritten. */
  pattern: RegExp;
  /** The numbers, in the order of the groups. */
  values: () => string[];
}

const kb = (bytes: number) => String(Math.round(bytes / 1000));
const tenths = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
const count = (s: Setting) => String(toolCount(s));

/** Computed once: sizes walk the whole catalogue. */
let sizes: ReturnType<typeof catalogueSizes> | undefined;
const lists = () => sizes ??= catalogueSizes();

/**
 * The OpenAPI document the proxy serves for one child listing every tool
 * (`--toolsets all`, a key set), in bytes as sent, and the same without
 * its shared components (each `$ref` to one replaced by its schema).
 */
export function openApiSizes(): { tools: number; bytes: number; unshared: number } {
  const tools = listedEntries(["all"]);
  const doc = buildOpenApi([{ name: "router", state: "up", tools }], {
    version: denoJson.version,
    bearer: true,
  });
  const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;
  return { tools: tools.length, bytes: bytes(doc), unshared: bytes(inlineShared(doc)) };
}

/** `doc` with every component that sharing made (not Error, `*.input`, `*.output`) inlined. */
function inlineShared(doc: Json): Json {
  const schemas = (doc.components as Json).schemas as Record<string, Json>;
  const own = (name: string) =>
    name === "Error" || name.endsWith(".input") || name.endsWith(".output");
  const prefix = "#/components/schemas/";
  const expand = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(expand);
    if (node === null || typeof node !== "object") return node;
    const ref = (node as Json).$ref;
    if (
      typeof ref === "string" && ref.startsWith(prefix) && !ref.slice(prefix.length).includes("/")
    ) {
      const name = ref.slice(prefix.length);
      if (!own(name)) return expand(schemas[name]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v)]));
  };
  const kept = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => own(name)).map(([n, s]) => [n, expand(s)]),
  );
  return { ...doc, components: { ...(doc.components as Json), schemas: kept } };
}

/** The longest tool name, in characters. */
function longestName(): number {
  return Math.max(...catalogue().map((t) => t.name.length));
}

/** Every computed figure of the docs. */
export const FIGURES: readonly Figure[] = [
  {
    page: "README.md",
    what: "the tools of --toolsets all, in tens (introduction)",
    pattern: /a whole fleet, about (\d+) typed tools/,
    values: () => [String(Math.round(toolCount({ toolsets: "all" }) / 10) * 10)],
  },
  {
    page: "README.md",
    what: "the tools of --toolsets all and the toolsets",
    pattern: /^(\d+) tools \(with `--toolsets all`\) in (\d+) toolsets/m,
    values: () => [count({ toolsets: "all" }), String(TOOLSETS.length)],
  },
  {
    page: "README.md",
    what: "the sizes of tools/list",
    pattern: new RegExp(
      String.raw`single-device server lists (\d+) tools in about (\d+) KB, one page; ` +
        String.raw`\`--toolsets all\` lists (\d+) tools in\s+about (\d+) KB \(about ([\d.]+) KB ` +
        String.raw`per tool\), which \`tools/list\` sends in (\d+) pages of at most (\d+) KiB`,
    ),
    values: () => {
      const { default: d, all: a, pages } = lists();
      return [
        String(d.tools),
        kb(d.bytes),
        String(a.tools),
        kb(a.bytes),
        tenths(a.average / 1000),
        String(pages.length),
        String(PAGE_BYTES / 1024),
      ];
    },
  },
  {
    page: "README.md",
    what: "the budgets tests hold tools/list to",
    pattern: /tests hold them under (\d+) KB, ([\d.]+) KB per tool and (\d+) KiB per message/,
    values: () => [
      kb(LIST_BUDGET.defaultBytes),
      tenths(LIST_BUDGET.allAverage / 1000),
      String(PAGE_BYTES / 1024),
    ],
  },
  {
    page: "docs/clients.md",
    what: "the size of the pages of tools/list",
    pattern: /(?:in pages\*\* of at most|every page here stays under) (\d+) KiB/g,
    values: () => [String(PAGE_BYTES / 1024)],
  },
  {
    page: "docs/clients.md",
    what: "the default list and --toolsets all",
    pattern: new RegExp(
      String.raw`The default list\s+\((\d+) tools, about (\d+) KB\)[^]*?\`--toolsets all\` ` +
        String.raw`\((\d+) tools, about ([\d.]+) MB\) comes in (\d+) pages`,
    ),
    values: () => {
      const { default: d, all: a, pages } = lists();
      return [
        String(d.tools),
        kb(d.bytes),
        String(a.tools),
        tenths(a.bytes / 1e6),
        String(pages.length),
      ];
    },
  },
  {
    page: "docs/clients.md",
    what: "the tools of the default list",
    pattern: /(?:the (\d+) default tools|a session starts with (\d+) tools|`default` \((\d+)\))/g,
    values: () => [count({ toolsets: "default" })],
  },
  {
    page: "docs/clients.md",
    what: "the tools of --toolsets all (Inspector)",
    pattern: /\(all (\d+) tools with `--toolsets all`\)/,
    values: () => [count({ toolsets: "all" })],
  },
  {
    page: "docs/clients.md",
    what: "the discovery tools",
    pattern: /with only the (\d+) discovery tools/,
    values: () => [String(DISCOVERY.length)],
  },
  {
    page: "docs/clients.md",
    what: "the longest tool name",
    pattern: /the longest tool name here is (\d+)/,
    values: () => [String(longestName())],
  },
  {
    page: "docs/clients.md",
    what: "the tools of --toolsets ip,firewall,routing",
    pattern:
      /(?:`ip,firewall,routing` lists (\d+) tools|one tool of the model's\s+request: (\d+) here)/g,
    values: () => [count({ toolsets: "ip,firewall,routing" })],
  },
  {
    page: "docs/clients.md",
    what: "the tools of --toolsets firewall --read-only",
    pattern: /`--toolsets firewall --read-only` \((\d+) tools\)/,
    values: () => [count({ toolsets: "firewall", readOnly: true })],
  },
  {
    page: "docs/proxy.md",
    what: "the OpenAPI document of every tool",
    pattern:
      /for this repository's (\d+) tools \(`--toolsets all`\) the document is ([\d.]+) MB instead of ([\d.]+) MB/,
    values: () => {
      const o = openApiSizes();
      return [String(o.tools), hundredths(o.bytes), hundredths(o.unshared)];
    },
  },
];

function hundredths(bytes: number): string {
  return (Math.round(bytes / 1e4) / 100).toFixed(2);
}

/**
 * `text` of `page` with every figure rewritten; throws naming the figure
 * when its sentence is not found.
 */
export function applyFigures(page: string, text: string): string {
  for (const f of FIGURES.filter((f) => f.page === page)) {
    const values = f.values();
    const flags = f.pattern.flags.includes("d") ? f.pattern.flags : f.pattern.flags + "d";
    // A space in a pattern is any run of white space: `deno fmt` may wrap the line there.
    const re = new RegExp(f.pattern.source.replaceAll(" ", String.raw`\s+`), flags);
    let found = false;
    let out = "";
    let at = 0;
    const matches = re.global ? [...text.matchAll(re)] : [re.exec(text)].filter((m) => m !== null);
    for (const m of matches as RegExpExecArray[]) {
      found = true;
      // Groups that took part, in order: alternatives leave the others undefined.
      const groups = (m.indices ?? []).slice(1).filter((g): g is [number, number] => !!g);
      groups.forEach(([a, b], i) => {
        out += text.slice(at, a) + (values[i] ?? values[0]);
        at = b;
      });
    }
    if (!found) {
      throw new Error(
        `${page}: the sentence with ${f.what} is not found; ` +
          "reword it to match scripts/doc_figures.ts, or change the pattern there",
      );
    }
    text = out + text.slice(at);
  }
  return text;
}

/** The pages that carry figures. */
export function figurePages(): string[] {
  return [...new Set(FIGURES.map((f) => f.page))];
}
