/**
 * What `:serialize` and `:deserialize` take on each release, from the
 * per-release command trees (`/console/inspect`, see
 * `../shared/fidelity` and `real-output/json-serialize-args-by-version-restraml.txt`):
 *
 * - before 7.13: neither command exists (`bad command name`);
 * - 7.13 to 7.15: `to`/`from` and `value` only, so `options=` is an error;
 * - 7.16: `delimiter`, `options` and `order` appear; `:serialize` options
 *   take only `json.pretty`, `:deserialize` options `json.no-string-conversion`;
 * - 7.17: `:serialize options=json.no-string-conversion`;
 * - 7.18: `:serialize file-name=`.
 *
 * @module
 */
import { inRange, type Release, type ReleaseRange } from "../routeros/release.ts";

/** One command's arguments and option values on a range of releases. */
interface Facts {
  range: ReleaseRange;
  args: string[];
  options: string[];
}

const SERIALIZE: Facts[] = [
  {
    range: { from: "7.18" },
    args: ["to", "value", "delimiter", "options", "order", "file-name"],
    options: ["json.pretty", "json.no-string-conversion"],
  },
  {
    range: { from: "7.17" },
    args: ["to", "value", "delimiter", "options", "order"],
    options: ["json.pretty", "json.no-string-conversion"],
  },
  {
    range: { from: "7.16" },
    args: ["to", "value", "delimiter", "options", "order"],
    options: ["json.pretty"],
  },
  { range: { from: "7.13" }, args: ["to", "value"], options: [] },
];

const DESERIALIZE: Facts[] = [
  {
    range: { from: "7.16" },
    args: ["from", "value", "delimiter", "options"],
    options: ["json.no-string-conversion"],
  },
  { range: { from: "7.13" }, args: ["from", "value"], options: [] },
];

/** The facts of `:serialize` or `:deserialize` on a release; undefined where it does not exist. */
export function scriptCommand(
  name: "serialize" | "deserialize",
  release: Release,
): { args: string[]; options: string[] } | undefined {
  return (name === "serialize" ? SERIALIZE : DESERIALIZE).find((f) => inRange(release, f.range));
}
