/**
 * Transfers over SFTP on an open ssh2 client: one SFTP session per file,
 * a download's size checked before reading (a file larger than the cap is
 * refused, not truncated), every transfer bounded by a timeout.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { SshError } from "./errors.ts";
import type { Client, SFTPWrapper } from "./ssh2.ts";

/** Read `path` over SFTP: its bytes, at most `maxBytes`, within `timeoutMs`. */
export function sftpRead(
  client: Client,
  path: string,
  maxBytes: number,
  timeoutMs: number,
  who: string,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // deno-lint-ignore no-explicit-any
    let session: any;
    let settled = false;
    const finish = (err: SshError | undefined, data?: Uint8Array) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        session?.end();
      } catch { /* already closed */ }
      if (err) reject(err);
      else resolve(data!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new SshError("timeout", `${who}: downloading ${path} took over ${timeoutMs / 1000} s`),
        ),
      timeoutMs,
    );
    const opened = (err: Error | undefined, sftp: SFTPWrapper) => {
      if (err) {
        // No SFTP channel: nothing was sent (safe to try again on a new connection).
        return finish(
          new SshError("connection-lost", `${who}: no SFTP channel: ${err.message}`, false),
        );
      }
      session = sftp;
      sftp.stat(path, (err, stats) => {
        if (err) {
          return finish(new SshError("exec-refused", `${who}: no file ${path} over SFTP`));
        }
        if (stats.size > maxBytes) {
          return finish(
            new SshError(
              "output-too-large",
              `${who}: ${path} is ${stats.size} bytes, over the ${maxBytes}-byte limit (--max-output)`,
            ),
          );
        }
        sftp.readFile(path, (err, data) => {
          if (err) {
            return finish(new SshError("connection-lost", `${who}: downloading ${path} failed`));
          }
          finish(undefined, new Uint8Array(data));
        });
      });
    };
    try {
      client.sftp(opened);
    } catch (err) {
      // ssh2 throws when the connection is already gone: nothing was sent.
      opened(err as Error, undefined as unknown as SFTPWrapper);
    }
  });
}

/** Write `data` to `path` over SFTP (created or replaced), within `timeoutMs`. */
export function sftpWrite(
  client: Client,
  path: string,
  data: Uint8Array,
  timeoutMs: number,
  who: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // deno-lint-ignore no-explicit-any
    let session: any;
    let settled = false;
    const finish = (err?: SshError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        session?.end();
      } catch { /* already closed */ }
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        finish(
          new SshError(
            "timeout",
            `${who}: uploading ${path} took over ${timeoutMs / 1000} s; it may be incomplete`,
            true,
          ),
        ),
      timeoutMs,
    );
    const opened = (err: Error | undefined, sftp: SFTPWrapper) => {
      if (err) {
        // No SFTP channel: nothing was sent (safe to try again on a new connection).
        return finish(
          new SshError("connection-lost", `${who}: no SFTP channel: ${err.message}`, false),
        );
      }
      session = sftp;
      sftp.writeFile(path, Buffer.from(data), (err) => {
        if (err) {
          return finish(
            new SshError(
              "connection-lost",
              `${who}: uploading ${path} failed: ${err.message}`,
              true,
            ),
          );
        }
        finish();
      });
    };
    try {
      client.sftp(opened);
    } catch (err) {
      // ssh2 throws when the connection is already gone: nothing was sent.
      opened(err as Error, undefined as unknown as SFTPWrapper);
    }
  });
}
