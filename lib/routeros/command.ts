/**
 * The command builder: every RouterOS statement the client sends is made
 * here, from checked names (`quote.ts` allow-list) and quoted values
 * (`quoteValue`). Nothing else concatenates command text.
 *
 * Paths use the space form (`/ip address`), which RouterOS 6 and 7 both
 * take. An {@linkcode Expr} is command text made by this module (a command
 * in brackets, a variable); its brand keeps untrusted strings out.
 *
 * @module
 */
import { checkId, checkMenuPath, checkName, quoteValue } from "./quote.ts";

/** A value to send: strings are quoted, booleans become yes/no, numbers are quoted text. */
export type CommandValue = string | number | boolean;

/** Command text made by this module (never from untrusted input). */
export type Expr = string & { readonly __expr: unique symbol };

/**
 * One condition of a selection: equality, a regular-expression match, or
 * `contains` (the property, a prefix, holds the address an expression gives:
 * `$d in dst-address`).
 */
export type Condition =
  | { key: string; value: CommandValue }
  | { key: string; regex: string }
  | { key: string; contains: Expr }
  | { key: string; equals: Expr };

/** Render a value for the router. */
export function renderValue(value: CommandValue): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`number ${value} cannot be sent`);
    return quoteValue(String(value));
  }
  return quoteValue(value);
}

/** `/ip address` from `/ip/address`, checked. */
export function menuPath(path: string): string {
  return "/" + checkMenuPath(path).join(" ");
}

