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
