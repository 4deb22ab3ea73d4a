/**
 * The environment test children run with: a clean environment plus PATH,
 * the Deno cache the tests use (whatever HOME the child gets), NO_COLOR and
 * what the test adds.
 *
 * @module
 */

/** The deno executable running the tests. */
export const DENO = Deno.execPath();

/** The Deno cache the tests run with (children reuse it, whatever HOME they get). */
export const DENO_DIR: string = Deno.env.get("DENO_DIR") ?? JSON.parse(
  new TextDecoder().decode(
    new Deno.Command(DENO, { args: ["info", "--json"], stderr: "null" }).outputSync().stdout,
  ),
).denoDir;

/** The environment a child gets: PATH, HOME, DENO_DIR, NO_COLOR and `env`. */
export function childEnv(
  env: Record<string, string> = {},
  home = Deno.env.get("HOME") ?? "/tmp",
): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    DENO_DIR,
    NO_COLOR: "1",
    ...env,
  };
}

/** Exit code and output of a finished process. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command to completion with a clean environment and no stdin. */
export async function runProcess(
  command: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<Ran> {
  const out = await new Deno.Command(command, {
    args,
    cwd: opts.cwd,
    env: childEnv(opts.env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
