/**
 * Downloads over SFTP on an open ssh2 client: one SFTP session per file,
 * the size checked before reading (a file larger than the cap is refused,
 * not truncated), the whole transfer bounded by a timeout.
 *
 * @module
 */
import { SshError } from "./errors.ts";
import type { Client } from "./ssh2.ts";

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
    client.sftp((err, sftp) => {
      if (err) {
        return finish(new SshError("exec-refused", `${who}: SFTP was refused: ${err.message}`));
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
    });
  });
}
