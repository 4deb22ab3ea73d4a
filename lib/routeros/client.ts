/**
 * A RouterOS client for one device: detects the release once per
 * connection, runs scripts built with {@linkcode Script}, and returns their
 * sections parsed. Terse reads (before 7.13) whose split is ambiguous are
 * read again property by property, in one more exec.
 *
 * @module
 */
import { isIpv4, isIpv6 } from "./ip_address.ts";
import { SshError } from "../ssh/errors.ts";
import type { SshPool } from "../ssh/pool.ts";
import type { LoginMethod } from "../ssh/handshake.ts";
import type { ChunkSink, DownloadOptions, TransferResult, UploadOptions } from "../ssh/sftp.ts";
import type { SshTarget } from "../ssh/target.ts";
import { type Condition, refCondition } from "./command.ts";
import { INSPECT_KEYS, type InspectChild, inspectChildren, inspectExpr } from "./inspect.ts";
import { type Dialect, parseVersion, VERSION_COMMAND } from "./dialect.ts";
import { outputError, RouterOsError } from "./errors.ts";
import { checkFileName } from "./quote.ts";
import type { RawItem } from "./parse_json.ts";
import { singlePropertyValue } from "./parse_terse.ts";
import { type ReadItems, type ReadSpec, Script, type ScriptOutput } from "./script.ts";

/** The SFTP path of a file name of `/file`, checked by the one allow-list. */
function sftpPath(name: string): string {
  return "/" + checkFileName(name);
}

/**
 * Called with every command a client is about to send (for audit and
 * dry-run checks), once, when a channel is ready for it: the command is
 * written to the channel once what it returns has resolved, and not at all
 * if that rejects (a write-ahead audit line).
 */
export type CommandRecorder = (command: string, idempotent: boolean) => void | Promise<void>;

/** Per-device cache shared by a client and its recording views. */
interface ClientCache {
  dialect: { connectionId: number; dialect: Dialect } | null;
  /** `/console inspect` answers of the live connection (its release and packages), by path. */
  inspect?: { connectionId: number; byPath: Map<string, InspectChild[]> };
}

/** How a script is run. */
export interface RunOptions {
  /** Safe to repeat: reads are retried once on a fresh connection; writes never are. */
  idempotent: boolean;
  /** The menu or operation, for messages (`/ip/address`). */
  what?: string;
  /** Aborting it stops the command on the router (its channel is closed). */
  signal?: AbortSignal;
}

/**
 * Whom a client's commands are for, passed to the pool with each of them:
 * the device's SSH channels are shared fairly between `who` keys, and an
 * `urgent` command (the commit of a change the router reverts by itself)
 * may use the channel kept for such (lib/ssh/channel_slots.ts).
 */
export interface CommandCaller {
  who?: string;
  urgent?: boolean;
}

/** One device's RouterOS client over the shared pool. */
export class RouterOsClient {
  readonly target: SshTarget;
  #pool: SshPool;
  #cache: ClientCache;
  #recorder?: CommandRecorder;
  #who?: string;
  #urgent?: boolean;

  constructor(
    pool: SshPool,
    target: SshTarget,
    cache: ClientCache = { dialect: null },
    recorder?: CommandRecorder,
    caller?: CommandCaller,
  ) {
    this.#pool = pool;
    this.target = target;
    this.#cache = cache;
    this.#recorder = recorder;
    this.#who = caller?.who;
    this.#urgent = caller?.urgent;
  }

