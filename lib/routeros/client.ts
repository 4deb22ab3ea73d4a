/**
 * A RouterOS client for one device: detects the version once per
 * connection, reads items in the best form the version offers, and runs
 * writes together with their read-back in one exec.
 *
 * @module
 */
import type { SshPool } from "../ssh/pool.ts";
import type { SshTarget } from "../ssh/target.ts";
import { type Condition, PROPERTY_MARK, readStatement } from "./commands.ts";
import { type Dialect, parseVersion, VERSION_COMMAND } from "./dialect.ts";
import { classifyError, RouterOsError } from "./errors.ts";
import { jsonItems, outputError, type RawItem } from "./parse_json.ts";
import {
  type FlagMap,
  parseSingletonPrint,
  parseTerseItems,
  singlePropertyValue,
} from "./parse_terse.ts";

/** How to read one menu. */
export interface ReadSpec {
  path: string;
  /** Property names of the menu (for the terse parser). */
  keys: readonly string[];
  flags?: FlagMap;
  singleton?: boolean;
}

/** Called with every command a client sends (for audit and dry-run checks). */
export type CommandRecorder = (command: string, idempotent: boolean) => void;

/** Per-device cache shared by a client and its recording views. */
interface ClientCache {
  dialect: { connectionId: number; dialect: Dialect } | null;
}

/** One device's RouterOS client over the shared pool. */
export class RouterOsClient {
  readonly target: SshTarget;
  #pool: SshPool;
  #cache: ClientCache;
  #recorder?: CommandRecorder;

  constructor(
    pool: SshPool,
    target: SshTarget,
    cache: ClientCache = { dialect: null },
    recorder?: CommandRecorder,
  ) {
    this.#pool = pool;
    this.target = target;
    this.#cache = cache;
    this.#recorder = recorder;
  }

