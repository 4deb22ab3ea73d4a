/**
 * The examples of README.md and docs/*.md, run as written.
 *
 * Every fenced `sh`, `bash`, `json` and `yaml` block is one of:
 *
 * - **run**: each shell command runs in bash as typed, against the demo or
 *   simulated routers (tests/helpers/doc_sh_runner.ts says what "works" is
 *   for a one-shot command, a server on stdio or HTTP, the proxy, the
 *   simulator, curl); each stdio entry of a client configuration
 *   (`mcpServers`, VS Code's `servers`) is started as that client would and
 *   used by an MCP client; each tool call (`{"name", "arguments"}`) is sent
 *   to a server over a simulated fleet (tests/helpers/doc_calls.ts);
 * - **checked**: a result is held against its tool's output schema, an
 *   inventory is read by the product's inventory parser, a keys file by its
 *   keys parser, an `mcpServers` configuration by the proxy's parser, a
 *   lone `ROUTER_*=...` line by the server (`--print-config`);
 * - **marked**: the page says why it cannot run here with an HTML comment
 *   on the line before the fence, in one of the words of `MARKERS`
 *   (tests/helpers/doc_blocks.ts):
 *
 *       <!-- example: needs a router -->
 *
 *   A marked block is still parsed (JSON, YAML), and each command of it
 *   that runs this product (`mcp-server-router ...`, `deno run ... main.ts`,
 *   also after `--` of `claude mcp add` or the Inspector) is checked with
 *   `--print-config` (or run as is, when it asks for `--version` or
 *   `--help`).
 *
 * The project's own tasks (`deno task test|bench|docs`, a `bench/*.ts` script, `.ci/run`) and the
 * install line (tests/config_docs_commands.test.ts runs it) are not run.
 * Placeholders (the reader's router, paths, port 8000) are replaced as
 * tests/helpers/doc_placeholders.ts lists. A block of another language
 * (`text`, `nginx`, `python`) is not an example this test runs.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { hashKey, parseApiKeys } from "../lib/auth/api_keys.ts";
import { parseInventory } from "../lib/config/inventory.ts";
import { parseProxyConfig } from "../lib/proxy/config_file.ts";
import { type DocBlock, docBlocks, MARKERS, shCommands } from "./helpers/doc_blocks.ts";
import { isCall, jsonValues, runCalls } from "./helpers/doc_calls.ts";
import { checkStdio } from "./helpers/doc_mcp.ts";
import { type ServerEntry, substituteEntry, substitutePaths } from "./helpers/doc_placeholders.ts";
import { type Outcome, runShBlock } from "./helpers/doc_sh_runner.ts";
import { ShSession } from "./helpers/doc_shell.ts";
import { DocWorld } from "./helpers/doc_world.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** README.md and every page of docs/ (docs/tools.md is generated from the registry). */
const PAGES = [
  "README.md",
  ...[...Deno.readDirSync(`${ROOT}docs`)]
    .filter((e) => e.isFile && e.name.endsWith(".md") && e.name !== "tools.md")
    .map((e) => `docs/${e.name}`)
    .sort(),
];

const EXAMPLES = new Set(["sh", "bash", "json", "yaml"]);

const blocks: DocBlock[] = PAGES.flatMap((page) =>
  docBlocks(page, Deno.readTextFileSync(`${ROOT}${page}`))
);

/** The `mcpServers` (or `servers`) object of a configuration block. */
function servers(block: DocBlock): Record<string, ServerEntry> | undefined {
  try {
    const v = JSON.parse(block.text);
    return v.mcpServers ?? v.servers;
  } catch {
    return undefined;
  }
}

/**
 * The proxy configuration a shell block's `proxy --config proxy.json`
 * means: the page's `mcpServers` block nearest before it, else the first
 * after it.
 */
function proxyConfigFor(block: DocBlock): DocBlock | undefined {
  const page = blocks.filter((b) => b.page === block.page && b.lang === "json" && servers(b));
  return page.filter((b) => b.line < block.line).at(-1) ?? page.find((b) => b.line > block.line);
}

