/**
 * What every SSH endpoint of the configuration has, a router of the
 * inventory and a bastion alike: where it is, how to log in, its pinned host
 * key and its connect timeout.
 *
 * @module
 */

/** An SSH endpoint and its credentials, as configured. */
export interface SshLogin {
  /** The inventory title, or `user@host:port` for a bastion given inline. */
  title: string;
  host: string;
  port: number;
  username: string;
  /** Password; never shown. */
  password?: string;
  keyFilename?: string;
  /** Passphrase of the key; never shown. */
  keyPassphrase?: string;
  /** Pinned host key fingerprint (`SHA256:...`). */
  hostKey?: string;
  /** Connect timeout in seconds (overrides the global one). */
  connectTimeout?: number;
}
