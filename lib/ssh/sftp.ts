/**
 * Streamed transfers over SFTP on an open ssh2 client, one SFTP session
 * per transfer. Requests are pipelined: at most {@linkcode IN_FLIGHT} reads
 * or writes of {@linkcode CHUNK} bytes are outstanding, so what this side
 * holds is bounded whatever the file's size. A download hands the bytes to
 * a sink in order, waiting for each write; an upload takes them from a
 * source. A transfer fails when the server answers nothing for the idle
 * timeout, when the channel closes, or when the caller's signal aborts it.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { SshError } from "./errors.ts";
import type { Client, SFTPWrapper } from "./ssh2.ts";

/** Bytes per read or write request: 32 KiB, which every SFTP server takes. */
export const CHUNK = 32 * 1024;
/** Requests outstanding at once (16 x 32 KiB = 512 KiB in flight). */
export const IN_FLIGHT = 16;

/** How a transfer is bounded and reports. */
export interface TransferOptions {
  /** Fail when the server has answered nothing for this long. */
  idleTimeoutMs: number;
  /** Bytes moved so far, and the total when known (after each answered request). */
  onProgress?: (bytes: number, total: number | undefined) => void;
  /** Abort the transfer (the call was cancelled). */
  signal?: AbortSignal;
}

/** A download's bounds: a file larger than `maxBytes` is refused before any byte is read. */
export interface DownloadOptions extends TransferOptions {
  maxBytes: number;
}

/** An upload's expected size, for progress. */
export interface UploadOptions extends TransferOptions {
  size?: number;
}

/** What a transfer moved, and the file's size on the server as SFTP reports it. */
export interface TransferResult {
  bytes: number;
  remoteSize: number;
}

/** Where downloaded bytes go, in order; the download waits for each write. */
export type ChunkSink = (chunk: Uint8Array) => Promise<void>;

/** SFTP status codes (RFC draft-ietf-secsh-filexfer-02) that mean a plain refusal. */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

/** One SFTP session: every request a promise, the idle timer reset by each answer. */
class Session {
  readonly sftp: SFTPWrapper;
  readonly #touch: () => void;
  #failed: Error | undefined;

  constructor(sftp: SFTPWrapper, touch: () => void) {
    this.sftp = sftp;
    this.#touch = touch;
  }

  /** Stop issuing requests (the transfer has failed). */
  fail(err: Error): void {
    this.#failed ??= err;
  }

  /** Issue one request; resolves with its answer. */
  request<T>(issue: (done: (err: Error | undefined, value: T) => void) => void): Promise<T> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise<T>((resolve, reject) => {
      issue((err, value) => {
        this.#touch();
        if (err) reject(err);
        else resolve(value);
      });
    });
  }
}

/**
 * Open an SFTP session, run `work` on it within the idle timeout and the
 * caller's signal, and end the session however `work` ends.
 * `stalledUnknown`: a stall may have left something half done on the server.
 */
function withSession<T>(
  client: Client,
  who: string,
  what: string,
  options: TransferOptions,
  stalledUnknown: boolean,
  work: (s: Session) => Promise<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let session: Session | undefined;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (err: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (err) session?.fail(err);
      try {
        session?.sftp.end();
      } catch { /* already closed */ }
      if (err) reject(err);
      else resolve(value as T);
    };
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          finish(
            new SshError(
              "timeout",
              `${who}: ${what} stalled: no answer for ${options.idleTimeoutMs / 1000} s`,
              stalledUnknown,
            ),
          ),
        options.idleTimeoutMs,
      );
    };
    const onAbort = () => {
      const reason = options.signal?.reason;
      finish(reason instanceof Error ? reason : new Error(`${what} was cancelled`));
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    touch();
    const opened = (err: Error | undefined, sftp: SFTPWrapper) => {
      if (err) {
        // No SFTP channel: nothing was sent (safe to try again on a new connection).
        return finish(
          new SshError("connection-lost", `${who}: no SFTP channel: ${err.message}`, false),
        );
      }
      if (settled) {
        try {
          sftp.end();
        } catch { /* already closed */ }
        return;
      }
      session = new Session(sftp, touch);
      const lost = () =>
        finish(
          new SshError("connection-lost", `${who}: the SFTP channel closed during ${what}`, true),
        );
      sftp.on("close", lost);
      sftp.on("error", lost);
      work(session).then((v) => finish(undefined, v), (e) => finish(e));
    };
    try {
      client.sftp(opened);
    } catch (err) {
      // ssh2 throws when the connection is already gone: nothing was sent.
      opened(err as Error, undefined as unknown as SFTPWrapper);
    }
  });
}

/** A request's error as an SshError that names the file and what the server said. */
function refused(who: string, err: unknown, doing: string, outcomeUnknown: boolean): Error {
  if (err instanceof SshError) return err;
  const e = err as Error & { code?: number };
  const why = e.code === NO_SUCH_FILE
    ? "no such file or folder"
    : e.code === PERMISSION_DENIED
    ? "permission denied (the user needs the ftp policy)"
    : e.message;
  return new SshError(
    outcomeUnknown ? "connection-lost" : "exec-refused",
    `${who}: ${doing}: ${why}`,
    outcomeUnknown,
  );
}

