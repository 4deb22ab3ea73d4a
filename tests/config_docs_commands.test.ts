/**
 * The install line of README.md and docs/install.md, run as written, and
 * the commands the prose names inline (`mcp-server-router ...` in
 * backquotes), run with the command it installs.
 *
 * A copy of the checkout gets the documented `deno install` line, run for
 * real with a temporary HOME and DENO_INSTALL_ROOT; then `--help`,
 * `--version` and every inline `mcp-server-router ...` example run through
 * bash with the installed command on PATH, and must exit 0. A line that
 * needs a router, the network or a long-running server is skipped, with
 * its reason printed; any line no rule explains is run, so a new example is
 * tested by default. The fenced examples of every page are
 * tests/docs_examples.test.ts's.
 */
import assert from "node:assert/strict";
import { childEnv, DENO } from "./helpers/env.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DOCS = ["README.md", "docs/install.md"];

/** Why an inline example is not run, by what it contains; the first match wins. */
const SKIP: [RegExp, string][] = [
  [/\bproxy --config\b|healthcheck --url/, "a long-running service or its client"],
  [/--host 192\.168\.88\.1 --username|--inventory-file inventory\.yaml/, "needs a router"],
  [/\b(FILE|U|F)\b|X\.Y\.Z|<name/, "a synopsis with a placeholder"],
  [/^mcp-server-router (proxy|sim|audit|healthcheck)$/, "a subcommand named in prose"],
];

/** How a failed download reads. */
const NETWORK_ERROR = /error sending request|Failed caching npm package|dns error|certificate/i;

/** The parent's TLS and proxy settings, which a registry download needs. */
function passThrough(): Record<string, string> {
  const names = [
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "DENO_CERT",
    "DENO_TLS_CA_STORE",
  ];
  for (const p of ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]) names.push(p, p.toLowerCase());
  return Object.fromEntries(names.flatMap((n) => Deno.env.get(n) ? [[n, Deno.env.get(n)!]] : []));
}

/** Lines that start an MCP server on stdio: run with stdin closed, so they stop at once. */
const STDIO_SERVER = /--simulate\b|deno task demo\b/;

interface DocLine {
  doc: string;
  line: string;
  /** Named inline in the prose, not in a fenced block. */
  inline?: boolean;
}

/** The command lines of a markdown file: sh blocks (continuations joined) and inline examples. */
function commandLines(doc: string, text: string): DocLine[] {
  const out: DocLine[] = [];
  for (const block of text.matchAll(/^\s*```sh\n([\s\S]*?)^\s*```/gm)) {
    const joined = block[1].replace(/\\\n\s*/g, "");
    for (const line of joined.split("\n")) {
      const bare = line.replace(/\s+#\s.*$/, "").trim();
      if (bare !== "") out.push({ doc, line: bare });
    }
  }
  for (
    const span of text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`(mcp-server-router [^`]+)`/g)
  ) {
    out.push({ doc, line: span[1].replace(/\s+/g, " "), inline: true });
  }
  return out;
}

function skipReason(line: string): string | undefined {
  return SKIP.find(([re]) => re.test(line))?.[1];
}

/** A copy of the checkout: what `deno install` and the examples need. */
async function checkout(dir: string): Promise<void> {
  for (const path of ["main.ts", "deno.json", "deno.lock", "lib", "docs"]) {
    const cp = await new Deno.Command("cp", { args: ["-r", `${ROOT}${path}`, `${dir}/`] }).output();
    assert.ok(cp.success, `copy ${path}`);
  }
}

async function bash(line: string, cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("bash", {
    args: ["-c", line],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const lines = DOCS.flatMap((doc) => commandLines(doc, Deno.readTextFileSync(`${ROOT}${doc}`)));

Deno.test("docs: the command lines are found, and the install line is the same everywhere", () => {
  const installs = lines.filter((l) => l.line.startsWith("deno install"));
  assert.ok(installs.length >= 2, "README.md and docs/install.md both show the install line");
  assert.equal(new Set(installs.map((l) => l.line)).size, 1, "one install line");
  assert.match(installs[0].line, /--config deno\.json/);
  for (const must of ["mcp-server-router --help", "mcp-server-router --version"]) {
    assert.ok(lines.some((l) => l.line === must), `${must} is shown`);
  }
});

Deno.test("docs: the install line works in a fresh HOME, and the inline examples run with it", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "docs-commands-" });
  const repo = `${tmp}/mcp-server-router`;
  const root = `${tmp}/deno-root`;
  await Deno.mkdir(repo);
  await Deno.mkdir(`${tmp}/home`);
  await checkout(repo);
  const denoBin = DENO.slice(0, DENO.lastIndexOf("/"));
  const env = childEnv({
    ...passThrough(),
    DENO_INSTALL_ROOT: root,
    PATH: `${root}/bin:${denoBin}:/usr/local/bin:/usr/bin:/bin`,
  }, `${tmp}/home`);
  try {
    const install = lines.find((l) => l.line.startsWith("deno install"))!;
    const installed = await bash(install.line, repo, env);
    if (installed.code !== 0 && NETWORK_ERROR.test(installed.stderr)) {
      // `deno install -g` ignores deno.lock, so npm packages that a newer
      // transitive version needs come from the registry.
      const why = installed.stderr.split("\n").find((l) => NETWORK_ERROR.test(l));
      console.log(`skip: the install line needs the npm registry, unreachable here: ${why}`);
      return;
    }
    assert.equal(installed.code, 0, `${install.line}\n${installed.stderr}`);
    assert.ok((await Deno.stat(`${root}/bin/mcp-server-router`)).isFile, "the command exists");

    const seen = new Set<string>([install.line]);
    let ran = 0;
    const withInstalled: DocLine[] = [
      { doc: install.doc, line: "mcp-server-router --help" },
      { doc: install.doc, line: "mcp-server-router --version" },
      ...lines.filter((l) => l.inline),
    ];
    for (const { doc, line } of withInstalled) {
      if (seen.has(line)) continue;
      seen.add(line);
      const why = skipReason(line);
      if (why) {
        console.log(`skip (${why}): ${doc}: ${line}`);
        continue;
      }
      const r = await bash(line, repo, env);
      assert.equal(r.code, 0, `${doc}: ${line}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      // (sim prints its help on stderr: lib/sim keeps stdout for --stdio-cli.)
      if (!STDIO_SERVER.test(line)) {
        assert.notEqual((r.stdout + r.stderr).trim(), "", `${line} prints something`);
      }
      console.log(`ran: ${doc}: ${line}`);
      ran++;
    }
    console.log(`ran ${ran} documented command lines`);
    assert.ok(ran >= 4, `ran ${ran}`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
