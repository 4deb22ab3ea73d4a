/**
 * Running a documented shell block, command by command, as a reader would
 * type it: one-shot commands must exit 0 (and print what their comment
 * below says they print); a command that starts the server over stdio is
 * used by an MCP client; one that starts it on HTTP, or starts the REST
 * proxy or simulated routers, runs in the background until the block ends
 * and is used meanwhile (the MCP session, the proxy's `/health` with every
 * server up, the inventory the simulator prints); `curl` must get an
 * answer without `error`, unless the comment above or below the command
 * says which error it gets, and then exactly that one.
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { parseInventory } from "../../lib/config/inventory.ts";
import { rawRequest } from "../http_helpers.ts";
import { type DocBlock, type ShCommand, shCommands, shellWords } from "./doc_blocks.ts";
import { checkHttp, checkStdio } from "./doc_mcp.ts";
import { ROUTER_ADDRESSES, substitutePaths } from "./doc_placeholders.ts";
import { type Background, ShSession } from "./doc_shell.ts";
import type { DocWorld } from "./doc_world.ts";

/** What happened to one example (a command, a configuration entry, a call). */
export interface Outcome {
  where: string;
  kind: "run" | "checked" | "marked" | "not run";
  what: string;
  error?: string;
}

/** Commands that are the project's own tasks: this suite, the checks, the benchmarks, the generator, CI. */
const PROJECT_TASK =
  /^(deno task (test|check|bench|docs)\b|deno run( -\S+)* bench\/\S+\.ts\b|bash \.ci\/run\b)/;

/** The product's subcommands. */
const SUBCOMMANDS = new Set(["sim", "proxy", "audit", "auth", "healthcheck"]);

/** How a command invokes the product, if it does. */
export interface ProductCall {
  /** `NAME=value` words before the command. */
  env: Record<string, string>;
  /** The product's own arguments (`sim --devices 3`, `--host ... --print-config`). */
  args: string[];
}

/** The product call of a command line (`mcp-server-router ...`, `deno run ... main.ts ...`, `deno task demo|start|sim ...`). */
export function productCall(text: string): ProductCall | undefined {
  if (/[|<>;&]/.test(text.replace(/'[^']*'|"[^"]*"/g, ""))) return undefined;
  const words = shellWords(text);
  const env: Record<string, string> = {};
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=");
    env[name] = value.join("=");
  }
  if (words[0] === "mcp-server-router") return { env, args: words.slice(1) };
  if (words[0] !== "deno") return undefined;
  if (words[1] === "run") {
    const main = words.findIndex((w) => w.endsWith("main.ts"));
    return main > 0 ? { env, args: words.slice(main + 1) } : undefined;
  }
  if (words[1] === "task" && words[2] === "demo") {
    return { env, args: ["--simulate", ...words.slice(3)] };
  }
  if (words[1] === "task" && words[2] === "start") return { env, args: words.slice(3) };
  if (words[1] === "task" && words[2] === "sim") return { env, args: ["sim", ...words.slice(3)] };
  return undefined;
}

const ONE_SHOT_FLAGS = new Set(["--help", "-h", "--version", "-V", "--print-config"]);

/** The value of a setting in a product call: its flag, else its variable. */
function setting(call: ProductCall, flag: string, variable: string): string | undefined {
  const i = call.args.indexOf(flag);
  return i >= 0 ? call.args[i + 1] : call.env[variable];
}

/** The `Host` a client of a server sends: the first allowed name, else loopback. */
function hostFor(allowed: string | undefined, port: number): string {
  const first = allowed?.split(",")[0]?.trim();
  if (!first || first === "*") return `127.0.0.1:${port}`;
  return first.endsWith(":*") ? `${first.slice(0, -2)}:${port}` : first;
}

/** Each comment line below a command (`...` ends a prefix) matches a line of its output. */
function checkPrinted(after: string[], output: string): void {
  if (after.length === 0 || after[0].trimStart().startsWith("{")) return;
  const lines = output.split("\n");
  for (const expected of after) {
    const prefix = expected.replace(/\s*\.\.\.\s*$/, "");
    if (!lines.some((l) => expected.endsWith("...") ? l.startsWith(prefix) : l === expected)) {
      throw new Error(`the comment below says it prints "${expected}"; it printed:\n${output}`);
    }
  }
}

/** A curl answer: no `error`, or exactly the error the comments name. */
function checkAnswer(cmd: { before: string[]; after: string[] }, body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error(`the answer is not JSON: ${body.slice(0, 300)}`);
  }
  const error = (json as { error?: { code: string; message: string } }).error;
  const documented = cmd.after.join(" ");
  const expectsError = /"error"/.test(documented) || cmd.before.some((c) => /\b[45]\d\d\b/.test(c));
  if (!expectsError) {
    if (error) throw new Error(`answered with an error: ${body.slice(0, 500)}`);
    return "answered";
  }
  if (!error) throw new Error(`the comments say it fails; it answered: ${body.slice(0, 300)}`);
  let code = /"code":\s*"(\w+)"/.exec(documented)?.[1];
  let message = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(documented)?.[1];
  if (message !== undefined) message = JSON.parse(`"${message}"`);
  try {
    // The whole answer, when the comment shows it whole.
    ({ code, message } = JSON.parse(documented).error);
  } catch { /* cut short with "...": its code and message, as far as shown */ }
  if (code && error.code !== code) throw new Error(`error ${error.code}, documented ${code}`);
  if (message && error.message !== message) {
    throw new Error(`message "${error.message}", documented "${message}"`);
  }
  return `answered ${error.code}, as documented`;
}