  /** The same client, reporting every command it sends to `recorder`, each for `caller`. */
  withRecorder(recorder: CommandRecorder, caller?: CommandCaller): RouterOsClient {
    return new RouterOsClient(this.#pool, this.target, this.#cache, recorder, caller);
  }

  /** The router's dialect, detected once per connection. */
  async dialect(): Promise<Dialect> {
    const cached = this.#cache.dialect;
    if (cached && this.#pool.connectionId(this.target.title) === cached.connectionId) {
      return cached.dialect;
    }
    let r;
    // A read, recorded so that a failure is told apart from the commands before it.
    this.#recorder?.(VERSION_COMMAND, true);
    try {
      r = await this.#pool.exec(this.target, VERSION_COMMAND, {
        idempotent: true,
        what: "the version probe (/system resource)",
        who: this.#who,
        urgent: this.#urgent,
      });
    } catch (err) {
      // The probe only reads: whatever happened, it changed nothing.
      if (err instanceof SshError) throw new SshError(err.kind, err.message, false);
      throw err;
    }
    const dialect = parseVersion(r.output);
    if (!dialect) throw outputError(r.output);
    this.#cache.dialect = { connectionId: r.connectionId, dialect };
    return dialect;
  }

  /**
   * The addresses of this server's SSH session (what the lock-out guard
   * protects): the router's end (the socket's peer, else the configured host
   * when it is an IP literal) and this host's end (unknown before the first
   * connection). Behind NAT the router sees other addresses than these.
   * `login` is how the live connection logged in; before one, what the
   * configuration allows: the key alone (no password), the password alone
   * (no key), or undefined when either may be the one the router accepts.
   */
  session(): { router?: string; local?: string; login?: LoginMethod } {
    const host = this.target.host.replace(/^\[|\]$/g, "");
    const live = this.#pool.endpoints(this.target.title);
    const { keyFilename, password } = this.target;
    return {
      router: live?.router ?? (isIpv4(host) || isIpv6(host) ? host : undefined),
      local: live?.local,
      login: live?.login ??
        (!keyFilename ? "password" : password === undefined ? "publickey" : undefined),
    };
  }

  /** A new script for this router's dialect. */
  async script(): Promise<Script> {
    return new Script(await this.dialect());
  }

  /** Prove that a fresh SSH login to the device still works. */
  probeLogin(): Promise<void> {
    return this.#pool.probe(this.target);
  }

  /** Run raw command text (`router_run_command`, exports); the output as the router printed it. */
  async exec(command: string, options: RunOptions): Promise<string> {
    const record = this.#recorder;
    let recorded: Promise<void> | undefined;
    const r = await this.#pool.exec(this.target, command, {
      idempotent: options.idempotent,
      what: options.what ?? "the command",
      ...(options.signal ? { signal: options.signal } : {}),
      who: this.#who,
      urgent: this.#urgent,
      // Recorded once, even if the pool retries a command it could not send.
      ...(record
        ? { beforeSend: () => recorded ??= Promise.resolve(record(command, options.idempotent)) }
        : {}),
    });
    return r.output;
  }

  /**
   * Download a file of the router's storage over SFTP (`flash/x.backup`)
   * into `sink`, streamed; a file over `maxBytes` is refused. Changes nothing.
   */
  download(
    name: string,
    sink: ChunkSink,
    options: Omit<DownloadOptions, "idleTimeoutMs">,
  ): Promise<TransferResult> {
    return this.#pool.readFile(this.target, sftpPath(name), sink, options, this.#who);
  }

  /**
   * Upload the chunks of `source` to a file of the router's storage over
   * SFTP (created or replaced), streamed; recorded as a write (its
   * write-ahead audit line is on disk before the first byte is sent).
   */
  async upload(
    name: string,
    source: AsyncIterable<Uint8Array>,
    options: Omit<UploadOptions, "idleTimeoutMs">,
  ): Promise<TransferResult> {
    const path = sftpPath(name);
    const size = options.size === undefined ? "" : ` (${options.size} bytes)`;
    await this.#recorder?.(`sftp put ${path}${size}`, false);
    return await this.#pool.writeFile(this.target, path, source, options, this.#who);
  }

  /** Run a script and parse its sections; terse reads are made unambiguous. */
  async run(script: Script, options: RunOptions): Promise<ScriptOutput> {
    const output = await this.exec(script.toString(), options);
    // Parse errors name what was run.
    const parsed = script.parse(output);
    for (const [index, spec] of script.readSpecs()) {
      const read = parsed.get<ReadItems>({ index });
      if (read.ambiguous.size > 0) await this.#disambiguate(script.dialect, spec, read);
    }
    return parsed;
  }

  /**
   * The children of each menu path (`["ip", "address"]`) as the router
   * reports them (`/console inspect request=child`, RouterOS 7), in one exec
   * for those not asked before on this connection. A connection is one
   * release with one package set, so the answers are kept for its life.
   */
  async inspect(paths: readonly (readonly string[])[]): Promise<InspectChild[][]> {
    const dialect = await this.dialect();
    const connectionId = this.#pool.connectionId(this.target.title) ?? -1;
    if (this.#cache.inspect?.connectionId !== connectionId) {
      this.#cache.inspect = { connectionId, byPath: new Map() };
    }
    const known = this.#cache.inspect.byPath;
    const missing = [...new Set(paths.map((p) => p.join(",")))].filter((k) => !known.has(k));
    if (missing.length) {
      const script = new Script(dialect);
      const sections = missing.map((key) => script.records(inspectExpr(key), true, INSPECT_KEYS));
      const out = await this.run(script, { idempotent: true, what: "/console/inspect" });
      missing.forEach((key, i) => known.set(key, inspectChildren(out.get(sections[i]))));
    }
    return paths.map((p) => known.get(p.join(","))!);
  }

  /** Read a menu's items, filtered by `where` (ids go as `from=`). */
  async read(spec: ReadSpec, where: readonly Condition[] = []): Promise<RawItem[]> {
    const script = await this.script();
    const section = script.read(spec, where);
    return (await this.run(script, { idempotent: true, what: spec.path })).get(section).items;
  }

  /**
   * Terse lines whose split was ambiguous (a value holds ` key=` text) are
   * read again one property at a time, where the whole rest of the line is
   * the value. One exec for all of them.
   */
  async #disambiguate(dialect: Dialect, spec: ReadSpec, read: ReadItems): Promise<void> {
    const targets = [...read.ambiguous].map((i) => read.items[i])
      .filter((item) => typeof item[".id"] === "string");
    if (targets.length === 0) return;
    const keys = spec.keys.filter((k) => k !== ".id");
    const script = new Script(dialect);
    const sections = targets.flatMap((item) =>
      keys.map((key) =>
        script.lines(
          Script.terseProperty(spec.path, refCondition({ id: String(item[".id"]) }), key),
        )
      )
    );
    let out;
    try {
      out = await this.run(script, { idempotent: true, what: spec.path });
    } catch (err) {
      // An item gone by now (the read-back before a removal) keeps its first split.
      if (err instanceof RouterOsError && err.kind === "not-found") return;
      throw err;
    }
    let at = 0;
    for (const item of targets) {
      for (const key of keys) {
        const value = singlePropertyValue(out.get(sections[at++]).join("\n"), key);
        if (value === undefined) delete item[key];
        else item[key] = value;
      }
    }
    read.ambiguous.clear();
  }
}
