/**
 * Command and script builders for the tools that are not plain CRUD:
 * commands with bare switches (`once`, `as-value`), `where` clauses with
 * regular-expression matches, `proplist`, and scripts that print the result
 * of a command (`as-value`) in a form the dialect can read back.
 *
 * Every value goes through {@linkcode quoteValue} (via `renderValue`) and
 * every name, path and id through the allow-list in `quote.ts`.
 *
 * @module
 */
import { type CommandValue, menuPath, renderArgs, renderValue } from "./commands.ts";
import type { Dialect } from "./dialect.ts";
import { checkId, checkName, quoteValue } from "./quote.ts";
import { putJson } from "./serialize.ts";

/** One condition of a `where` clause: equality, or a regular-expression match. */
export type Filter =
  | { key: string; value: CommandValue }
  | { key: string; regex: string };

/** POSIX extended regular-expression metacharacters. */
const REGEX_META = /[\\^$.|?*+()[\]{}]/g;

/**
 * A regular expression that matches `text` literally: every metacharacter
 * escaped with a backslash. The result still goes through `quoteValue`.
 */
export function regexLiteral(text: string): string {
  return text.replace(REGEX_META, (c) => "\\" + c);
}

/**
 * A regular expression matching a comma-separated list (such as log
 * `topics`) that contains one of `words`. Each word must pass the name
 * allow-list, so it holds no metacharacter.
 */
export function listMemberRegex(words: readonly string[]): string {
  if (words.length === 0) throw new RangeError("listMemberRegex needs at least one word");
  return `(^|,)(${words.map((w) => checkName(w, "list word")).join("|")})(,|$)`;
}

/**
 * ` where a="1" and b~"x"`, or "" for no filters. `.id` filters are not
 * rendered here: {@linkcode fromArg} turns them into `from=`, which RouterOS
 * 6 and 7 both take.
 */
export function renderFilters(filters: readonly Filter[]): string {
  const rest = filters.filter((f) => f.key !== ".id");
  if (rest.length === 0) return "";
  return " where " + rest.map((f) => {
    const key = checkName(f.key, "filter");
    if ("regex" in f) return `${key}~${quoteValue(f.regex)}`;
    return `${key}=${renderValue(f.value)}`;
  }).join(" and ");
}

/** ` from=*1,*2` for the `.id` filters, or "". */
export function fromArg(filters: readonly Filter[]): string {
  const ids = filters.filter((f) => f.key === ".id").map((f) =>
    checkId(String("value" in f ? f.value : ""))
  );
  return ids.length ? ` from=${ids.join(",")}` : "";
}

/** Options of a {@linkcode printStatement}. */
export interface PrintOptions {
  filters?: readonly Filter[];
  /** Only these properties (checked names). */
  proplist?: readonly string[];
  /** A settings menu (`/system identity`) rather than a list. */
  singleton?: boolean;
}

function proplistArg(proplist: readonly string[] | undefined): string {
  if (!proplist || proplist.length === 0) return "";
  return ` proplist=${proplist.map((p) => checkName(p, "property")).join(",")}`;
}

/**
 * The statement that prints a menu's items in the dialect's read form:
 * one JSON line on 7.13 and later, `print terse show-ids` before (a plain
 * `print` for settings menus). `where` always comes last.
 */
export function printStatement(dialect: Dialect, path: string, options: PrintOptions = {}): string {
  const menu = menuPath(path);
  const where = fromArg(options.filters ?? []) + proplistArg(options.proplist) +
    renderFilters(options.filters ?? []);
  if (dialect.json) {
    const print = options.singleton ? "print as-value" : "print detail as-value";
    return putJson(dialect, `[${menu} ${print}${where}]`, options.singleton ? "record" : "list");
  }
  if (options.singleton) return `${menu} print`;
  return `${menu} print terse show-ids${where}`;
}