/** A block being run: its shell session, and the server it started last (port 8000 of the docs). */
interface BlockRun {
  world: DocWorld;
  cwd: string;
  sh: ShSession;
  server?: { port: number; bg: Background };
}

/** `sim`: the inventory it prints is one the product reads, with as many devices as asked. */
async function runSim(run: BlockRun, text: string): Promise<string> {
  const [, bg] = await run.sh.start(text, /(simulating)/);
  const count = Number(/--devices\s+(\d+)/.exec(text)?.[1] ?? 1);
  let devices: unknown[] = [];
  for (let i = 0; i < 40 && devices.length < count; i++) {
    await new Promise((r) => setTimeout(r, 50));
    devices = parseYaml(bg.stdout()) ?? [];
  }
  const parsed = parseInventory(bg.stdout(), "inline");
  if (parsed.length !== count) throw new Error(`printed ${parsed.length} devices`);
  await run.sh.stop(bg);
  return `prints an inventory of ${count} simulated routers that the product reads`;
}

/** `proxy`: it listens, and `/health` (asked with a Host it allows) says every server is up. */
async function runProxy(run: BlockRun, call: ProductCall, text: string): Promise<string> {
  if (run.server) await run.sh.stop(run.server.bg);
  const [url, bg] = await run.sh.start(
    text.replace(/--port\s+8000\b/, "--port 0"),
    /listening on (http:\/\/\S+)/,
  );
  const port = Number(new URL(url).port);
  run.server = { port, bg };
  const host = hostFor(setting(call, "--allowed-hosts", ""), port);
  let health = { status: "", servers: {} };
  for (let i = 0; i < 100 && health.status !== "ok"; i++) {
    if (i) await new Promise((res) => setTimeout(res, 100));
    const r = await rawRequest(port, "GET", "/health", [["Host", host]]);
    if (r.status !== 200) throw new Error(`/health: ${r.status} ${r.body}`);
    health = JSON.parse(r.body);
  }
  if (health.status !== "ok") throw new Error(`/health: ${JSON.stringify(health)}`);
  return `listens; /health says every server is up (${Object.keys(health.servers).join(", ")})`;
}

/**
 * The server itself: on stdio an MCP client starts it (through bash, so
 * the block's variables reach it); on HTTP it runs in the background and a
 * client speaks to it with the Host and key its setup allows.
 */
