/**
 * The simulator shares no RouterOS parsing, quoting or command building with
 * the product, so that each checks the other: of the product's modules it
 * imports only the release arithmetic (`lib/routeros/release.ts`) and the
 * socket write batching (`lib/ssh/write_batching.ts`, which knows nothing of
 * RouterOS). Read from the import statements of every file in lib/sim.
 */
import assert from "node:assert/strict";

const SIM = new URL("../../lib/sim/", import.meta.url);
const ALLOWED = new Set(["lib/routeros/release.ts", "lib/ssh/write_batching.ts"]);

function* files(dir: URL): Generator<URL> {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) yield* files(new URL(`${e.name}/`, dir));
    else if (e.name.endsWith(".ts")) yield new URL(e.name, dir);
  }
}

Deno.test("lib/sim imports only release.ts and write_batching.ts from the product", () => {
  const root = new URL("../../", import.meta.url).href;
  const outside: string[] = [];
  let checked = 0;
  for (const file of files(SIM)) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(/(?:from|import)\s+"(\.{1,2}\/[^"]+)"/g)) {
      const target = new URL(m[1], file).href;
      checked++;
      if (target.startsWith(SIM.href)) continue;
      const rel = target.slice(root.length);
      if (!ALLOWED.has(rel)) outside.push(`${file.href.slice(root.length)} imports ${rel}`);
    }
  }
  assert.ok(checked > 100, `only ${checked} imports read`);
  assert.deepEqual(outside, []);
});
