/**
 * Typed SSH errors. Every message names the device title and `host:port`,
 * and never carries a secret.
 *
 * @module
 */

/** What went wrong, as a stable code that callers can branch on. */
export type SshErrorKind =
  | "auth-failed"
  | "connection-refused"
  | "unreachable"
  | "no-answer"
  | "not-ssh"
  | "closed-before-banner"
  | "handshake-failed"
  | "timeout"
  | "host-key-mismatch"
  | "host-key-unknown"
  | "channel-limit"
  | "exec-refused"
  | "connection-lost"
  | "output-too-large"
  | "key-error"
  | "cancelled";

/** An SSH failure with a person-readable message. */
export class SshError extends Error {
  /** Stable error code. */
  readonly kind: SshErrorKind;
  /** Whether the command may have run on the router (outcome unknown). */
  readonly outcomeUnknown: boolean;

  constructor(kind: SshErrorKind, message: string, outcomeUnknown = false) {
    super(message);
    this.name = "SshError";
    this.kind = kind;
    this.outcomeUnknown = outcomeUnknown;
  }
}

/** A command its caller cancelled: closing its channel stops it on the device. */
export function cancelledError(who: string, what: string, sent: boolean): SshError {
  return new SshError(
    "cancelled",
    sent
      ? `${who}: ${what} was cancelled; its channel was closed, which stops it on the device`
      : `${who}: ${what} was cancelled before it was sent`,
    sent,
  );
}

/**
 * A command that did not answer within its timeout (`sent`: the exec
 * request may have reached the server); its connection is reopened.
 */
export function commandTimeoutError(
  who: string,
  what: string,
  timeoutMs: number,
  sent: boolean,
): SshError {
  const limit = `${timeoutMs / 1000} s (--command-timeout, or command_timeout per device)`;
  return new SshError(
    "timeout",
    sent
      ? `${who}: ${what} did not answer within ${limit}; the channel was closed and the ` +
        "connection will be reopened on the next call"
      : `${who}: ${what} could not be sent within ${limit}: no channel opened; the connection ` +
        "will be reopened on the next call",
    sent,
  );
}

/**
 * The connection ended under a command: before its request was `sent`
 * (safe to retry) or after (it may have run). Without `what`, no command
 * was involved.
 */
export function connectionLostError(who: string, what?: string, sent = false): SshError {
  if (what === undefined) return new SshError("connection-lost", `${who}: the connection was lost`);
  return sent
    ? new SshError("connection-lost", `${who}: the connection was lost while running ${what}`, true)
    : new SshError("connection-lost", `${who}: the connection was lost before ${what} was sent`);
}

/** Every one of the connection's `limit` channels stayed busy for the command's whole timeout. */
export function channelsBusyError(
  who: string,
  limit: number,
  timeoutMs: number,
  req: { what: string; who?: string },
): SshError {
  return new SshError(
    "channel-limit",
    `${who}: all ${limit} channels stayed busy for ${timeoutMs / 1000} s ` +
      `(--max-channels, --command-timeout${req.who ? "; or this caller's share" : ""}); ` +
      `${req.what} was not sent`,
  );
}