async function runServer(run: BlockRun, call: ProductCall, text: string): Promise<string> {
  let line = text;
  const host = setting(call, "--host", "ROUTER_HOST");
  if (host !== undefined && ROUTER_ADDRESSES.includes(host)) {
    const user = setting(call, "--username", "ROUTER_USERNAME") ?? "admin";
    const password = setting(call, "--password", "ROUTER_PASSWORD") ?? "";
    const router = await run.world.routerFor(user, password);
    line = `ROUTER_PORT=${router.port} ${line.replace(host, router.host)}`;
  }
  const transport = setting(call, "--mcp.transport", "ROUTER_MCP__TRANSPORT") ?? "stdio";
  if (transport === "stdio") {
    await run.sh.run(":"); // the session's variables file exists
    const summary = await checkStdio({
      command: "bash",
      args: ["-c", `source ${run.cwd}/.sh-state\n${line}`],
      env: run.world.env,
      cwd: run.cwd,
    });
    return `serves MCP on stdio: ${summary}`;
  }
  if (transport !== "streamable-http") throw new Error(`no client for ${transport} here`);
  if (run.server) await run.sh.stop(run.server.bg);
  line = /\b8000\b/.test(line) ? line.replace(/\b8000\b/g, "0") : `ROUTER_MCP__PORT=0 ${line}`;
  const [url, bg] = await run.sh.start(line, /listening on (http:\/\/\S+)/);
  const port = Number(new URL(url).port);
  run.server = { port, bg };
  const keys = setting(call, "--mcp.api-keys-file", "ROUTER_MCP__API_KEYS_FILE");
  const summary = await checkHttp(port, {
    host: hostFor(setting(call, "--mcp.allowed-hosts", "ROUTER_MCP__ALLOWED_HOSTS"), port),
    bearer: keys === run.world.keysFile ? run.world.adminKey : undefined,
  });
  return `serves MCP on HTTP: ${summary}`;
}

/** Any other command: it exits 0, and prints what the comments say (curl: the right answer). */
async function runOneShot(
  run: BlockRun,
  cmd: ShCommand,
  text: string,
  call: ProductCall | undefined,
): Promise<[Outcome["kind"], string]> {
  if (/^([A-Z_][A-Z0-9_]*=\S*\s*)+$/.test(text) && /^ROUTER_/.test(text)) {
    const r = await run.sh.run(`${text} mcp-server-router --simulate --print-config > /dev/null`);
    if (r.code !== 0) throw new Error(`the server refuses it: ${r.stderr}`);
    return ["checked", "the server accepts the value (--simulate --print-config)"];
  }
  const line = run.server ? text.replace(/:8000\b/g, `:${run.server.port}`) : text;
  const r = await run.sh.run(line);
  if (r.code !== 0) {
    throw new Error(
      `exit ${r.code}\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-1500)}`,
    );
  }
  if (/^curl\b/.test(line)) return ["run", checkAnswer(cmd, r.stdout)];
  checkPrinted(cmd.after, r.stdout + r.stderr);
  if (call && !text.includes(">") && (r.stdout + r.stderr).trim() === "") {
    throw new Error("printed nothing");
  }
  return ["run", cmd.after.length ? "exits 0 and prints what the comment says" : "exits 0"];
}

/** Run every command of a shell block. `proxyJson`: the page's proxy configuration, if any. */
export async function runShBlock(
  block: DocBlock,
  world: DocWorld,
  proxyJson?: string,
): Promise<Outcome[]> {
  const cwd = await world.workDir();
  if (proxyJson !== undefined) await Deno.writeTextFile(`${cwd}/proxy.json`, proxyJson);
  const run: BlockRun = { world, cwd, sh: new ShSession(cwd, world.env) };
  const outcomes: Outcome[] = [];
  try {
    for (const cmd of shCommands(block)) {
      const where = `${block.page}:${cmd.line}`;
      const text = substitutePaths(cmd.text, world);
      try {
        if (PROJECT_TASK.test(text)) {
          outcomes.push({
            where,
            kind: "not run",
            what: "the project's own task (the suite, checks, benchmark, generator or CI)",
          });
          continue;
        }
        if (/^deno install\b/.test(text)) {
          outcomes.push({
            where,
            kind: "not run",
            what: "the install line: tests/config_docs_commands.test.ts runs it",
          });
          continue;
        }
        const call = productCall(text);
        const long = call && !call.args.some((a) => ONE_SHOT_FLAGS.has(a));
        const sub = call && SUBCOMMANDS.has(call.args[0]) ? call.args[0] : undefined;
        if (long && sub === "sim") {
          outcomes.push({ where, kind: "run", what: await runSim(run, text) });
        } else if (long && sub === "proxy") {
          outcomes.push({ where, kind: "run", what: await runProxy(run, call, text) });
        } else if (long && !sub) {
          outcomes.push({ where, kind: "run", what: await runServer(run, call, text) });
        } else {
          const [kind, what] = await runOneShot(run, cmd, text, call);
          outcomes.push({ where, kind, what });
        }
      } catch (err) {
        outcomes.push({
          where,
          kind: "run",
          what: cmd.text.slice(0, 80),
          error: (err as Error).message,
        });
      }
    }
  } finally {
    await run.sh.close();
  }
  return outcomes;
}