const PRODUCT = /(?:^|\s)((?:mcp-server-router|deno run [^|;&]*?main\.ts)(?=\s|$)[^|;&]*)/;

/** A marked block: parsed, and its product commands checked without a router. */
async function checkMarked(block: DocBlock, world: DocWorld): Promise<Outcome[]> {
  const where = `${block.page}:${block.line}`;
  const why = `marked "${block.marker}"`;
  if (block.lang === "json") {
    JSON.parse(block.text);
    return [{ where, kind: "marked", what: `${why}; the JSON parses` }];
  }
  if (block.lang === "yaml") {
    parseYaml(block.text);
    return [{ where, kind: "marked", what: `${why}; the YAML parses` }];
  }
  const out: Outcome[] = [];
  const cwd = await world.workDir();
  const sh = new ShSession(cwd, world.env);
  for (const cmd of shCommands(block)) {
    const found = PRODUCT.exec(cmd.text)?.[1];
    const text = substitutePaths(cmd.text, world);
    const product = found && substitutePaths(found, world);
    const w = `${block.page}:${cmd.line}`;
    if (!product || /\bmcp-server-router (sim|proxy|audit|auth|healthcheck)\b/.test(product)) {
      out.push({ where: w, kind: "marked", what: why });
      continue;
    }
    const env = [...text.matchAll(/(?:^|\s)-e\s+([A-Z_][A-Z0-9_]*=\S*)/g)].map((m) => m[1]);
    const line = /--(version|help)\b|\s-V\b/.test(product)
      ? product
      : `${product} --print-config > /dev/null`;
    const r = await sh.run(`${env.join(" ")} ${line}`.trim());
    out.push({
      where: w,
      kind: "marked",
      what: `${why}; its server command is checked (${
        line.includes("--print-config") ? "--print-config" : "as is"
      })`,
      ...(r.code === 0 ? {} : { error: `${line}: exit ${r.code}: ${r.stderr.slice(-800)}` }),
    });
  }
  return out;
}

/** A configuration block: every stdio entry started and used, and the proxy reads it. */
async function runConfig(block: DocBlock, world: DocWorld): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const where = `${block.page}:${block.line}`;
  if (JSON.parse(block.text).mcpServers) {
    parseProxyConfig(block.text, where);
    out.push({ where, kind: "checked", what: "the proxy reads it as its configuration" });
  }
  const cwd = await world.workDir();
  const entries = await Promise.all(
    Object.entries(servers(block)!).map(async ([name, raw]): Promise<Outcome> => {
      const entry = await substituteEntry(raw, world);
      if (!entry.command) {
        return {
          where,
          kind: "checked",
          what: `${name}: a remote server (${raw.url}), not started`,
        };
      }
      try {
        const summary = await checkStdio({
          command: entry.command,
          args: entry.args ?? [],
          env: { ...world.env, ...entry.env },
          cwd: entry.cwd ?? cwd,
        });
        return { where, kind: "run", what: `${name}: started as a client would; ${summary}` };
      } catch (err) {
        return { where, kind: "run", what: name, error: (err as Error).message };
      }
    }),
  );
  out.push(...entries);
  return out;
}

/** A YAML block: an inventory or a keys file, read by the product's own parser. */
function checkYaml(block: DocBlock): Outcome[] {
  const where = `${block.page}:${block.line}`;
  const doc = parseYaml(block.text);
  if (doc && typeof doc === "object" && !Array.isArray(doc) && "keys" in doc) {
    const text = block.text.replace(/sha256:(<[^>]*>|\.\.\.)/g, () => hashKey(crypto.randomUUID()));
    const keys = parseApiKeys(parseYaml(text), where);
    return [{ where, kind: "checked", what: `a keys file of ${keys.length} keys (hashes put in)` }];
  }
  const devices = parseInventory(block.text, { file: where });
  return [{ where, kind: "checked", what: `an inventory of ${devices.length} devices` }];
}

