/**
 * Why a connection could not be opened, told from how far it got: no TCP
 * answer (a firewall drops it, or the host is down), nothing listening, a
 * service that is not SSH, a server that closed before or after its SSH
 * banner, or one that went silent. Each failure is one
 * {@linkcode SshError} naming the address and port and what was seen;
 * what the device behind it may be doing is for the layers above to add.
 *
 * @module
 */
import { echo } from "../echo.ts";
import { SshError } from "./errors.ts";

/** How far an attempt got. */
export interface OpenProgress {
  /** The TCP connection was established. */
  connected: boolean;
  /** The first bytes the server sent (at most {@linkcode KEPT_BYTES}), as Latin-1. */
  received: string;
  /** The key exchange finished (authentication had begun). */
  handshaken: boolean;
}

/** Bytes of the server's first answer kept to tell what it is. */
export const KEPT_BYTES = 256;

/** The port of `host:port`. */
function portOf(endpoint: string): string {
  return endpoint.slice(endpoint.lastIndexOf(":") + 1);
}

/** A new attempt's progress. */
export function newProgress(): OpenProgress {
  return { connected: false, received: "", handshaken: false };
}

/** The server's SSH identification line (`SSH-2.0-ROSSSH`), if it sent one. */
export function bannerOf(p: OpenProgress): string | undefined {
  return /^SSH-[^\r\n]*/m.exec(p.received)?.[0];
}

/** The first line the server sent, when it is not SSH. */
function notSshLine(p: OpenProgress): string | undefined {
  if (p.received === "" || bannerOf(p)) return undefined;
  // Before its banner a server may send other lines; all of them shown is no banner.
  const first = p.received.split(/\r?\n/).find((l) => l.trim() !== "") ?? p.received;
  return first.trim();
}

/** The service answered, but not as SSH. */
function notSsh(who: string, endpoint: string, line: string): SshError {
  return new SshError(
    "not-ssh",
    `${who}: the service on port ${portOf(endpoint)} does not speak SSH: it answered ${
      echo(line)
    }; ` +
      "is the port right?",
  );
}

/** The server closed (or reset) the connection. */
export function closedError(
  who: string,
  endpoint: string,
  p: OpenProgress,
  detail?: string,
): SshError {
  const line = notSshLine(p);
  if (line !== undefined) return notSsh(who, endpoint, line);
  const banner = bannerOf(p);
  if (!banner) {
    return new SshError(
      "closed-before-banner",
      `${who}: the host accepted the connection and closed it before the SSH banner`,
    );
  }
  const why = detail ? ` (${detail})` : "";
  if (!p.handshaken) {
    return new SshError(
      "handshake-failed",
      `${who}: the SSH server (${echo(banner)}) closed the connection during the key ` +
        `exchange${why}`,
    );
  }
  return new SshError(
    "handshake-failed",
    `${who}: the SSH server (${echo(banner)}) closed the connection during authentication${why}`,
  );
}

/** Nothing finished within the connect timeout. */
export function timeoutError(
  who: string,
  endpoint: string,
  seconds: number,
  p: OpenProgress,
): SshError {
  const limit = `${seconds} s (--connect-timeout, or connect_timeout per device)`;
  if (!p.connected) {
    return new SshError(
      "no-answer",
      `${who}: no answer to the TCP connection within ${limit}: a firewall on the way drops ` +
        "it, or the host is down",
    );
  }
  const line = notSshLine(p);
  if (line !== undefined) return notSsh(who, endpoint, line);
  const banner = bannerOf(p);
  if (!banner) {
    return new SshError(
      "timeout",
      `${who}: connected, but no SSH banner came within ${limit}: the service on port ` +
        `${portOf(endpoint)} says nothing; is the port right?`,
    );
  }
  return new SshError(
    "timeout",
    `${who}: the SSH server (${echo(banner)}) did not finish the ${
      p.handshaken ? "authentication" : "key exchange"
    } within ${limit}`,
  );
}
