/**
 * The one door of the product to the `ssh2` package, typed. `ssh2` ships no
 * types and Deno sees it as `any`; this module imports it with the pinned
 * `@types/ssh2` (deno.json) so that every use in lib/ssh is checked. Import
 * ssh2 from here, never from "ssh2" directly.
 *
 * What ssh2 does beyond its types lives in `ssh2_internals.ts`. The product
 * imports only types from here statically and loads the module itself with
 * `loadSsh2()` (`ssh2_load.ts`) when it first needs SSH.
 *
 * @module
 */
// @ts-types="@types/ssh2"
import ssh2 from "ssh2";
/** One way of logging in, as an auth handler hands it to ssh2. */
export type AnyAuthMethod = ssh2.AnyAuthMethod;
/** The auth handler ssh2 calls for the next method to try. */
export type AuthHandlerMiddleware = ssh2.AuthHandlerMiddleware;
/** An ssh2 client channel (a Duplex stream with `stderr`). */
export type ClientChannel = ssh2.ClientChannel;
/** Settings of `Client.connect`. */
export type ConnectConfig = ssh2.ConnectConfig;
/** A key parsed by ssh2. */
export type ParsedKey = ssh2.ParsedKey;
/** A host key algorithm name. */
export type ServerHostKeyAlgorithm = ssh2.ServerHostKeyAlgorithm;

/** An SFTP session on a client connection. */
export type SFTPWrapper = ssh2.SFTPWrapper;
/** The ssh2 SSH client class. */
export const Client: typeof ssh2.Client = ssh2.Client;
/** An ssh2 client connection. */
export type Client = ssh2.Client;

/** ssh2's key helpers (parseKey, generateKeyPairSync). */
export const utils: typeof ssh2.utils = ssh2.utils;

/** An error that ssh2 emits, with the stage it failed at (`client-authentication`, ...). */
export type Ssh2Error = Error & { level?: string; code?: string };

/**
 * Parse a key (private or public, OpenSSH or PEM). ssh2 returns an array for
 * some inputs, which its types leave out; this returns the first key, or the
 * Error ssh2 gives for unreadable text.
 */
export function parseKey(data: string | Uint8Array, passphrase?: string): ParsedKey | Error {
  const parsed = ssh2.utils.parseKey(data as string, passphrase) as
    | ParsedKey
    | Error
    | ParsedKey[];
  if (Array.isArray(parsed)) return parsed[0] ?? new Error("no key in the data");
  return parsed;
}
