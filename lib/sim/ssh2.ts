/**
 * The simulator's one door to the `ssh2` package, typed with the pinned
 * `@types/ssh2` (deno.json); the simulator imports nothing from the
 * product, so it has its own. Import ssh2 from here, never from "ssh2"
 * directly. Its one use of ssh2's private fields (closing a session channel
 * that has no request yet) is here too, checked by
 * `tests/ssh_ssh2_internals.test.ts`.
 *
 * @module
 */
// @ts-types="@types/ssh2"
import ssh2 from "ssh2";

/** The ssh2 SSH server class. */
export const Server: typeof ssh2.Server = ssh2.Server;
/** An ssh2 server. */
export type Server = ssh2.Server;
/** The ssh2 SSH client class (for tests of the simulator). */
export const Client: typeof ssh2.Client = ssh2.Client;
/** An ssh2 client. */
export type Client = ssh2.Client;
/** ssh2's key helpers. */
export const utils: typeof ssh2.utils = ssh2.utils;

/** The server side of one SSH connection. */
export type Connection = ssh2.Connection;
/** Who connected (address and port). */
export type ClientInfo = ssh2.ClientInfo;
/** One login attempt. */
export type AuthContext = ssh2.AuthContext;
/** A session channel, before its request. */
export type Session = ssh2.Session;
/** An accepted exec channel. */
export type ServerChannel = ssh2.ServerChannel;
/** The server side of an SFTP session. */
export type SFTPWrapper = ssh2.SFTPWrapper;
/** A key parsed by ssh2. */
export type ParsedKey = ssh2.ParsedKey;

/**
 * Parse a key (OpenSSH or PEM, private or public): the first key, or the
 * Error ssh2 gives (ssh2 returns an array for some inputs, which its types
 * leave out).
 */
export function parseKey(data: string): ParsedKey | Error {
  const parsed = ssh2.utils.parseKey(data) as ParsedKey | Error | ParsedKey[];
  if (Array.isArray(parsed)) return parsed[0] ?? new Error("no key in the data");
  return parsed;
}

/** The private fields of a server connection and a session that closing an idle session needs. */
interface SessionInternals {
  _chanInfo?: { outgoing?: { id?: number; state?: string } };
}
interface ConnectionInternals {
  _protocol?: { channelClose?: (id: number) => void };
}

/**
 * The private fields that {@linkcode closeIdleSession} needs and that are
 * missing (empty when all are there), each as `Session._chanInfo.outgoing.id`.
 */
export function missingSessionInternals(client: Connection, session: Session): string[] {
  const s = session as unknown as SessionInternals;
  const c = client as unknown as ConnectionInternals;
  const missing: string[] = [];
  if (typeof s._chanInfo?.outgoing?.id !== "number") missing.push("Session._chanInfo.outgoing.id");
  if (typeof s._chanInfo?.outgoing?.state !== "string") {
    missing.push("Session._chanInfo.outgoing.state");
  }
  if (typeof c._protocol?.channelClose !== "function") {
    missing.push("Connection._protocol.channelClose");
  }
  return missing;
}

/**
 * Close a session channel that has had no request yet, as a router that
 * closes idle channels does (ssh2's server has no public way: a Session
 * becomes a channel only when a request is accepted).
 */
export function closeIdleSession(client: Connection, session: Session): void {
  const s = session as unknown as SessionInternals;
  const c = client as unknown as ConnectionInternals;
  const out = s._chanInfo!.outgoing!;
  out.state = "closed";
  c._protocol!.channelClose!(out.id!);
}
