/**
 * The command dialect of each RouterOS release, as data: which read form the
 * client uses, chosen once per connection from the release.
 *
 * | releases      | read form      | why |
 * |---------------|----------------|-----|
 * | 7.17 and later| `json`         | `:serialize to=json options=json.no-string-conversion` keeps strings strings |
 * | 7.13 to 7.16  | `json-guarded` | `:serialize` exists, but 7.13 to 7.15 take no `options` and 7.16 takes only `json.pretty`; a string that looks like a number would come back as a float (`"0042"` -> `42.000000`), so every string is sent through `:serialize` with a one-letter prefix that keeps it a string |
 * | up to 7.12 (and 6.x) | `terse` | no `:serialize`: `print terse show-ids` |
 *
 * Sources: the per-release command trees (`/console/inspect`) and MikroTik's
 * Scripting manual (`{"number":1234,"string":1234.000000}`).
 *
 * @module
 */
import { inRange, type Release, releaseOfVersion, type ReleaseRange } from "./release.ts";

/** How a release's items are read. */
export type ReadForm = "json" | "json-guarded" | "terse";

/** Read forms by release, newest first; the first range that holds wins. */
export const READ_FORMS: readonly { range: ReleaseRange; form: ReadForm }[] = [
  { range: { from: "7.17" }, form: "json" },
  { range: { from: "7.13" }, form: "json-guarded" },
  { range: {}, form: "terse" },
];

/** What the client needs to know about a router's release. */
export interface Dialect {
  /** Version as RouterOS prints it, e.g. `7.16.2 (stable)`. */
  version: string;
  release: Release;
  major: number;
  minor: number;
  read: ReadForm;
  /** Reads print JSON (`json` or `json-guarded`). */
  json: boolean;
}

/** The command that prints the version on v6 and v7 alike. */
export const VERSION_COMMAND = ":put [/system resource get version]";

/** The dialect of a release. */
export function dialectOf(release: Release, version = release.text): Dialect {
  const read = READ_FORMS.find((f) => inRange(release, f.range))!.form;
  return {
    version,
    release,
    major: release.major,
    minor: release.minor,
    read,
    json: read !== "terse",
  };
}

/** Parse the answer of {@linkcode VERSION_COMMAND}; null when it is not a version. */
export function parseVersion(output: string): Dialect | null {
  const release = releaseOfVersion(output);
  return release ? dialectOf(release, output.trim()) : null;
}