  /** The same client, reporting every command it sends to `recorder`. */
  withRecorder(recorder: CommandRecorder): RouterOsClient {
    return new RouterOsClient(this.#pool, this.target, this.#cache, recorder);
  }

  /** The router's dialect, detected once per connection. */
  async dialect(): Promise<Dialect> {
    const cached = this.#cache.dialect;
    if (cached && this.#pool.connectionId(this.target.title) === cached.connectionId) {
      return cached.dialect;
    }
    const r = await this.#pool.exec(this.target, VERSION_COMMAND, {
      idempotent: true,
      menu: "/system resource",
    });
    const dialect = parseVersion(r.output);
    if (!dialect) throw outputError(r.output);
    this.#cache.dialect = { connectionId: r.connectionId, dialect };
    return dialect;
  }

  /** Prove that a fresh SSH login to the device still works. */
  probeLogin(): Promise<void> {
    return this.#pool.probe(this.target);
  }

  /** Run raw command text (already built from quoted parts). */
  async run(command: string, menu: string, idempotent: boolean): Promise<string> {
    this.#recorder?.(command, idempotent);
    const r = await this.#pool.exec(this.target, command, { idempotent, menu });
    return r.output;
  }

  /** Read items of a menu, optionally filtered by equality conditions. */
  async read(spec: ReadSpec, conditions: readonly Condition[] = []): Promise<RawItem[]> {
    const dialect = await this.dialect();
    const command = readStatement(dialect, spec.path, conditions, spec.singleton, spec.keys);
    const output = await this.run(command, spec.path, true);
    return await this.#disambiguate(dialect, spec, this.parseReadDetailed(dialect, spec, output));
  }

  /**
   * Parse the output of one {@linkcode readStatement}. Terse values that
   * hold ` key=` text may be split at the wrong place here; {@linkcode read}
   * and {@linkcode write} read such items again.
   */
  parseRead(dialect: Dialect, spec: ReadSpec, output: string): RawItem[] {
    return this.parseReadDetailed(dialect, spec, output).items;
  }

  /** {@linkcode parseRead}, naming the items whose terse split is ambiguous. */
  parseReadDetailed(dialect: Dialect, spec: ReadSpec, output: string): ParsedRead {
    if (dialect.json) return { items: jsonItems(dialect, output), ambiguous: new Set() };
    if (spec.singleton) {
      const item = output.includes(PROPERTY_MARK)
        ? singletonProperties(output, spec.keys)
        : parseSingletonPrint(output);
      return { items: [item], ambiguous: new Set() };
    }
    return parseTerseItems(output, spec.keys, spec.flags);
  }

  /**
   * Terse lines whose split was ambiguous (a value holds ` key=` text) are
   * read again one property at a time, where the whole rest of the line is
   * the value. One exec for all of them.
   */
  async #disambiguate(dialect: Dialect, spec: ReadSpec, parsed: ParsedRead): Promise<RawItem[]> {
    const targets = [...parsed.ambiguous].map((i) => parsed.items[i])
      .filter((item) => typeof item[".id"] === "string");
    if (targets.length === 0) return parsed.items;
    const keys = spec.keys.filter((k) => k !== ".id");
    const statements = targets.flatMap((item) =>
      keys.map((key) =>
        `${
          readStatement(dialect, spec.path, [{ key: ".id", value: String(item[".id"]) }], false, [
            key,
          ])
        }; :put "${SECTION_MARK}"`
      )
    );
    const output = await this.run(statements.join("; "), spec.path, true);
    const parts = output.split(SECTION_MARK + "\n");
    parts.pop();
    // An item gone by now (the read-back of a removal) keeps its first split.
    if (parts.length !== statements.length) return parsed.items;
    let at = 0;
    for (const item of targets) {
      for (const key of keys) {
        const value = singlePropertyValue(parts[at++], key);
        if (value === undefined) delete item[key];
        else item[key] = value;
      }
    }
    return parsed.items;
  }

  /**
   * Run a write script whose output is made of read-back sections. Each
   * section is produced by one read statement; `sections` says how many. Any
   * other output (an error) raises.
   */
  async write(
    dialect: Dialect,
    spec: ReadSpec,
    script: string,
    sections: number,
  ): Promise<RawItem[][]> {
    const output = await this.run(script, spec.path, false);
    const parsed = splitSections(this, dialect, spec, output, sections);
    return await Promise.all(parsed.map((p) => this.#disambiguate(dialect, spec, p)));
  }
}

/**
 * A singleton read property by property: a mark line naming the property,
 * then its value. A property the router does not have (nothing, or an error
 * text) is left out.
 */
function singletonProperties(output: string, keys: readonly string[]): RawItem {
  const item: RawItem = {};
  const known = new Set(keys);
  const tag = new RegExp(`^${PROPERTY_MARK}([a-z0-9.][a-z0-9.-]*)\n`, "gm");
  const marks = [...output.matchAll(tag)];
  if (marks.length === 0) throw outputError(output);
  marks.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index! : output.length;
    let value = output.slice(start, end);
    if (value.endsWith("\n")) value = value.slice(0, -1);
    if (i + 1 === marks.length) value = value.replace(/\n+$/, "");
    if (!known.has(m[1]) || (start === end) || classifyError(value) !== null) return;
    item[m[1]] = value;
  });
  return item;
}

/** Items as parsed, and which of them need a property-by-property read. */
export interface ParsedRead {
  items: RawItem[];
  ambiguous: Set<number>;
}

function splitSections(
  client: RouterOsClient,
  dialect: Dialect,
  spec: ReadSpec,
  output: string,
  sections: number,
): ParsedRead[] {
  if (dialect.json) {
    const lines = output.split("\n").filter((l) => l.trim() !== "");
    const out: ParsedRead[] = [];
    for (const line of lines) out.push({ items: jsonItems(dialect, line), ambiguous: new Set() });
    if (out.length !== sections) throw outputError(output);
    return out;
  }
  // Terse sections are separated by a marker line the script prints.
  const parts = output.split(SECTION_MARK + "\n");
  const tail = parts.pop() ?? "";
  if (tail.trim() !== "") throw outputError(tail);
  if (parts.length !== sections) throw outputError(output);
  return parts.map((p) => client.parseReadDetailed(dialect, spec, p));
}

/** Printed after each terse read-back section, so sections can be told apart. */
export const SECTION_MARK = "--mcp-server-router-section--";

export { RouterOsError };
