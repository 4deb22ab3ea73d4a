/**
 * Titles come from each menu's noun (declared beside its tools with
 * `noun()`), never from trimming an "s": every engine tool's title is its
 * verb and the menu's proper singular or plural, plurals follow English
 * spelling unless declared irregular, and no title carries a broken
 * singular ("addresse", "entrie", "polic").
 */
import assert from "node:assert/strict";
import { catalogue, MENU_TOOLS } from "../../lib/tools/catalogue.ts";
import { noun, pluralOf } from "../../lib/tools/menu_tools/spec.ts";

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

Deno.test("plurals: …s, …es after s, x, sh or ch, …ies after a consonant and y; irregular as given", () => {
  assert.deepEqual(
    ["port", "address", "box", "mesh", "switch", "entry", "policy", "key", "NAS"].map(pluralOf),
    ["ports", "addresses", "boxes", "meshes", "switches", "entries", "policies", "keys", "NASes"],
  );
  assert.deepEqual(noun("ip_address", "IPv4 address"), {
    one: "IPv4 address",
    many: "IPv4 addresses",
    stem: "ip_address",
    stems: "ip_addresses",
  });
  assert.deepEqual(
    noun("ipsec_profile", "IPsec profile (phase 1)", { many: "IPsec profiles (phase 1)" }).many,
    "IPsec profiles (phase 1)",
  );
  assert.equal(
    noun("ipv6_nd", "IPv6 ND entry", { stems: "ipv6_nd_entries" }).stems,
    "ipv6_nd_entries",
  );
});

Deno.test("every engine tool's title is its verb and its menu's proper noun", () => {
  const tools = new Map(catalogue().map((t) => [t.name, t]));
  let checked = 0;
  const stems = new Map<string, string>();
  for (const spec of MENU_TOOLS) {
    const other = stems.get(spec.noun.stem);
    assert.ok(!other, `${spec.schema.path} and ${other} both name their tools ${spec.noun.stem}`);
    stems.set(spec.noun.stem, spec.schema.path);
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