/**
 * A command line: a checked command path (`/ping`, `/interface/monitor-traffic`),
 * an optional quoted positional value, checked bare switches (`once`,
 * `as-value`) and quoted arguments.
 */
export function commandLine(
  path: string,
  options: {
    positional?: string;
    args?: Record<string, CommandValue | undefined>;
    switches?: readonly string[];
  } = {},
): string {
  const parts = [menuPath(path)];
  if (options.positional !== undefined) parts.push(quoteValue(options.positional));
  const args = renderArgs(options.args ?? {});
  if (args) parts.push(args);
  for (const s of options.switches ?? []) parts.push(checkName(s, "switch"));
  return parts.join(" ");
}

/** Printed between records by {@linkcode putRecords} on dialects without JSON. */
export const RECORD_MARK = "--mcp-server-router-record--";

/**
 * A statement that prints the value of `expression` (a command in `[...]`
 * giving one record or a list of records, e.g. `[/interface monitor-traffic
 * "ether1" once as-value]`). On 7.13 and later it prints one JSON line; on
 * older versions it prints the given `keys` of each record as `key=value`
 * lines (`($r->"key")`), each record preceded by {@linkcode RECORD_MARK}.
 * Read the output with `parseRecords`.
 */
export function putRecords(
  dialect: Dialect,
  expression: string,
  many: boolean,
  keys: readonly string[],
): string {
  if (dialect.json) return putJson(dialect, expression, many ? "list" : "record");
  const dump = [
    `:put "${RECORD_MARK}"`,
    ...keys.map((k) => {
      const key = checkName(k, "key");
      return `:put ("${key}=" . ($r->"${key}"))`;
    }),
  ].join("; ");
  return many ? `:foreach r in=${expression} do={${dump}}` : `{:local r ${expression}; ${dump}}`;
}

/** `:put ("key=" . [expression])` for each pair: scalar values as `key=value` lines. */
export function putScalars(pairs: Record<string, string>): string {
  return Object.entries(pairs).map(([key, expression]) =>
    `:put (${quoteValue(checkName(key, "key") + "=")} . ${expression})`
  ).join("; ");
}

/** `[/ip dns get cache-used]`: the value of one property of a settings menu. */
export function getExpression(path: string, property: string): string {
  return `[${menuPath(path)} get ${checkName(property, "property")}]`;
}

/**
 * Read back one item by a script variable holding its id (`:local id [...
 * add ...]`). Before 7.13, `proplist` keeps unknown properties out of the
 * unquoted terse line.
 */
export function printByVariable(
  dialect: Dialect,
  path: string,
  variable: string,
  proplist: readonly string[] = [],
): string {
  const menu = menuPath(path);
  const name = checkName(variable, "variable");
  return dialect.json
    ? putJson(dialect, `[${menu} get $${name}]`, "record")
    : `${menu} print terse show-ids${
      proplistArg(proplist.filter((p) => p !== ".id"))
    } from=$${name}`;
}

/**
 * The active routes whose destination contains `destination` (checked as an
 * IPv4 or IPv6 address, converted with `:toip`/`:toip6` from a quoted value),
 * optionally in one routing table (`routing-table` on 7, `routing-mark` on 6).
 */
export function routeLookupStatement(
  dialect: Dialect,
  destination: string,
  table?: string,
): string {
  const v6 = destination.includes(":");
  const path = v6 ? "/ipv6/route" : "/ip/route";
  const convert = v6 ? ":toip6" : ":toip";
  let where = " where $d in dst-address and active";
  if (table !== undefined) {
    where += ` and ${dialect.major < 7 ? "routing-mark" : "routing-table"}=${quoteValue(table)}`;
  }
  const local = `:local d [${convert} ${quoteValue(destination)}]; `;
  const menu = menuPath(path);
  return dialect.json
    ? `${local}${putJson(dialect, `[${menu} print detail as-value${where}]`, "list")}`
    : `${local}${menu} print terse show-ids${where}`;
}
