/**
 * What the guard chain records of every write attempt, write-ahead, and
 * the sink it writes to (the server's hash-chained audit log implements it).
 *
 * A write that sends a command that may change the router is recorded in
 * two steps: an `intent` line, flushed to disk before the command is sent
 * (one per such command; the first holds the call's masked arguments), and
 * an `outcome` line when the call ends, naming its first intent. A crash
 * between the two leaves an intent without an outcome: a write whose
 * outcome is unknown, never a change without a line. A dry run, or a write
 * that ends before sending anything, gets one `outcome` line with its
 * arguments and (dry run) the commands it would send.
 *
 * @module
 */

/** How a write attempt ended. */
export type AuditOutcomeKind = "ok" | "routeros-error" | "unknown" | "refused" | "error";

/** Who made a call, as the transport knows it (client, session, principal). */
export type AuditCaller = Readonly<Record<string, unknown>>;

/** Written and flushed before a command that may change the router is sent. */
export interface AuditIntent {
  kind: "intent";
  /** A call's second and later commands: the entry number of its first intent. */
  intent?: number;
  time: string;
  device: string;
  tool: string;
  /** The composite tool this call ran inside (`router_apply_changes`), if any. */
  parent?: string;
  /** The call's arguments, masked (first intent only). */
  arguments?: Record<string, unknown>;
  /** The command about to be sent, masked. */
  command: string;
  client?: { name?: string; version?: string };
  session?: string;
  /**
   * Who made the call, named by where it comes from (`key:NAME`,
   * `oauth:ISSUER#SUBJECT`, `anonymous:ADDRESS`): the identity the
   * transport authenticated; absent for stdio's owner.
   */
  principal?: string;
  /** Whom a parent (the REST proxy) said in `_meta` the call is for: its label, not an identity. */
  on_behalf_of?: string;
}

/** Written when a write attempt ends. */
export interface AuditOutcome {
  kind: "outcome";
  /** The entry number of the call's first intent, when it sent anything. */
  intent?: number;
  time: string;
  device: string;
  tool: string;
  parent?: string;
  /** Without an intent: the arguments, masked. */
  arguments?: Record<string, unknown>;
  /** Without an intent: the commands a dry run would send (a call that sent nothing: none). */
  commands?: string[];
  dry_run?: boolean;
  outcome: AuditOutcomeKind;
  error?: string;
  duration_ms: number;
  /** With an intent: how many commands the call sent. */
  sent?: number;
  client?: { name?: string; version?: string };
  session?: string;
}

/** One audit line the guard chain writes. */
export type AuditEntry = AuditIntent | AuditOutcome;

/** Where audit lines go. */
export interface AuditSink {
  /** Throw unless a line can be appended (writes are refused then). */
  checkWritable(): Promise<void>;
  /** Append one entry, flushed to disk; resolves to its entry number (1-based). */
  append(entry: AuditEntry): Promise<number>;
}

/** What every line of one call says: where, what and who. */
export interface CallDescription {
  device: string;
  tool: string;
  parent?: string;
  /** The call's arguments, masked. */
  arguments: Record<string, unknown>;
  caller: AuditCaller;
}

/** The audit of one write call: an intent before each command it sends, then its outcome. */
export class CallAudit {
  readonly #sink: AuditSink;
  readonly #call: CallDescription;
  readonly #mask: (command: string) => string;
  /** Entry number of the first intent, once it is being written. */
  #first?: Promise<number>;
  #sent = 0;

  constructor(sink: AuditSink, call: CallDescription, mask: (command: string) => string) {
    this.#sink = sink;
    this.#call = call;
    this.#mask = mask;
  }

  #broken = false;

  /** Whether an intent was written (or is being written). */
  get started(): boolean {
    return this.#first !== undefined;
  }

  /** Whether an intent could not be written (the call stopped there, and says why). */
  get broken(): boolean {
    return this.#broken;
  }

  /** Record that `command` is about to be sent: resolves once its intent is on disk. */
  async intent(command: string): Promise<void> {
    try {
      await this.#intent(command);
    } catch (err) {
      this.#broken = true;
      throw err;
    }
  }

  async #intent(command: string): Promise<void> {
    const { device, tool, parent, caller } = this.#call;
    const where = { time: new Date().toISOString(), device, tool, ...(parent ? { parent } : {}) };
    this.#sent++;
    if (!this.#first) {
      this.#first = this.#sink.append({
        kind: "intent",
        ...where,
        arguments: this.#call.arguments,
        command: this.#mask(command),
        ...caller,
      });
      await this.#first;
      return;
    }
    const first = await this.#first;
    await this.#sink.append({
      kind: "intent",
      intent: first,
      ...where,
      command: this.#mask(command),
    });
  }

  /** Record how the call ended (after every intent of it is on disk). */
  async outcome(r: {
    outcome: AuditOutcomeKind;
    error?: string;
    durationMs: number;
    dryRun: boolean;
    /** What a dry run would send. */
    commands: readonly string[];
  }): Promise<void> {
    const { device, tool, parent, caller } = this.#call;
    const first = await this.#first?.catch(() => undefined);
    const where = { time: new Date().toISOString(), device, tool, ...(parent ? { parent } : {}) };
    const end = {
      outcome: r.outcome,
      ...(r.error !== undefined ? { error: r.error } : {}),
      duration_ms: r.durationMs,
    };
    await this.#sink.append(
      first !== undefined
        ? { kind: "outcome", intent: first, ...where, ...end, sent: this.#sent }
        : {
          kind: "outcome",
          ...where,
          arguments: this.#call.arguments,
          commands: r.commands.map(this.#mask),
          dry_run: r.dryRun,
          ...end,
          ...caller,
        },
    );
  }
}
