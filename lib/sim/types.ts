/**
 * Shared public types of the RouterOS simulator (re-exported by `mod.ts`).
 *
 * @module
 */

/**
 * The RouterOS release the simulator imitates, as RouterOS writes it:
 * `6.49.13`, `7.12.2`, `7.15.3`, `7.16.2`, `7.17`, `7.20.8`, `7.24`. Any
 * release from 6.49 on is accepted; what it has comes from release ranges.
 */
export type SimVersion = string;

/** The release a simulator imitates when none is given. */
export const DEFAULT_SIM_VERSION = "7.16.2";

/** A login account of the simulated router. */
export interface SimUser {
  name: string;
  password?: string;
  group?: "full" | "write" | "read";
  /** OpenSSH one-line public keys: "ssh-ed25519 AAAA... comment". */
  publicKeys?: string[];
}

/** Faults the simulator can inject; live and mutable on a running router. */
export interface SimFaults {
  /** Delay (ms) before each command's answer. */
  latencyMs: number;
  /** Never answer (all commands, or those matching the RegExp). */
  hang: boolean | RegExp;
  /** 0 = never; else destroy the TCP connection when the Nth command (per connection) arrives. */
  dropAfterCommands: number;
  /** Reject every authentication. */
  refuseAuth: boolean;
  /** Failures exit 0 or 1 at random, as real routers do. When false, failures exit 1. */
  randomExitStatus: boolean;
  /** Delay (ms) before sending the SSH identification. */
  slowHandshakeMs: number;
  /** Close a session channel that gets no request within `idleSessionCloseMs`. */
  closeIdleSessionChannels: boolean;
  /** How long a session channel may wait for its request when idle ones are closed (ms). */
  idleSessionCloseMs: number;
  /**
   * Answer otherwise than the router would: the output of each command,
   * rewritten (a misbehaving router or a man in the middle, for tests of
   * the client's shape checks).
   */
  garble?: (command: string, output: string) => string;
  /** Stop answering SFTP writes once this many bytes of a file have arrived (a stalled link). */
  sftpStallAfterBytes?: number;
  /** Store each SFTP upload with its first byte changed (storage that keeps what it was not sent). */
  sftpCorruptWrites?: boolean;
}

/** Live counters of a running simulator. */
export interface SimCounters {
  connections: number;
  sessionChannels: number;
  execChannels: number;
  commands: number;
  authFailures: number;
  /** Reboots done (`/system reboot` from a script or `:execute`, backup load...). */
  reboots: number;
  /** Commands still running (a torch, a bandwidth test) when the client closed their channel. */
  interrupted: number;
}

/** The default faults: none. */
export function defaultFaults(): SimFaults {
  return {
    latencyMs: 0,
    hang: false,
    dropAfterCommands: 0,
    refuseAuth: false,
    randomExitStatus: false,
    slowHandshakeMs: 0,
    closeIdleSessionChannels: false,
    idleSessionCloseMs: 100,
  };
}
