/**
 * The shape of lib/ as its module graph and files show it (`deno info`, type
 * imports included): no import loop of more than two files, no file over
 * 500 lines, a `@module` header on every file, and none of the leaks
 * between layers that issue 36 closed (a RouterOS word in lib/ssh, home
 * expansion outside the configuration, a module-level registry the
 * simulator's menus import back, a tool special-cased by its name).
 */
import assert from "node:assert/strict";

const LIB = new URL("../../lib/", import.meta.url);
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** Every .ts file of lib/, as paths relative to it (`tools/catalogue.ts`). */
function libFiles(dir = LIB, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) out.push(...libFiles(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`));
    else if (e.name.endsWith(".ts")) out.push(prefix + e.name);
  }
  return out.sort();
}

const FILES = libFiles();

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** lib's import graph (code and type imports), by path relative to lib/. */
async function importGraph(): Promise<Map<string, Set<string>>> {
  const dir = await Deno.makeTempDir({ prefix: "module-graph-" });
  try {
    const root = `${dir}/all.ts`;
    await Deno.writeTextFile(
      root,
      FILES.map((f) => `import "${new URL(f, LIB).href}";\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", CONFIG, root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
    const graph = new Map<string, Set<string>>();
    const rel = (s: string) => s.startsWith(LIB.href) ? s.slice(LIB.href.length) : undefined;
    for (const m of info.modules) {
      const from = rel(m.specifier);
      if (!from) continue;
      const deps = new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const to of [d.code?.specifier, d.type?.specifier]) {
          const r = to && rel(to);
          if (r) deps.add(r);
        }
      }
      graph.set(from, deps);
    }
    return graph;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The strongly connected components of a graph with more than one file (Tarjan). */
function loops(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * Whether a component holds a loop of more than two files: it does when one
 * import in it is not answered by an import back (the way back is then a
 * path of two files or more), or when its mutual pairs close a ring.
 */
function hasLongLoop(part: string[], graph: Map<string, Set<string>>): string | undefined {
  const inPart = new Set(part);
  let mutualPairs = 0;
  for (const a of part) {
    for (const b of graph.get(a) ?? []) {
      if (!inPart.has(b)) continue;
      if (!graph.get(b)?.has(a)) return `${a} imports ${b}, which reaches ${a} through others`;
      if (a < b) mutualPairs++;
    }
  }
  return mutualPairs >= part.length ? "its two-file loops close a ring" : undefined;
}

Deno.test("lib/ has no import loop of more than two files (type imports count)", async () => {
  const graph = await importGraph();
  assert.ok(graph.size >= FILES.length, `deno info saw ${graph.size} of ${FILES.length} files`);
  const long = loops(graph).flatMap((part) => {
    const why = hasLongLoop(part, graph);
    return why ? [`${part.join(", ")}: ${why}`] : [];
  });
  assert.deepEqual(long, []);
  // The check can fail: a three-file ring is a long loop, a pair is not.
  const ring = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])]]);
  assert.ok(hasLongLoop(loops(ring)[0], ring));
  const pair = new Map([["a", new Set(["b"])], ["b", new Set(["a"])]]);
  assert.equal(hasLongLoop(loops(pair)[0], pair), undefined);
});

Deno.test("every file of lib/ is at most 500 lines and starts with a @module header", () => {
  for (const f of FILES) {
    const text = Deno.readTextFileSync(new URL(f, LIB));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    assert.ok(lines <= 500, `lib/${f} has ${lines} lines`);
    const header = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? "";
    assert.match(header, /@module/, `lib/${f} has no @module header`);
  }
});

Deno.test("every file of lib/ and main.ts is Latin-1: V8 holds a module's whole source (with its inline source map) at two bytes a character once one character is beyond it", () => {
  // `→` in one comment doubled a 49,604-character module; a string that
  // needs such a character says it as an escape (`"\\u2192"`), which stays.
  for (const f of [...FILES.map((f) => `lib/${f}`), "main.ts"]) {
    const text = Deno.readTextFileSync(new URL(`../../${f}`, import.meta.url));
    const at = text.search(/[\u0100-\uffff]/);
    if (at < 0) continue;
    const line = text.slice(0, at).split("\n").length;
    assert.fail(
      `${f}:${line} has ${JSON.stringify(text[at])}: write it as an escape in a string ` +
        `("\\u${text.charCodeAt(at).toString(16).padStart(4, "0")}") or in ASCII in a comment`,
    );
  }
});

Deno.test("no leaks between layers: each word and each concern stays in its layer", async () => {
  const graph = await importGraph();
  const read = (f: string) => Deno.readTextFileSync(new URL(f, LIB));
  for (const f of FILES.filter((f) => f.startsWith("ssh/"))) {
    // The SSH layer: no RouterOS menus, and nothing above it.
    assert.doesNotMatch(read(f), /\bmenus?\b/, `lib/${f} speaks of menus`);
    for (const to of graph.get(f) ?? []) {
      assert.ok(
        to.startsWith("ssh/") || ["log.ts", "echo.ts"].includes(to),
        `lib/${f} imports lib/${to}`,
      );
    }
  }
  // Home expansion is the configuration's.
  for (const f of FILES) {
    if (f.startsWith("config/")) continue;
    assert.doesNotMatch(read(f), /\bexpandHome\b/, `lib/${f} expands ~`);
  }
  // Address predicates are not borrowed from the argument checks.
  for (const [from, deps] of graph) {
    if (from.startsWith("routeros/schema/") || from.startsWith("tools/")) continue;
    assert.ok(!deps.has("routeros/schema/validate.ts"), `lib/${from} imports schema/validate.ts`);
  }
  // The simulator's registry is imported by its assembly only.
  const registryUsers = [...graph].filter(([, deps]) => deps.has("sim/menus/registry.ts"))
    .map(([from]) => from);
  assert.deepEqual(registryUsers, ["sim/router.ts"]);
  // What a server offers follows tool properties, not tool names.
  assert.doesNotMatch(read("server/tool_selection.ts"), /"router_\w+"/);
  assert.doesNotMatch(read("tools/guard/runner.ts"), /as RouterOsClient/);
});
