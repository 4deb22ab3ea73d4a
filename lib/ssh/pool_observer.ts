/**
 * What the connection pool tells an observer (the server's metrics) about
 * each device's connection, in the SSH layer's own words: an attempt to
 * open one, its success or failure, its end and why, and the commands that
 * timed out or ran again on a new connection. Nothing here runs on a warm
 * command: only connections opening and closing, and failures, are told.
 *
 * @module
 */
import type { SshErrorKind } from "./errors.ts";

/**
 * Why a connection ended: `idle` (closed after the idle timeout), `retired`
 * (after a command timed out on it), `lost` (the router or the network
 * ended it, or the keepalive went unanswered), `closed` (closed by this
 * server: shutdown, or a probe).
 */
export type CloseReason = "idle" | "retired" | "lost" | "closed";

/** Told by the pool of each device's connection (`device`: the target's title). */
export interface PoolObserver {
  /** A new connection is being opened (it may first wait for a dialing slot). */
  connecting(device: string): void;
  /** It is open: handshake and authentication done. */
  opened(device: string): void;
  /** It could not be opened (`kind`: what went wrong; `other` for an error of no SSH kind). */
  failed(device: string, kind: SshErrorKind | "other"): void;
  /** The device's connection in use ended. */
  closed(device: string, why: CloseReason): void;
  /** A command did not answer within its timeout (its connection is retired). */
  commandTimedOut(device: string): void;
  /** A command ran again on a new connection because its connection was lost. */
  retried(device: string): void;
}
