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
import { type DocBlock, shCommands, shellWords } from "./doc_blocks.ts";
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

/** Commands that are the project's own tasks: this suite, the benchmark, the generator, CI. */
const PROJECT_TASK = /^(deno task (test|bench|docs)\b|bash \.ci\/run\b)/;

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

/** Run every command of a shell block. `proxyJson`: the page's proxy configuration, if any. */
export async function runShBlock(
  block: DocBlock,
  world: DocWorld,
  proxyJson?: string,
): Promise<Outcome[]> {
  const cwd = await world.workDir();
  if (proxyJson !== undefined) await Deno.writeTextFile(`${cwd}/proxy.json`, proxyJson);
  const sh = new ShSession(cwd, world.env);
  const outcomes: Outcome[] = [];
  let server: { port: number; bg: Background } | undefined;
  try {
    for (const cmd of shCommands(block)) {
      const where = `${block.page}:${cmd.line}`;
      const o = (kind: Outcome["kind"], what: string) => outcomes.push({ where, kind, what });
      const text = substitutePaths(cmd.text, world);
      try {
        if (PROJECT_TASK.test(text)) {
          o("not run", "the project's own task (the suite, benchmark, generator or CI)");
          continue;
        }
        if (/^deno install\b/.test(text)) {
          o("not run", "the install line: tests/config_docs_commands.test.ts runs it");
          continue;
        }
        const call = productCall(text);
        const sub = call && SUBCOMMANDS.has(call.args[0]) ? call.args[0] : undefined;
        if (call && !call.args.some((a) => ONE_SHOT_FLAGS.has(a)) && sub === "sim") {
          const [, bg] = await sh.start(text, /(simulating)/);
          const count = Number(/--devices\s+(\d+)/.exec(text)?.[1] ?? 1);
          let devices: unknown[] = [];
          for (let i = 0; i < 40 && devices.length < count; i++) {
            await new Promise((r) => setTimeout(r, 50));
            devices = parseYaml(bg.stdout()) ?? [];
          }
          const parsed = parseInventory(bg.stdout(), "inline");
          if (parsed.length !== count) throw new Error(`printed ${parsed.length} devices`);
          await sh.stop(bg);
          o("run", `prints an inventory of ${count} simulated routers that the product reads`);
          continue;
        }
        if (call && !call.args.some((a) => ONE_SHOT_FLAGS.has(a)) && sub === "proxy") {
          if (server) await sh.stop(server.bg);
          const started = text.replace(/--port\s+8000\b/, "--port 0");
          const [url, bg] = await sh.start(started, /listening on (http:\/\/\S+)/);
          const port = Number(new URL(url).port);
          server = { port, bg };
          const host = hostFor(setting(call, "--allowed-hosts", ""), port);
          let health = "";
          for (let i = 0; i < 100; i++) {
            const r = await rawRequest(port, "GET", "/health", [["Host", host]]);
            health = r.body;
            if (r.status === 200 && JSON.parse(r.body).status === "ok") break;
            await new Promise((res) => setTimeout(res, 100));
          }
          if (JSON.parse(health).status !== "ok") throw new Error(`/health: ${health}`);
          o(
            "run",
            `listens; /health says every server is up (${
              Object.keys(JSON.parse(health).servers).join(", ")
            })`,
          );
          continue;
        }
        const transport = call && setting(call, "--mcp.transport", "ROUTER_MCP__TRANSPORT");
        const server_ = call && !sub && !call.args.some((a) => ONE_SHOT_FLAGS.has(a));
        if (server_ && call) {
          let line = text;
          const host = setting(call, "--host", "ROUTER_HOST");
          if (host !== undefined && ROUTER_ADDRESSES.includes(host)) {
            const user = setting(call, "--username", "ROUTER_USERNAME") ?? "admin";
            const password = setting(call, "--password", "ROUTER_PASSWORD") ?? "";
            const router = await world.routerFor(user, password);
            line = `ROUTER_PORT=${router.port} ${line.replace(host, router.host)}`;
          }
          if (transport && transport !== "stdio") {
            if (server) await sh.stop(server.bg);
            line = /8000\b/.test(line)
              ? line.replace(/\b8000\b/g, "0")
              : `ROUTER_MCP__PORT=0 ${line}`;
            const [url, bg] = await sh.start(line, /listening on (http:\/\/\S+)/);
            const port = Number(new URL(url).port);
            server = { port, bg };
            const keys = setting(call, "--mcp.api-keys-file", "ROUTER_MCP__API_KEYS_FILE");
            const summary = await checkHttp(port, {
              host: hostFor(
                setting(call, "--mcp.allowed-hosts", "ROUTER_MCP__ALLOWED_HOSTS"),
                port,
              ),
              bearer: keys === world.keysFile ? world.adminKey : undefined,
              path: transport === "sse" ? "/sse" : "/mcp",
            });
            o("run", `serves MCP on HTTP: ${summary}`);
            continue;
          }
          await sh.run(":"); // the session's variables file exists
          const summary = await checkStdio({
            command: "bash",
            args: ["-c", `source ${cwd}/.sh-state\n${line}`],
            env: world.env,
            cwd,
          });
          o("run", `serves MCP on stdio: ${summary}`);
          continue;
        }
        if (/^([A-Z_][A-Z0-9_]*=\S*\s*)+$/.test(text) && /^ROUTER_/.test(text)) {
          const r = await sh.run(`${text} mcp-server-router --simulate --print-config > /dev/null`);
          if (r.code !== 0) throw new Error(`the server refuses it: ${r.stderr}`);
          o("checked", "the server accepts the value (--simulate --print-config)");
          continue;
        }
        const line = server ? text.replace(/:8000\b/g, `:${server.port}`) : text;
        const r = await sh.run(line);
        if (r.code !== 0) {
          throw new Error(
            `exit ${r.code}\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-1500)}`,
          );
        }
        if (/^curl\b/.test(line)) {
          o("run", checkAnswer(cmd, r.stdout));
          continue;
        }
        checkPrinted(cmd.after, r.stdout + r.stderr);
        if (call && !text.includes(">") && (r.stdout + r.stderr).trim() === "") {
          throw new Error("printed nothing");
        }
        o("run", cmd.after.length ? "exits 0 and prints what the comment says" : "exits 0");
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
    await sh.close();
  }
  return outcomes;
}
