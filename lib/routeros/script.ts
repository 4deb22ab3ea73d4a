/**
 * Scripts: several statements sent in one exec, whose printed parts
 * (sections) are read back by handle. Each section ends with a mark line
 * that carries a per-script nonce, so no value a router holds can fake one.
 * The dialect decides how a read prints (JSON, guarded JSON or terse); code
 * above this layer only asks for sections and gets typed values back.
 *
 * @module
 */
import { randomHex } from "./random_hex.ts";
import {
  bracket,
  type Condition,
  type Expr,
  menuPath,
  putText,
  renderFrom,
  renderWhere,
} from "./command.ts";
import type { Dialect } from "./dialect.ts";
import { classifyError, outputError, RouterOsError, unparsable } from "./errors.ts";
import { jsonItems, type RawItem } from "./parse_json.ts";
import {
  DEFAULT_FLAGS,
  type FlagMap,
  parseSingletonPrint,
  parseTerseItems,
} from "./parse_terse.ts";
import { checkName, quoteValue } from "./quote.ts";
import { putJson } from "./serialize.ts";

/** How to read one menu on the connected release. */
export interface ReadSpec {
  path: string;
  /** A settings menu (`/system identity`): one record, no ids. */
  singleton?: boolean;
  /** RouterOS property names on this release (terse parsing and `proplist`). */
  keys: readonly string[];
  /** Flag letters in terse output (default X/D/I). */
  flags?: FlagMap;
}

/** A read's items, and which of them a terse split left ambiguous. */
export interface ReadItems {
  items: RawItem[];
  /** Indexes of terse items whose split is ambiguous (a value holds ` key=` text). */
  ambiguous: Set<number>;
}

/** What a section holds once parsed. */
type SectionKind =
  | { k: "read"; spec: ReadSpec; ids?: readonly string[] }
  | { k: "records"; many: boolean; record: string; pair: string }
  | { k: "scalars"; keys: readonly string[] }
  | { k: "text" }
  | { k: "lines" };

/** A handle on one printed part of a script; its value comes from {@linkcode ScriptOutput.get}. */
export interface Section<T> {
  readonly index: number;
  /** Phantom: the type the section parses to. */
  readonly __type?: T;
}

/** A script under construction. */
export class Script {
  readonly dialect: Dialect;
  readonly #statements: string[] = [];
  readonly #sections: SectionKind[] = [];
  readonly #mark = `--mcp-${randomHex()}--`;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }

  /** A statement that prints nothing on success (`set`, `remove`, `:local`). */
  do(statement: string): this {
    this.#statements.push(statement);
    return this;
  }

  #section<T>(statement: string, kind: SectionKind): Section<T> {
    this.#statements.push(statement, putText(this.#mark));
    this.#sections.push(kind);
    return { index: this.#sections.length - 1 };
  }

