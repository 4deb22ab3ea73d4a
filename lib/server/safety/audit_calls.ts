/**
 * The write calls a log records, read back from its entries: which intents
 * never got their outcome. A write's first intent line reaches the disk
 * before its first command is sent, and its outcome line is written when
 * the call ends, naming the intent (`"intent": N`). An intent with no
 * outcome is a write the server was sending when it stopped (a crash, a
 * `kill -9`, a power cut): the command may or may not have reached the
 * router, so its outcome is unknown. The server names such intents in a
 * recovery line at its next start; `audit verify` reports them either way.
 *
 * Lines written before intents existed (no `kind`) are complete records
 * of their own and are not looked at here.
 *
 * @module
 */

/** A write whose outcome was never written. */
export interface Interrupted {
  /** Entry number of its (first) intent. */
  entry: number;
  tool: string;
  device: string;
  /** Entry number of the recovery line that named it, once a server has started since. */
  recoveredAt?: number;
}

/** The line a server appends at start when the log shows that it stopped mid-write. */
export interface RecoveryEntry {
  kind: "recovery";
  time: string;
  /** Entry numbers of the intents that never got an outcome. */
  interrupted: number[];
  /** Entries that were past the anchor (flushed, then the stop came before the anchor moved). */
  anchor_behind?: number;
  /** Bytes of a last line cut short by the stop, removed from the log. */
  torn_bytes?: number;
  /** SHA-256 of those bytes. */
  torn_sha256?: string;
}

/** The intents of `entries` (entry #k is `entries[k - 1]`) that have no outcome. */
export function interruptedWrites(entries: readonly Record<string, unknown>[]): Interrupted[] {
  const open = new Map<number, Interrupted>();
  const done: Interrupted[] = [];
  entries.forEach((e, i) => {
    const n = i + 1;
    if (e.kind === "intent" && e.intent === undefined) {
      open.set(n, { entry: n, tool: String(e.tool ?? "?"), device: String(e.device ?? "?") });
    } else if (e.kind === "outcome" && typeof e.intent === "number") {
      open.delete(e.intent);
    } else if (e.kind === "recovery" && Array.isArray(e.interrupted)) {
      for (const k of e.interrupted) {
        const w = open.get(k);
        if (!w) continue;
        open.delete(k);
        done.push({ ...w, recoveredAt: n });
      }
    }
  });
  return [...done, ...open.values()].sort((a, b) => a.entry - b.entry);
}

/** `#12 router_add_ip_address on core-1`, for messages. */
export function describeWrite(w: Interrupted): string {
  return `#${w.entry} ${w.tool} on ${w.device}`;
}
