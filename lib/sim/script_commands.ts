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
 * The commands themselves are here too; json.ts writes and reads the JSON.
 *
 * @module
 */
import { inRange, type Release, type ReleaseRange } from "../routeros/release.ts";
import { badCommand, fail } from "./errors.ts";
import type { Interp } from "./interp_types.ts";
import type { Args } from "./interp_types.ts";
import { JsonSyntaxError, parseJson, toJson } from "./json.ts";
import { type Builtin, only } from "./conversions.ts";

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

/** Option values given as `options=a,b`; an error names any the release does not take. */
function optionsOf(ip: Interp, args: Args, facts: { options: string[] }): string[] {
  const a = args.named.get("options");
  const opts = a ? ip.argStr(a).split(",") : [];
  for (const o of opts) {
    if (!facts.options.includes(o)) throw fail("input does not match any value of options");
  }
  return opts;
}

/** The time form of `:serialize` (see json.ts): the date form before 7.20. */
const CLOCK_TIMES = { from: "7.20" };

/** `:serialize` and `:deserialize`, with the arguments each release takes. */
export const SCRIPT_COMMANDS: Record<string, Builtin> = {
  serialize(ip, args, word) {
    const facts = scriptCommand("serialize", ip.st.release);
    if (!facts) throw badCommand("serialize", word.pos);
    only(args, facts.args, 1);
    const to = args.named.get("to");
    if ((to ? ip.argStr(to) : "") !== "json") throw fail("input does not match any value of to");
    const va = args.named.get("value") ?? args.positional[0];
    const opts = optionsOf(ip, args, facts);
    return toJson(va ? ip.scriptVal(va) : null, {
      noStringConversion: opts.includes("json.no-string-conversion"),
      pretty: opts.includes("json.pretty"),
      timeForm: inRange(ip.st.release, CLOCK_TIMES) ? "clock" : "date",
    });
  },
  deserialize(ip, args, word) {
    const facts = scriptCommand("deserialize", ip.st.release);
    if (!facts) throw badCommand("deserialize", word.pos);
    only(args, facts.args, 1);
    const from = args.named.get("from");
    if ((from ? ip.argStr(from) : "") !== "json") {
      throw fail("input does not match any value of from");
    }
    const va = args.named.get("value") ?? args.positional[0];
    const opts = optionsOf(ip, args, facts);
    try {
      return parseJson(va ? ip.argStr(va) : "null", opts.includes("json.no-string-conversion"));
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw fail("failure: json parse error");
      throw e;
    }
  },
};