  /** Read a menu's items (filtered by `where`; `.id` conditions become `from=`). */
  read(spec: ReadSpec, where: readonly Condition[] = []): Section<ReadItems> {
    const ids = where.filter((c) => c.key === ".id").map((c) =>
      String("value" in c ? c.value : "")
    );
    return this.#section(readOf(this.dialect, spec, where, this.#mark), {
      k: "read",
      spec,
      ids: ids.length ? ids : undefined,
    });
  }

  /** Read one item by a script variable holding its id (`:local id [... add ...]`). */
  readVar(spec: ReadSpec, name: string): Section<ReadItems> {
    const v = checkName(name, "variable");
    const menu = menuPath(spec.path);
    const statement = this.dialect.json
      ? putJson(this.dialect, bracket(`${menu} get $${v}`), "record")
      : `${menu} print terse show-ids${proplist(spec)} from=$${v}`;
    return this.#section(statement, { k: "read", spec });
  }

  /**
   * The records an expression gives (`[/interface monitor-traffic "ether1"
   * once as-value]`): one JSON line from 7.13; before, one line per key
   * (of `keys`, or every key a record has when `keys` is "every"; a list
   * value then prints `;` separated), each after the script's nonce, so a
   * value holding a newline continues its line and cannot fake a key or a
   * record.
   */
  records(
    expression: Expr,
    many: boolean,
    keys: readonly string[] | "every",
  ): Section<RawItem[]> {
    const mark = { record: this.#mark + RECORD_MARK, pair: this.#mark + PAIR_MARK };
    let statement: string;
    if (this.dialect.json) statement = putJson(this.dialect, expression, many ? "list" : "record");
    else {
      const dump = [
        putText(mark.record),
        ...(keys === "every"
          ? [`:foreach k,v in=$r do={:put ("${mark.pair}" . $k . "=" . [:tostr $v])}`]
          : keys.map((k) => {
            const key = checkName(k, "key");
            return `:put ("${mark.pair}${key}=" . ($r->"${key}"))`;
          })),
      ].join("; ");
      statement = many
        ? `:foreach r in=${expression} do={${dump}}`
        : `{:local r ${expression}; ${dump}}`;
    }
    return this.#section(statement, { k: "records", many, ...mark });
  }

  /** Scalar values as text, one per key (`{uptime: getExpr(...)}`). */
  scalars(pairs: Readonly<Record<string, Expr>>): Section<Record<string, string>> {
    const statement = Object.entries(pairs).map(([key, expression]) =>
      `:put (${quoteValue(checkName(key, "key") + "=")} . ${expression})`
    ).join("; ");
    return this.#section(statement, { k: "scalars", keys: Object.keys(pairs) });
  }

  /** One text value, byte for byte (JSON-escaped from 7.13, raw before). */
  text(expression: Expr): Section<string> {
    const statement = this.dialect.json
      ? putJson(this.dialect, expression, "text")
      : `:put ${expression}`;
    return this.#section(statement, { k: "text" });
  }

  /** Whatever a command prints (an export, a table the caller reads itself), as lines. */
  lines(statement: string): Section<string[]> {
    return this.#section(statement, { k: "lines" });
  }

  /** The read sections and how each reads (the client resolves ambiguous terse splits). */
  readSpecs(): [number, ReadSpec][] {
    return this.#sections.flatMap((
      k,
      i,
    ) => (k.k === "read" ? [[i, k.spec] as [number, ReadSpec]] : []));
  }

  /** `print terse` of one property of one item: its value runs to the end of the output. */
  static terseProperty(path: string, id: Condition, property: string): string {
    return `${menuPath(path)} print terse show-ids proplist=${checkName(property, "property")}${
      renderFrom([id])
    }`;
  }

  /** The script text: statements joined with `;`, so the first error stops the rest. */
  toString(): string {
    return this.#statements.join("; ");
  }

  /** Split and parse the output of this script. Errors raise {@linkcode RouterOsError}. */
  parse(output: string): ScriptOutput {
    const text = output.replace(/\r\n/g, "\n");
    const parts = text.split(`${this.#mark}\n`);
    const tail = parts.pop() ?? "";
    // A statement that failed stops the script: its error is in the tail.
    if (tail.trim() !== "" || parts.length !== this.#sections.length) {
      const failed = tail.trim() !== "" ? tail : text;
      if (classifyError(failed) !== null) throw outputError(failed.trim());
      throw unparsable(failed);
    }
    const values = parts.map((part, i) => parseSection(this.dialect, this.#sections[i], part));
    return new ScriptOutput(values);
  }
}

/** The parsed sections of a script's output. */
export class ScriptOutput {
  readonly #values: unknown[];

  constructor(values: unknown[]) {
    this.#values = values;
  }

  /** The value of one section. */
  get<T>(section: Section<T>): T {
    return this.#values[section.index] as T;
  }
}

/**
 * After the script's nonce mark: the line that starts a record of
 * `records`, and the start of each of its `key=value` lines (releases
 * without `:serialize`).
 */
const RECORD_MARK = "record";
const PAIR_MARK = ":";

function proplist(spec: ReadSpec): string {
  const props = spec.keys.filter((k) => k !== ".id").map((k) => checkName(k, "property"));
  return props.length ? ` proplist=${props.join(",")}` : "";
}

/**
 * Unfiltered reads by spec and read form: the same text for every call (a
 * spec is made once per menu and release, see `readSpecOf`), so built once.
 */
const unfiltered = new WeakMap<ReadSpec, Map<Dialect["read"], string>>();

/** {@linkcode readStatement}, the unfiltered ones that name no mark kept. */
function readOf(
  dialect: Dialect,
  spec: ReadSpec,
  where: readonly Condition[],
  mark: string,
): string {
  // A terse settings read names the script's mark in its statement.
  if (where.length > 0 || (spec.singleton && !dialect.json)) {
    return readStatement(dialect, spec, where, mark);
  }
  let byForm = unfiltered.get(spec);
  if (!byForm) unfiltered.set(spec, byForm = new Map());
  let statement = byForm.get(dialect.read);
  if (statement === undefined) {
    statement = readStatement(dialect, spec, where, mark);
    byForm.set(dialect.read, statement);
  }
  return statement;
}

/** The statement that prints a menu's items in the dialect's read form. */
function readStatement(
  dialect: Dialect,
  spec: ReadSpec,
  where: readonly Condition[],
  mark: string,
): string {
  const menu = menuPath(spec.path);
  const selection = renderFrom(where) + renderWhere(where);
  if (dialect.json) {
    const print = spec.singleton ? "print as-value" : "print detail as-value";
    return putJson(
      dialect,
      bracket(`${menu} ${print}${selection}`),
      spec.singleton ? "record" : "list",
    );
  }
  if (spec.singleton) {
    // One property at a time, each after its own mark: a value may hold
    // newlines, and a property this release lacks fails alone.
    const props = spec.keys.map((p) => checkName(p, "property"));
    if (props.length === 0) return `${menu} print`;
    return props.map((p) =>
      `${putText(`${mark}:${p}`)}; :do { :put [${menu} get ${p}] } on-error={}`
    ).join("; ");
  }
  // Terse values are not quoted: printing only known properties keeps an
  // unknown one from being glued onto the value before it.
  return `${menu} print terse show-ids${proplist(spec)}${selection}`;
}

function parseSection(dialect: Dialect, kind: SectionKind, text: string): unknown {
  switch (kind.k) {
    case "read":
      return checkShape(kind, parseRead(dialect, kind.spec, text), text);
    case "records":
      return parseRecords(dialect, text, kind);
    case "scalars":
      return parseScalars(text, kind.keys);
    case "text":
      return parseText(dialect, text);
    case "lines":
      if (classifyError(text) !== null) throw outputError(text.trim());
      return text.replace(/\n$/, "").split("\n");
  }
}

/** Lines without blank ones. */
function outputLines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}

