/**
 * docs/tools.md is generated from the tool registry: the committed file must
 * match the generator, and the generator's check mode must say so (it also
 * covers the figures of README.md and docs/*.md that the code computes:
 * scripts/doc_figures.ts). README's toolset table names every toolset.
 */
import assert from "node:assert/strict";
import { applyFigures, figurePages } from "../scripts/doc_figures.ts";
import { formatMarkdown, registry, toolsMarkdown } from "../scripts/gen_docs.ts";
import { TOOLSETS } from "../lib/tools/tool.ts";
import { DENO } from "./helpers/mcp.ts";

const ROOT = new URL("../", import.meta.url);
const TOOLS_MD = new URL("docs/tools.md", ROOT);

Deno.test("docs/tools.md is up to date with the tool registry (run `deno task docs`)", async () => {
  const committed = await Deno.readTextFile(TOOLS_MD);
  const fresh = await formatMarkdown(toolsMarkdown());
  assert.equal(committed, fresh, "docs/tools.md is stale: run `deno task docs`");
});

Deno.test("docs/tools.md names every registered tool with its toolset and annotations", async () => {
  const doc = await Deno.readTextFile(TOOLS_MD);
  const tools = registry();
  assert.ok(tools.some((t) => t.name === "router_run_command"), "raw commands are documented");
  for (const t of tools) {
    const at = doc.indexOf(`### ${t.name}\n`);
    assert.ok(at >= 0, `${t.name} is documented`);
    const section = doc.slice(at, doc.indexOf("\n### ", at + 1) >>> 0 || undefined);
    assert.match(section, new RegExp(`toolset \`${t.toolset}\``), `${t.name}: toolset`);
    assert.match(section, t.annotations.readOnlyHint ? /read-only/ : /· write/, `${t.name}: hint`);
    for (const arg of Object.keys(t.input.shape)) {
      assert.ok(section.includes(`| \`${arg}\``), `${t.name}: argument ${arg}`);
    }
  }
});

Deno.test("the generator's check mode passes on the committed docs", async () => {
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", new URL("scripts/gen_docs.ts", ROOT).pathname, "--check"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
});

Deno.test("README's toolset table has one row per toolset, and its sentence names each", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const start = readme.indexOf("## Tools and toolsets");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual([...rows].sort(), [...TOOLSETS].sort(), "the table's rows are the toolsets");
  const sentence = section.slice(0, section.indexOf("Most are generated"));
  for (const t of TOOLSETS) assert.ok(sentence.includes(`\`${t}\``), `the sentence names ${t}`);
});

Deno.test("every computed figure of the docs is found where scripts/doc_figures.ts looks", async () => {
  for (const page of figurePages()) {
    const text = await Deno.readTextFile(new URL(page, ROOT));
    // Throws naming the figure whose sentence was reworded; --check (above) holds the values.
    applyFigures(page, text);
  }
});
