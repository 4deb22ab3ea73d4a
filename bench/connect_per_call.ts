/**
 * Connect-per-call, the pattern of the reference Python server: for every
 * command a new SSH connection (TCP, handshake, login), one exec, then
 * close. Built from our own SSH stack (`lib/ssh`), without the pre-opened
 * channel (there is no second command to prepare for), so the comparison
 * with the pooled path measures the pattern, not the library.
 *
 * The time counted ends when the output is in: a server answers before it
 * closes, so the close (awaited before returning) is not charged.
 *
 * @module
 */
import { SshPool } from "../lib/ssh/pool.ts";
import type { SshTarget } from "../lib/ssh/target.ts";

/** The simulator's default login at `host:port`. */
export function benchTarget(host: string, port: number, title = "bench"): SshTarget {
  return {
    title,
    host,
    port,
    username: "admin",
    password: "",
    connectTimeoutMs: 30_000,
    commandTimeoutMs: 30_000,
  };
}

/** Output of one connect-per-call command and the time until it was in. */
export interface PerCall {
  output: string;
  /** From the start of the connection to the output, in ms (the close excluded). */
  ms: number;
}

/** Connect, log in, run `command`, close. */
export async function connectPerCall(target: SshTarget, command: string): Promise<PerCall> {
  const pool = new SshPool({ hostKeyPolicy: "off", preopen: false, keepaliveMs: 0 });
  try {
    const t0 = performance.now();
    const r = await pool.exec(target, command, { idempotent: true, what: "connect-per-call" });
    return { output: r.output, ms: performance.now() - t0 };
  } finally {
    await pool.close();
  }
}