function parseRead(dialect: Dialect, spec: ReadSpec, text: string): ReadItems {
  if (dialect.json) {
    const lines = outputLines(text);
    if (lines.length !== 1) throw outputError(text.trim() || "(no answer)");
    return { items: jsonItems(dialect, lines[0]), ambiguous: new Set() };
  }
  if (spec.singleton) {
    return { items: [singletonProperties(text, spec.keys)], ambiguous: new Set() };
  }
  return parseTerseItems(text, spec.keys, spec.flags ?? DEFAULT_FLAGS);
}

/** An item id as RouterOS prints it: `*1A`; files also have `**...` ids with letters. */
const ITEM_ID = /^\*[^\s*]?[\x21-\x7e ]*$/;

/**
 * Answers that do not have the shape of the menu are errors: a list item
 * without an id, a read by id that gives another item, a settings menu that
 * is not one record, an item with none of the menu's properties.
 */
function checkShape(
  kind: { spec: ReadSpec; ids?: readonly string[] },
  read: ReadItems,
  text: string,
): ReadItems {
  const known = new Set(kind.spec.keys);
  const bad = (why: string) =>
    unparsable(text, `the answer does not have the shape of ${kind.spec.path} (${why})`);
  if (kind.spec.singleton) {
    if (read.items.length !== 1) throw bad(`${read.items.length} records for a settings menu`);
  }
  for (const item of read.items) {
    if (!kind.spec.singleton) {
      const id = item[".id"];
      if (typeof id !== "string" || !ITEM_ID.test(id)) throw bad("an item without an id");
      if (kind.ids && !kind.ids.includes(id)) throw bad(`item ${id} was not asked for`);
    }
    if (known.size > 0 && !Object.keys(item).some((k) => known.has(k))) {
      throw bad("an item with none of the menu's properties");
    }
  }
  return read;
}

