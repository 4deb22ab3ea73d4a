/**
 * Titles come from the noun table (lib/tools/nouns.ts), never from trimming
 * an "s": every engine tool's title is its verb and the menu's proper
 * singular or plural, every noun is used, and no title carries a broken
 * singular ("addresse", "entrie", "polic").
 */
import assert from "node:assert/strict";
import { catalogue, MENU_TOOLS } from "../../lib/tools/catalogue.ts";
import { NOUNS } from "../../lib/tools/nouns.ts";

const VERB_TITLE: Record<string, (one: string, many: string, singleton: boolean) => string> = {
  list: (_one, many) => `List ${many}`,
  get: (one, _many, singleton) => (singleton ? `Show ${one}` : `Get one ${one}`),
  add: (one) => `Add ${one}`,
  update: (one) => `Update ${one}`,
  remove: (one) => `Remove ${one}`,
  enable: (one) => `Enable ${one}`,
  disable: (one) => `Disable ${one}`,
  move: (one) => `Move ${one}`,
};

Deno.test("every engine tool's title is its verb and the noun table's proper name", () => {
  const tools = new Map(catalogue().map((t) => [t.name, t]));
  const nouns = new Set<object>(Object.values(NOUNS));
  let checked = 0;
  for (const spec of MENU_TOOLS) {
    assert.ok(nouns.has(spec.noun), `${spec.schema.path}: its noun is in the table`);
    for (const verb of spec.verbs) {
      const stem = verb === "list" ? spec.noun.stems : spec.noun.stem;
      const tool = tools.get(`router_${verb}_${stem}`);
      assert.ok(tool, `router_${verb}_${stem} exists`);
      const want = VERB_TITLE[verb](
        spec.noun.one,
        spec.noun.many,
        spec.schema.kind === "singleton",
      );
      assert.equal(tool.title, want, tool.name);
      checked++;
    }
  }
  assert.ok(checked > 200, `${checked} titles checked`);
  const used = new Set<object>(MENU_TOOLS.map((m) => m.noun));
  for (const [key, noun] of Object.entries(NOUNS)) assert.ok(used.has(noun), `noun ${key} is used`);
});

Deno.test("no title in the catalogue has a broken singular or plural", () => {
  for (const t of catalogue()) {
    assert.doesNotMatch(t.title, /\b\w+(addresse|entrie|polic|statuse|rie)\b/i, t.name);
    assert.doesNotMatch(
      t.title,
      // an acronym that ends in s (RADIUS) is not a plural: the noun must start lower-case
      /\b([Aa]|[Aa]n|[Oo]ne) [a-z]\w*s\b(?! (list|settings|status))/,
      `${t.name}: ${t.title}`,
    );
  }
});