/** `key="value" key2=yes`, every key checked and every value quoted; undefined values left out. */
export function renderArgs(props: Readonly<Record<string, CommandValue | undefined>>): string {
  return Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${checkName(k, "property")}=${renderValue(v as CommandValue)}`)
    .join(" ");
}

/** ` where a="1" and b~"x"` for the non-id conditions, or "". `where` must come last. */
export function renderWhere(conditions: readonly Condition[]): string {
  const rest = conditions.filter((c) => c.key !== ".id");
  if (rest.length === 0) return "";
  return " where " + rest.map((c) => {
    const key = checkName(c.key, "filter");
    if ("regex" in c) return `${key}~${quoteValue(c.regex)}`;
    if ("contains" in c) return `${c.contains} in ${key}`;
    if ("equals" in c) return `${key}=${c.equals}`;
    return `${key}=${renderValue(c.value)}`;
  }).join(" and ");
}

/** ` from=*1,*2` for the `.id` conditions (RouterOS 6 and 7 both take it), or "". */
export function renderFrom(conditions: readonly Condition[]): string {
  const ids = conditions.filter((c) => c.key === ".id")
    .map((c) => checkId(String("value" in c ? c.value : "")));
  return ids.length ? ` from=${ids.join(",")}` : "";
}

/** POSIX extended regular-expression metacharacters. */
const REGEX_META = /[\\^$.|?*+()[\]{}]/g;

/** A regular expression that matches `text` literally (still quoted when sent). */
export function regexLiteral(text: string): string {
  return text.replace(REGEX_META, (c) => "\\" + c);
}

/** A regular expression matching a comma-separated list that holds one of `words` (checked names). */
export function listMemberRegex(words: readonly string[]): string {
  if (words.length === 0) throw new RangeError("listMemberRegex needs at least one word");
  return `(^|,)(${words.map((w) => checkName(w, "list word")).join("|")})(,|$)`;
}

/** How one item is named in a command: its id, or `[find where key="value"]`. */
export type ItemRef = { id: string } | { key: string; value: string };

/** `*1A` or `[find where name="x"]`. */
export function renderRef(ref: ItemRef): string {
  if ("id" in ref) return checkId(ref.id);
  return `[find${renderWhere([{ key: ref.key, value: ref.value }])}]`;
}

/** The selection condition of an item reference. */
export function refCondition(ref: ItemRef): Condition {
  return "id" in ref ? { key: ".id", value: checkId(ref.id) } : { key: ref.key, value: ref.value };
}

/** The parts of a command line. */
export interface CommandSpec {
  /** The item of an item command (`set`, `remove`, `enable`). */
  numbers?: ItemRef;
  /** Or the items `[find where ...]` selects (no match changes nothing). */
  find?: readonly Condition[];
  /** A quoted positional value (`/ping "1.1.1.1"`). */
  positional?: string;
  /** Named arguments, quoted. */
  args?: Readonly<Record<string, CommandValue | undefined>>;
  /** Named arguments whose values are item ids (`destination=*5`, `place-before=*3`), checked. */
  ids?: Readonly<Record<string, string | undefined>>;
  /** Bare words (`once`, `as-value`, `detail`), checked. */
  switches?: readonly string[];
  /** Selection: ids as `from=`, the rest as `where` (last). */
  where?: readonly Condition[];
}

/**
 * One command line: `/ip address set numbers=*1 comment="x"`. `verb` may be
 * empty for a command that is itself a path (`/ping`).
 */
export function cmd(path: string, verb: string, spec: CommandSpec = {}): string {
  // The root menu: `/export`, `/ping`.
  const parts = path === "/" ? [`/${checkName(verb, "command")}`] : [menuPath(path)];
  if (verb && path !== "/") parts.push(checkName(verb, "command"));
  // An id goes as `numbers=*1` (an unknown one answers `no such item`); a
  // natural key as `[find where name="x"]` (no match changes nothing).
  if (spec.numbers) {
    parts.push(
      "id" in spec.numbers ? `numbers=${renderRef(spec.numbers)}` : renderRef(spec.numbers),
    );
  }
  if (spec.find) parts.push(`[find${renderWhere(spec.find)}]`);
  if (spec.positional !== undefined) parts.push(quoteValue(spec.positional));
  const args = renderArgs(spec.args ?? {});
  if (args) parts.push(args);
  for (const [k, id] of Object.entries(spec.ids ?? {})) {
    if (id !== undefined) parts.push(`${checkName(k, "property")}=${checkId(id)}`);
  }
  for (const s of spec.switches ?? []) parts.push(checkName(s, "switch"));
  const from = renderFrom(spec.where ?? []);
  if (from) parts.push(from.trim());
  return parts.join(" ") + renderWhere(spec.where ?? []);
}

/**
 * `:foreach i in=[/ip firewall filter find where chain="input"] do={:if ($i != *1 && $i != *3)
 * do={/ip firewall filter remove $i}}`: `verb` on each item the conditions
 * select but the `except` ids (checked), which RouterOS 6 and 7 both run:
 * `find` takes no `.id` condition, so the ids are compared one by one in
 * the loop (`*1` is an id literal, `$i` the id `find` gave).
 */
export function forEachExcept(
  path: string,
  verb: string,
  where: readonly Condition[],
  except: readonly string[],
): string {
  if (except.length === 0) return cmd(path, verb, { find: where });
  const kept = except.map((id) => `$i != ${checkId(id)}`).join(" && ");
  return `:foreach i in=[${menuPath(path)} find${renderWhere(where)}] do={:if (${kept}) do={${
    menuPath(path)
  } ${checkName(verb, "command")} $i}}`;
}

/** `[command]`: a command whose value is used (`[/ip address add ...]`). */
export function bracket(command: string): Expr {
  return `[${command}]` as Expr;
}

/** `$name` of a checked variable name. */
export function variable(name: string): Expr {
  return `$${checkName(name, "variable")}` as Expr;
}

/** `:local name EXPR`. */
export function local(name: string, expression: Expr): string {
  return `:local ${checkName(name, "variable")} ${expression}`;
}

/** `[/ip dns get cache-used]`: one property of a settings menu (or of `ref`'s item). */
export function getExpr(path: string, property: string, ref?: ItemRef | Expr): Expr {
  const item = ref === undefined ? "" : typeof ref === "string" ? ` ${ref}` : ` ${renderRef(ref)}`;
  return `[${menuPath(path)} get${item} ${checkName(property, "property")}]` as Expr;
}

/** `[/file find where name="x"]`. */
export function findExpr(path: string, where: readonly Condition[]): Expr {
  return `[${menuPath(path)} find${renderWhere(where)}]` as Expr;
}

/** `[/ip dns cache print count-only where ...]`: how many items match. */
export function countExpr(path: string, where: readonly Condition[] = []): Expr {
  return `[${menuPath(path)} print count-only${renderFrom(where)}${renderWhere(where)}]` as Expr;
}

/** `:put "text"` of a fixed text (quoted). */
export function putText(text: string): string {
  return `:put ${quoteValue(text)}`;
}
