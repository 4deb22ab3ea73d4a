/**
 * What a connection is given and gives back: its settings, one command to
 * run, the command's output, and the connection's counters.
 *
 * @module
 */

/** Settings of every connection in a pool. */
export interface ConnectionSettings {
  /** Exec channels at once (the pre-opened one included). */
  maxChannels: number;
  /** Keepalive interval in ms (0 = off). */
  keepaliveMs: number;
  /** Largest output accepted per command, in bytes. */
  maxOutputBytes: number;
  /** Close the connection after this long without commands (ms). */
  idleMs: number;
  /** Keep a session channel open ahead of need. */
  preopen: boolean;
}

/** One command to run. */
export interface ExecRequest {
  command: string;
  /** What the command is, in messages (the caller's words, see `ExecOptions.what`). */
  what: string;
  /** True for reads (safe to run twice). */
  idempotent: boolean;
  /**
   * Awaited once a channel is held, just before the command is written to
   * it (a write-ahead record); when it rejects, the command is not sent.
   * It may be called again if the command is retried before it was sent.
   */
  beforeSend?: () => Promise<void>;
  /**
   * Aborting it closes the command's channel (what stops a running command
   * on the router, as Ctrl-C does at the console) and fails the exec as
   * `cancelled`.
   */
  signal?: AbortSignal;
  /**
   * Who the command is for: a neutral key the caller chooses; channels are
   * shared fairly between keys (`channel_slots.ts`). Absent: the owner.
   */
  who?: string;
  /** Must not wait behind other commands: it may use the channel kept for such. */
  urgent?: boolean;
}

/** Result of one exec. */
export interface ExecOutput {
  /** Decoded, `\r\n`-normalised output (stdout then stderr). */
  output: string;
  /** Exit status (some devices' is unreliable; callers read errors from the text). */
  exitCode: number | null;
}

/** Counters of one connection, for tests and the benchmark. */
export interface ConnectionStats {
  /** Channels in use by commands now. */
  active: number;
  /** Commands waiting for a channel. */
  queued: number;
  /** Most channels ever in use at once. */
  peakActive: number;
  /** Channel limit in force (lowered if the server refuses channels). */
  limit: number;
  /** Commands run on a pre-opened channel. */
  preopenedUsed: number;
  /** Commands run on a channel opened for them. */
  freshChannels: number;
  /** Pre-opened channels the server closed while idle. */
  sparesClosedByServer: number;
  /** Whether pre-opening is (still) in use on this connection. */
  preopen: boolean;
}
