/**
 * Regenerate the generated parts of the docs: the options table in
 * README.md (between the `options:begin`/`options:end` markers).
 * `deno run -A scripts/gen_docs.ts` writes them; `--check` fails when stale.
 *
 * @module
 */
import { SETTINGS } from "../lib/config/settings.ts";

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

/** Every generated file and its new content. */
export async function generated(): Promise<Map<string, string>> {
  const root = new URL("../", import.meta.url);
  const readme = new URL("README.md", root);
  const out = new Map<string, string>();
  out.set(
    readme.pathname,
    await formatMarkdown(splice(await Deno.readTextFile(readme), "options", optionsTable())),
  );
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
  Deno.exit(check && stale ? 1 : 0);
}
