/**
 * A RouterOS client for one device: detects the version once per
 * connection, reads items in the best form the version offers, and runs
 * writes together with their read-back in one exec.
 *
 * @module
 */
import type { SshPool } from "../ssh/pool.ts";
import type { SshTarget } from "../ssh/target.ts";
import { type Condition, readStatement } from "./commands.ts";
import { type Dialect, parseVersion, VERSION_COMMAND } from "./dialect.ts";
import { RouterOsError } from "./errors.ts";
import { outputError, parseJsonItems, type RawItem } from "./parse_json.ts";
import { type FlagMap, parseSingletonPrint, parseTerse } from "./parse_terse.ts";

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
    const command = readStatement(dialect, spec.path, conditions, spec.singleton);
    const output = await this.run(command, spec.path, true);
    return this.parseRead(dialect, spec, output);
  }

  /** Parse the output of one {@linkcode readStatement}. */
  parseRead(dialect: Dialect, spec: ReadSpec, output: string): RawItem[] {
    if (dialect.json) return parseJsonItems(output);
    if (spec.singleton) return [parseSingletonPrint(output)];
    return parseTerse(output, spec.keys, spec.flags);
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
    return splitSections(this, dialect, spec, output, sections);
  }
}

function splitSections(
  client: RouterOsClient,
  dialect: Dialect,
  spec: ReadSpec,
  output: string,
  sections: number,
): RawItem[][] {
  if (dialect.json) {
    const lines = output.split("\n").filter((l) => l.trim() !== "");
    const out: RawItem[][] = [];
    for (const line of lines) out.push(parseJsonItems(line));
    if (out.length !== sections) throw outputError(output);
    return out;
  }
  // Terse sections are separated by a marker line the script prints.
  const parts = output.split(SECTION_MARK + "\n");
  const tail = parts.pop() ?? "";
  if (tail.trim() !== "") throw outputError(tail);
  if (parts.length !== sections) throw outputError(output);
  return parts.map((p) => client.parseRead(dialect, spec, p));
}

/** Printed after each terse read-back section, so sections can be told apart. */
export const SECTION_MARK = "--mcp-server-router-section--";

export { RouterOsError };