/** What runs each block, in a task of its own. */
function task(block: DocBlock, world: DocWorld): (() => Promise<Outcome[]>) | undefined {
  if (block.marker !== undefined) return () => checkMarked(block, world);
  if (block.lang === "sh" || block.lang === "bash") {
    const config = proxyConfigFor(block);
    return async () => {
      const text = config && JSON.stringify(
        {
          mcpServers: Object.fromEntries(
            await Promise.all(
              Object.entries(servers(config)!).map(async (
                [n, e],
              ) => [n, await substituteEntry(e, world)]),
            ),
          ),
        },
        null,
        2,
      );
      return runShBlock(block, world, text);
    };
  }
  if (block.lang === "json" && servers(block)) return () => runConfig(block, world);
  if (block.lang === "yaml") return async () => await checkYaml(block);
  return undefined;
}

/** How long each block took, in ms. */
const took = new Map<string, number>();

async function timed<T>(where: string, job: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await job();
  } finally {
    took.set(where, Math.round(performance.now() - t0));
  }
}

/** Run `jobs`, at most `width` at a time. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }));
  return results;
}

Deno.test("docs examples: every block is run, checked, or marked with a known reason", () => {
  for (const b of blocks) {
    const where = `${b.page}:${b.line}`;
    if (b.marker !== undefined) {
      assert.ok(
        b.marker in MARKERS,
        `${where}: marker "${b.marker}" is not one of: ${Object.keys(MARKERS).join("; ")}`,
      );
      assert.ok(EXAMPLES.has(b.lang), `${where}: a marker on a ${b.lang || "plain"} block`);
      continue;
    }
    if (!EXAMPLES.has(b.lang)) continue;
    if (b.lang === "json" && !servers(b)) {
      assert.ok(jsonValues(b.text).length > 0, `${where}: JSON`);
    }
  }
  const calls = blocks.filter((b) => b.lang === "json" && !b.marker && !servers(b));
  assert.ok(calls.some((b) => jsonValues(b.text).some(isCall)), "tool calls are found");
  assert.ok(
    blocks.some((b) => b.page === "README.md" && /task demo/.test(b.text)),
    "the demo command",
  );
});

Deno.test("docs examples: README.md and docs/*.md run as written", async () => {
  const started = performance.now();
  const install = blocks.flatMap((b) => b.lang === "sh" ? shCommands(b) : [])
    .find((c) => c.text.startsWith("deno install"))!;
  const world = await DocWorld.open(ROOT, install.text);
  try {
    const callBlocks = blocks.filter((b) =>
      b.lang === "json" && b.marker === undefined && !servers(b)
    );
    const jobs: (() => Promise<Outcome[]>)[] = [() => runCalls(callBlocks)];
    for (const b of blocks) {
      const job = EXAMPLES.has(b.lang) || b.marker ? task(b, world) : undefined;
      if (job) {
        jobs.push(() =>
          timed(`${b.page}:${b.line}`, job).catch((err) => [{
            where: `${b.page}:${b.line}`,
            kind: "run" as const,
            what: b.lang,
            error: (err as Error).message,
          }])
        );
      }
    }
    const outcomes = (await pool([() => timed("tool calls", jobs[0]), ...jobs.slice(1)], 4)).flat()
      .sort((a, b) => a.where.localeCompare(b.where, "en", { numeric: true }));
    for (const o of outcomes) {
      console.log(
        `${o.error ? "FAIL" : o.kind.padEnd(7)} ${o.where} ${o.what}${
          o.error ? `\n  ${o.error.replaceAll("\n", "\n  ")}` : ""
        }`,
      );
    }
    const others = blocks.filter((b) => !EXAMPLES.has(b.lang) && !b.marker);
    console.log(
      `not examples: ${others.map((b) => `${b.page}:${b.line} (${b.lang || "plain"})`).join(", ")}`,
    );
    console.log(
      `slowest: ${
        [...took].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([w, ms]) => `${w} ${ms} ms`).join(
          ", ",
        )
      }`,
    );
    console.log(
      `${outcomes.length} examples in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const failed = outcomes.filter((o) => o.error);
    assert.deepEqual(failed.map((o) => `${o.where}: ${o.error!.split("\n")[0]}`), []);
  } finally {
    await world.close();
  }
});
