/**
 * RouterOS versions and the command dialect each one speaks.
 *
 * @module
 */

/** What the client needs to know about a router's version. */
export interface Dialect {
  /** Version as RouterOS prints it, e.g. `7.16 (stable)`. */
  version: string;
  major: number;
  minor: number;
  /** `:serialize to=json` exists (7.13 and later). */
  json: boolean;
}

/** The command that prints the version on v6 and v7 alike. */
export const VERSION_COMMAND = ":put [/system resource get version]";

/** Parse the answer of {@linkcode VERSION_COMMAND}; null when it is not a version. */
export function parseVersion(output: string): Dialect | null {
  const m = /^\s*(\d+)\.(\d+)(?:\.\d+)?(?:[a-z]+\d*)?(?:\s+\([a-z-]+\))?\s*$/.exec(output);
  if (!m) return null;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return {
    version: output.trim(),
    major,
    minor,
    json: major > 7 || (major === 7 && minor >= 13),
  };
}
