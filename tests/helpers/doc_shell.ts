/**
 * A shell session for one documented block: each command runs in bash in
 * the block's working directory, with the variables the commands before it
 * set (`export KEY=...`, `KEY="$..."`), as typing them one after the other
 * would. A server the block starts (a proxy, an HTTP transport, simulated
 * routers) runs in the background until the block ends, its whole process
 * tree stopped then.
 *
 * @module
 */
import { lineOf } from "./doc_world.ts";

/** A command's exit code and output. */
export interface ShResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A server started by a block. */
export interface Background {
  pid: number;
  /** What it wrote to stdout so far. */
  stdout: () => string;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  stop: () => Promise<void>;
}

export class ShSession {
  readonly #state: string;
  readonly #base: string;
  readonly #background: Background[] = [];
  #baseReady?: Promise<void>;

  constructor(readonly cwd: string, readonly env: Record<string, string>) {
    this.#state = `${cwd}/.sh-state`;
    this.#base = `${cwd}/.sh-base`;
  }

  /** The names bash has before any command: those are not carried from one command to the next. */
  #baseNames(): Promise<void> {
    return this.#baseReady ??= (async () => {
      const r = await this.#bash(
        "compgen -v > .sh-base; echo __rc >> .sh-base; echo __new >> .sh-base",
      )
        .output();
      if (r.code !== 0) throw new Error(`bash: ${new TextDecoder().decode(r.stderr)}`);
      await Deno.writeTextFile(this.#state, "");
    })();
  }

  #bash(script: string, stdin: "null" | "piped" = "null") {
    return new Deno.Command("bash", {
      args: ["-c", script],
      cwd: this.cwd,
      env: this.env,
      clearEnv: true,
      stdin,
      stdout: "piped",
      stderr: "piped",
    });
  }

  /** The script that runs `command` with the session's variables, and keeps what it sets. */
  #script(command: string, keep: boolean): string {
    return [
      `source ${JSON.stringify(this.#state)}`,
      command,
      "__rc=$?",
      ...(keep
        ? [
          `__new=$(compgen -v | grep -vxF -f ${JSON.stringify(this.#base)})`,
          `[ -z "$__new" ] || declare -p $__new > ${JSON.stringify(this.#state)} 2>/dev/null`,
        ]
        : []),
      "exit $__rc",
    ].join("\n");
  }

  /** Run one command to its end. */
  async run(command: string): Promise<ShResult> {
    await this.#baseNames();
    const out = await this.#bash(this.#script(command, true)).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  }

  /** A variable's value in the session (after the commands so far). */
  async value(name: string): Promise<string> {
    return (await this.run(`printf %s "$${name}"`)).stdout;
  }

  /**
   * Start `command` in the background; resolves with the first group of
   * `ready` in its output (stderr, then stdout), and the process.
   */
  async start(command: string, ready: RegExp, timeoutMs = 30_000): Promise<[string, Background]> {
    await this.#baseNames();
    const child = this.#bash(this.#script(command, false)).spawn();
    let err = "";
    let out = "";
    const bg: Background = {
      pid: child.pid,
      stdout: () => out,
      stderr: () => err,
      stop: async () => {
        for (const pid of [...descendants(child.pid), child.pid]) {
          try {
            Deno.kill(pid, "SIGTERM");
          } catch { /* gone */ }
        }
        const timer = setTimeout(() => {
          for (const pid of [...descendants(child.pid), child.pid]) {
            try {
              Deno.kill(pid, "SIGKILL");
            } catch { /* gone */ }
          }
        }, 5000);
        await child.status;
        clearTimeout(timer);
      },
    };
    this.#background.push(bg);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`not ready after ${timeoutMs} ms: ${bg.stderr() + bg.stdout()}`)),
        timeoutMs,
      );
    });
    const outDone = lineOf(child.stdout, /^([\s\S]*\S[\s\S]*)$/, (t) => out = t).catch(() => "");
    try {
      const found = await Promise.race([
        lineOf(child.stderr, ready, (t) => err = t),
        timeout,
        child.status.then((s) => {
          throw new Error(`exited (${s.code}) before it was ready: ${bg.stderr() + bg.stdout()}`);
        }),
      ]);
      void outDone;
      return [found, bg];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stop a server the block started. */
  async stop(bg: Background): Promise<void> {
    await bg.stop();
    this.#background.splice(this.#background.indexOf(bg), 1);
  }

  /** Stop every server the block started. */
  async close(): Promise<void> {
    await Promise.all(this.#background.splice(0).map((b) => b.stop()));
  }
}

/** Every process below `pid`, from /proc (children before their parents' siblings). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry.name)]);
    } catch { /* gone meanwhile */ }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      walk(c);
      out.push(c);
    }
  };
  walk(pid);
  return out;
}
