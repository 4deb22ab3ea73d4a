/**
 * What the SSH layer needs to reach one router.
 *
 * @module
 */

/** One router's SSH endpoint and credentials. */
export interface SshTarget {
  /** Inventory title (or the host in single-device mode); used in messages. */
  title: string;
  host: string;
  port: number;
  username: string;
  /** Password; never logged. */
  password?: string;
  /** Path to a private key file. */
  keyFilename?: string;
  /** Passphrase for the private key; never logged. */
  keyPassphrase?: string;
  /** Pinned host key fingerprint, `SHA256:...`. */
  hostKey?: string;
  /** Connect (TCP + handshake + auth) timeout in milliseconds. */
  connectTimeoutMs: number;
  /** Per-command timeout in milliseconds. */
  commandTimeoutMs: number;
  /**
   * The SSH server this target is reached through (a bastion, `jump.ts`),
   * itself perhaps behind another; absent for a direct connection.
   */
  via?: SshTarget;
  /** What messages call it: a device (the default) or a bastion others are reached through. */
  role?: "device" | "bastion";
}

/** `host:port` as shown in messages (IPv6 in brackets). */
export function endpointOf(target: Pick<SshTarget, "host" | "port">): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  return `${host}:${target.port}`;
}

/**
 * `device "R1" (10.0.0.1:22)`: how messages name a device; one behind a
 * bastion is `device "R1" (10.0.0.1:22 via bastion "jump-1")`, and a bastion
 * is `bastion "jump-1" (10.0.0.9:22)`.
 */
export function describeTarget(
  target: Pick<SshTarget, "title" | "host" | "port" | "via" | "role">,
): string {
  const via = target.via ? ` via bastion "${target.via.title}"` : "";
  return `${target.role ?? "device"} "${target.title}" (${endpointOf(target)}${via})`;
}
