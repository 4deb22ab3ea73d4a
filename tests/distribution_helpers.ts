/**
 * Helpers for the distribution and container tests: run main.ts as a real
 * process with chosen Deno flags and environment (nothing inherited but PATH,
 * HOME and DENO_DIR), connect an MCP client to it, and read the permission
 * flags that `scripts/build.sh` compiles into the binary.
 *
 * @module
 */
import { Client, LazySchemaValidator } from "../lib/mcp_sdk/client.ts";
import { StdioClientTransport } from "../lib/mcp_sdk/client.ts";
import { childEnv, DENO, denoDir, type Ran, runProcess } from "./helpers/env.ts";

export { childEnv, DENO, denoDir, type Ran };

/** The repository root. */
export const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
/** main.ts, absolute. */
export const MAIN = `${ROOT}/main.ts`;
/** The deno running the tests. */
/** The product version, from deno.json. */
export const VERSION: string = JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).version;

/** Read a file of the repository. */
export function repoFile(path: string): string {
  return Deno.readTextFileSync(`${ROOT}/${path}`);
}

/** Run a command to completion with a clean environment and no stdin (in the repository). */
export function run(
  command: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<Ran> {
  return runProcess(command, args, { ...opts, cwd: opts.cwd ?? ROOT });
}

/** `deno run <flags> main.ts <args>` to completion. */
export function runMain(
  flags: string[],
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> {
  return run(DENO, ["run", ...flags, MAIN, ...args], { env });
}

/** The `--allow-*` flags `scripts/build.sh` compiles into the binary. */
export async function buildPermissions(): Promise<string[]> {
  const r = await run("bash", [`${ROOT}/scripts/build.sh`, "--print-permissions"]);
  if (r.code !== 0) throw new Error(`build.sh --print-permissions failed: ${r.stderr}`);
  return r.stdout.split("\n").filter((l) => l !== "");
}

/** A connected MCP client and the server's stderr so far. */
export interface Session {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawn `deno run <flags> main.ts <args>` and connect an MCP client over stdio. */
export async function connect(
  flags: string[],
  args: string[],
  env: Record<string, string> = {},
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: DENO,
    // Every toolset listed, as the tests call tools outside the default core.
    args: ["run", ...flags, MAIN, "--toolsets", "all", ...args],
    env: childEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Uint8Array) => {
    stderr += new TextDecoder().decode(d);
  });
  const client = new Client({ name: "distribution-tests", version: "1.0.0" }, {
    jsonSchemaValidator: new LazySchemaValidator(),
  });
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => {});
    throw new Error(`server did not start: ${(err as Error).message}\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Call a tool; return its text, structured content and error flag. */
export async function callTool(
  session: Session,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; structured?: Record<string, unknown>; isError: boolean }> {
  const r = (await session.client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  return {
    text: r.content.map((c) => c.text).join("\n"),
    structured: r.structuredContent,
    isError: r.isError === true,
  };
}

/** The devices `router_list_devices` reports (it never connects to them). */
export async function listDevices(
  session: Session,
): Promise<{ title: string; host: string; port: number; username: string }[]> {
  const r = await callTool(session, "router_list_devices");
  if (r.isError) throw new Error(`router_list_devices failed: ${r.text}`);
  return (r.structured as {
    items: { title: string; host: string; port: number; username: string }[];
  })
    .items;
}

/** Lines of `text` that are log lines of the given level. */
export function logLines(text: string, level: "info" | "warning" | "error"): string[] {
  return text.split("\n").filter((l) => l.startsWith(`mcp-server-router ${level}:`));
}

/** Does the path exist? */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** How the release workflow reads deno.json's version. */
export const WORKFLOW_VERSION_SOURCE =
  `deno eval --quiet 'console.log(JSON.parse(Deno.readTextFileSync("deno.json")).version)'`;

/** A child process whose stdout and stderr are collected as they arrive. */
export class Proc {
  readonly child: Deno.ChildProcess;
  stdout = "";
  stderr = "";
  readonly #done: Promise<unknown>;

  /** Start `deno <args>` in the repository root with a clean environment. */
  constructor(args: string[], env: Record<string, string>) {
    this.child = new Deno.Command(DENO, {
      args,
      cwd: ROOT,
      env: childEnv(env),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const collect = async (stream: ReadableStream<Uint8Array>, key: "stdout" | "stderr") => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) this[key] += chunk;
    };
    this.#done = Promise.all([
      collect(this.child.stdout, "stdout"),
      collect(this.child.stderr, "stderr"),
    ]);
  }

  /** Wait until `test` holds for the output, or fail after `ms`. */
  async waitFor(test: () => boolean, what: string, ms = 20_000): Promise<void> {
    const start = Date.now();
    while (!test()) {
      if (Date.now() - start > ms) {
        throw new Error(
          `timed out waiting for ${what}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGTERM, then the exit code once all output is read. */
  async stop(): Promise<number> {
    try {
      this.child.kill("SIGTERM");
    } catch { /* already gone */ }
    const status = await this.child.status;
    await this.#done;
    return status.code;
  }
}