/**
 * A settings menu read property by property: a mark naming the property,
 * then its value. A property the router does not have (nothing, or an error
 * text) is left out.
 */
function singletonProperties(text: string, keys: readonly string[]): RawItem {
  if (keys.length === 0) return parseSingletonPrint(text);
  const item: RawItem = {};
  const known = new Set(keys);
  const tag = /^--mcp-[0-9a-f]{12}--:([a-z0-9.][a-z0-9.-]*)\n/gm;
  const marks = [...text.matchAll(tag)];
  if (marks.length === 0) throw outputError(text.trim() || "(no answer)");
  marks.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index! : text.length;
    let value = text.slice(start, end);
    if (value.endsWith("\n")) value = value.slice(0, -1);
    if (!known.has(m[1]) || start === end || classifyError(value) !== null) return;
    item[m[1]] = value;
  });
  return item;
}

function parseRecords(
  dialect: Dialect,
  text: string,
  mark: { record: string; pair: string },
): RawItem[] {
  if (dialect.json) {
    const lines = outputLines(text);
    if (lines.length !== 1) throw outputError(text.trim() || "(no answer)");
    return jsonItems(dialect, lines[0]);
  }
  const records: RawItem[] = [];
  let current: RawItem | null = null;
  let lastKey: string | null = null;
  for (const line of outputLines(text)) {
    if (line === mark.record) {
      current = {};
      records.push(current);
      lastKey = null;
      continue;
    }
    const m = line.startsWith(mark.pair)
      ? /^([a-z.][a-z0-9.-]*)=(.*)$/.exec(line.slice(mark.pair.length))
      : null;
    if (current && m) {
      lastKey = m[1];
      // `($r->"key")` of a missing key prints nothing: leave the key out.
      if (m[2] !== "") current[lastKey] = m[2];
    } else if (current && lastKey !== null && lastKey in current) {
      current[lastKey] = `${current[lastKey]}\n${line}`;
    } else {
      throw outputError(text.trim());
    }
  }
  return records;
}

function parseScalars(text: string, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of outputLines(text)) {
    const eq = line.indexOf("=");
    const key = eq > 0 ? line.slice(0, eq) : "";
    if (!keys.includes(key)) throw outputError(text.trim());
    out[key] = line.slice(eq + 1);
  }
  for (const k of keys) if (!(k in out)) throw outputError(text.trim() || "(no answer)");
  return out;
}

function parseText(dialect: Dialect, text: string): string {
  if (dialect.json) {
    const lines = outputLines(text);
    if (lines.length !== 1) throw outputError(text.trim() || "(no answer)");
    let value: unknown;
    try {
      value = JSON.parse(lines[0]);
    } catch {
      throw outputError(lines[0]);
    }
    if (typeof value !== "string") throw unparsable(lines[0]);
    if (dialect.read !== "json-guarded") return value;
    if (!value.startsWith("s")) throw unparsable(lines[0]);
    return value.slice(1);
  }
  if (classifyError(text) !== null) throw outputError(text.trim());
  return text.replace(/\n$/, "");
}

export { RouterOsError };
