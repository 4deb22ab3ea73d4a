/**
 * Command building. Every value goes through {@linkcode quoteValue} and every
 * name, path and id through the allow-list; nothing else reaches the router.
 *
 * Paths use the space form (`/ip address`), which RouterOS 6 and 7 both take.
 *
 * @module
 */
import type { Dialect } from "./dialect.ts";
import { checkId, checkMenuPath, checkName, quoteValue } from "./quote.ts";
import { putJson } from "./serialize.ts";

/** A value to send: strings are quoted, booleans become yes/no. */
export type CommandValue = string | number | boolean;

/** One equality condition of a `where` clause. */
export interface Condition {
  key: string;
  value: CommandValue;
}

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

/** `key="value" key2=yes`, every key checked and every value quoted. */
export function renderArgs(props: Record<string, CommandValue | undefined>): string {
  return Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${checkName(k, "property")}=${renderValue(v as CommandValue)}`)
    .join(" ");
}

/** ` where a="1" and b=yes`, or "" for no conditions. */
export function renderWhere(conditions: readonly Condition[]): string {
  if (conditions.length === 0) return "";
  return " where " +
    conditions.map((c) => {
      const key = checkName(c.key, "filter");
      if (key === ".id") return `.id=${checkId(String(c.value))}`;
      return `${key}=${renderValue(c.value)}`;
    }).join(" and ");
}

/**
 * ` from=*1 where a="1"`: an `.id` condition becomes `from=` (which RouterOS
 * 6 and 7 both take), the others a `where` clause, which must come last.
 */
export function renderSelection(conditions: readonly Condition[]): string {
  const ids = conditions.filter((c) => c.key === ".id");
  const rest = conditions.filter((c) => c.key !== ".id");
  const from = ids.length ? ` from=${ids.map((c) => checkId(String(c.value))).join(",")}` : "";
  return from + renderWhere(rest);
}

/** The statement that prints matching items in the dialect's read form. */
export function readStatement(
  dialect: Dialect,
  path: string,
  conditions: readonly Condition[] = [],
  singleton = false,
  proplist: readonly string[] = [],
): string {
  const menu = menuPath(path);
  if (dialect.json) {
    const print = singleton ? `${menu} print as-value` : `${menu} print detail as-value`;
    return putJson(
      dialect,
      `[${print}${renderSelection(conditions)}]`,
      singleton ? "record" : "list",
    );
  }
  if (singleton) {
    // Each property by itself between marks: values may hold newlines.
    const props = proplist.map((p) => checkName(p, "property"));
    if (props.length === 0) return `${menu} print`;
    // One line each, so a property this version lacks fails alone.
    return props.map((p) =>
      `:put "${PROPERTY_MARK}${p}"; :do { :put [${menu} get ${p}] } on-error={}`
    ).join("\n");
  }
  // Terse values are not quoted: printing only known properties keeps an
  // unknown one from being glued onto the value before it.
  const props = proplist.filter((p) => p !== ".id").map((p) => checkName(p, "property"));
  const list = props.length ? ` proplist=${props.join(",")}` : "";
  return `${menu} print terse show-ids${list}${renderSelection(conditions)}`;
}

/** Printed before each property of a singleton read before RouterOS 7.13. */
export const PROPERTY_MARK = "--mcp-server-router-property--";

/** `[find where key="value"]` for a natural key, or the checked id. */
export function itemRef(ref: { id?: string; key?: Condition }): string {
  if (ref.id !== undefined) return checkId(ref.id);
  if (ref.key) return `[find${renderWhere([ref.key])}]`;
  throw new TypeError("an item reference needs an id or a key");
}

/** The condition that reads back one item by id or natural key. */
export function refCondition(ref: { id?: string; key?: Condition }): Condition {
  if (ref.id !== undefined) return { key: ".id", value: checkId(ref.id) };
  if (ref.key) return ref.key;
  throw new TypeError("an item reference needs an id or a key");
}
