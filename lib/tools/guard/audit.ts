/**
 * What the guard chain records of every write attempt, and the sink it
 * writes to (the server's hash-chained audit log implements it).
 *
 * @module
 */

/** One audit line. */
export interface AuditEntry {
  time: string;
  device: string;
  tool: string;
  /** The composite tool this call ran inside (`router_apply_changes`), if any. */
  parent?: string;
  arguments: Record<string, unknown>;
  commands: string[];
  dry_run: boolean;
  outcome: "ok" | "routeros-error" | "unknown" | "refused" | "error";
  error?: string;
  duration_ms: number;
  client?: { name?: string; version?: string };
  session?: string;
  /** Who made the call: an API key's name or a token's subject (absent for stdio's owner). */
  principal?: string;
}

/** Where audit lines go. */
export interface AuditSink {
  /** Throw unless a line can be appended (writes are refused then). */
  checkWritable(): Promise<void>;
  append(entry: AuditEntry): Promise<void>;
}