/** A promise nobody awaits yet: its rejection is handled when it is awaited in turn. */
function queued<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/**
 * Download `path` into `sink`, in order, with up to {@linkcode IN_FLIGHT}
 * reads outstanding. The size is taken from `fstat` when the file is
 * opened; a file that ends sooner fails the download.
 */
export function sftpDownload(
  client: Client,
  path: string,
  sink: ChunkSink,
  options: DownloadOptions,
  who: string,
): Promise<TransferResult> {
  return withSession(client, who, `the download of ${path}`, options, false, async (s) => {
    const handle = await s.request<Buffer>((done) => s.sftp.open(path, "r", done))
      .catch((err) => {
        throw refused(who, err, `cannot open ${path}`, false);
      });
    const stats = await s.request<{ size: number }>((done) => s.sftp.fstat(handle, done))
      .catch((err) => {
        throw refused(who, err, `cannot read the size of ${path}`, false);
      });
    const size = stats.size;
    if (size > options.maxBytes) {
      throw new SshError(
        "output-too-large",
        `${who}: ${path} is ${size} bytes, over the ${options.maxBytes}-byte limit`,
      );
    }
    /** The bytes [offset, offset + length), reading on after a short answer. */
    const readAt = async (offset: number, length: number): Promise<Uint8Array> => {
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const n = await s.request<number>((done) =>
          s.sftp.read(handle, buf, got, length - got, offset + got, (err, n) => done(err, n))
        ).catch((err) => {
          throw refused(who, err, `reading ${path} failed`, false);
        });
        if (n === 0) {
          throw new SshError(
            "exec-refused",
            `${who}: ${path} ended at ${offset + got} bytes, before its size of ${size}: ` +
              "it changed during the download",
          );
        }
        got += n;
      }
      return new Uint8Array(buf.buffer, buf.byteOffset, length);
    };
    const window: Promise<Uint8Array>[] = [];
    let next = 0;
    const ask = () => {
      const length = Math.min(CHUNK, size - next);
      window.push(queued(readAt(next, length)));
      next += length;
    };
    while (window.length < IN_FLIGHT && next < size) ask();
    let bytes = 0;
    options.onProgress?.(0, size);
    while (window.length) {
      const chunk = await window.shift()!;
      if (next < size) ask();
      await sink(chunk);
      bytes += chunk.length;
      options.onProgress?.(bytes, size);
    }
    await s.request<void>((done) =>
      s.sftp.close(handle, (err) => done(err ?? undefined, undefined))
    )
      .catch(() => {/* the bytes are all here; a failed close loses nothing */});
    return { bytes, remoteSize: size };
  });
}

/**
 * Upload the chunks of `source` to `path` (created, or truncated and
 * replaced), with up to {@linkcode IN_FLIGHT} writes outstanding; then
 * close it and stat it for its size as the server stored it. A failure
 * after the file was opened may leave part of it on the server (the
 * error's `outcomeUnknown`).
 */
export function sftpUpload(
  client: Client,
  path: string,
  source: AsyncIterable<Uint8Array>,
  options: UploadOptions,
  who: string,
): Promise<TransferResult> {
  return withSession(client, who, `the upload of ${path}`, options, true, async (s) => {
    const handle = await s.request<Buffer>((done) => s.sftp.open(path, "w", done))
      .catch((err) => {
        throw refused(who, err, `cannot create ${path}`, false);
      });
    const window: Promise<void>[] = [];
    let offset = 0;
    let bytes = 0;
    const writeAt = (part: Uint8Array, at: number) =>
      s.request<void>((done) =>
        s.sftp.write(
          handle,
          Buffer.from(part.buffer, part.byteOffset, part.length),
          0,
          part.length,
          at,
          (err) => done(err ?? undefined, undefined),
        )
      ).then(() => {
        bytes += part.length;
        options.onProgress?.(bytes, options.size);
      }, (err) => {
        throw refused(who, err, `writing ${path} failed`, true);
      });
    options.onProgress?.(0, options.size);
    for await (const piece of source) {
      for (let i = 0; i < piece.length; i += CHUNK) {
        const part = piece.subarray(i, i + CHUNK);
        while (window.length >= IN_FLIGHT) await window.shift();
        window.push(queued(writeAt(part, offset)));
        offset += part.length;
      }
    }
    for (const w of window) await w;
    await s.request<void>((done) =>
      s.sftp.close(handle, (err) => done(err ?? undefined, undefined))
    )
      .catch((err) => {
        throw refused(who, err, `closing ${path} failed`, true);
      });
    const stats = await s.request<{ size: number }>((done) => s.sftp.stat(path, done))
      .catch((err) => {
        throw refused(who, err, `${path} is not there after the upload`, true);
      });
    return { bytes, remoteSize: stats.size };
  });
}
