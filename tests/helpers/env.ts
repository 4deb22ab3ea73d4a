/**
 * The environment test children run with: a clean environment plus PATH,
 * the Deno cache the tests use (whatever HOME the child gets), NO_COLOR and
 * what the test adds.
 *
 * @module
 */

/** The deno executable running the tests. */
export const DENO = Deno.execPath();

let denoDirFound: string | undefined;

/**
 * The Deno cache the tests run with (children reuse it, whatever HOME they
 * get): `DENO_DIR`, else what `deno info --json` says, asked once per test
 * file and only when a child is started (most files start none).
 */
export function denoDir(): string {
  denoDirFound ??= Deno.env.get("DENO_DIR") ?? JSON.parse(
    new TextDecoder().decode(
      new Deno.Command(DENO, { args: ["info", "--json"], stderr: "null" }).outputSync().stdout,
    ),
  ).denoDir as string;
  return denoDirFound;
}

/** The environment a child gets: PATH, HOME, DENO_DIR, NO_COLOR and `env`. */
export function childEnv(
  env: Record<string, string> = {},
  home = Deno.env.get("HOME") ?? "/tmp",
): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    DENO_DIR: denoDir(),
    NO_COLOR: "1",
    ...env,
  };
}

/**
 * The path of a system program (`shellcheck`, `sshd`), found on PATH or in
 * the usual system directories; undefined when it is not installed.
 */
export function findProgram(name: string): string | undefined {
  const dirs = (Deno.env.get("PATH") ?? "").split(":")
    .concat(["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"]);
  for (const dir of dirs.filter(Boolean)) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch { /* not here */ }
  }
  return undefined;
}

/**
 * Whether the programs a test needs are installed; when one is not, prints
 * `SKIP <what>: <program> is not installed (<install>)` so the run says
 * why the test did not run. Use as `ignore: !needs(...)`.
 */
export function needs(what: string, programs: string[], install: string): boolean {
  const missing = programs.filter((p) => !findProgram(p));
  if (missing.length === 0) return true;
  console.log(`SKIP ${what}: ${missing.join(", ")} not installed (${install})`);
  return false;
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
