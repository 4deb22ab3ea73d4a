/**
 * The stdio transport: one JSON-RPC message per line on stdin and stdout.
 * Unlike the SDK's, it answers what it cannot take and keeps serving: a
 * line that is not JSON gets `-32700 Parse error`, JSON that is not a
 * JSON-RPC message gets `-32600 Invalid Request`, and a line longer than the
 * limit is dropped (up to its newline) with `-32600` and a log line. Only
 * the end of stdin ends the session. Nothing but JSON-RPC goes to stdout.
 *
 * It reads and writes with Deno's own stdin and stdout: Node's
 * `process.stdin` allocates (and zero-fills) a new 16 KiB buffer for every
 * read, and `process.stdout` adds a stream's bookkeeping to every answer.
 *
 * @module
 */
import { isPlainRequest } from "../mcp_sdk/dispatch.ts";
import { type JSONRPCMessage, JSONRPCMessageSchema, type Transport } from "../mcp_sdk/types.ts";

/** The longest line taken: 10 MiB, the SDK's own stdio limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Bytes read from stdin at a time (one buffer, reused). */
const READ_SIZE = 64 * 1024;

/** A JSON-RPC error answer without an id (the request's id is unknown). */
function errorLine(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }) + "\n";
}

/** Stdio transport that survives bad input. */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly #maxLine: number;
  readonly #log: (message: string) => void;
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Dropping an over-long line until its newline. */
  #skipping = false;
  #closed = false;
  #decoder = new TextDecoder();
  #encoder = new TextEncoder();

  constructor(log: (message: string) => void, maxLine = MAX_LINE_BYTES) {
    this.#log = log;
    this.#maxLine = maxLine;
  }

  #onData = (chunk: Uint8Array) => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.#skipping) {
        const piece = chunk.subarray(start, end);
        if (this.#size + piece.length > this.#maxLine) {
          this.#parts = [];
          this.#size = 0;
          this.#skipping = true;
          this.#log(
            `stdio: dropped a line longer than ${this.#maxLine} bytes; answered -32600`,
          );
          this.#write(
            errorLine(-32600, `Invalid Request: line longer than ${this.#maxLine} bytes`),
          );
        } else {
          this.#parts.push(piece.slice());
          this.#size += piece.length;
        }
      }
      if (nl === -1) break;
      if (!this.#skipping) this.#line(this.#take());
      this.#skipping = false;
      start = nl + 1;
    }
  };

  #take(): string {
    const all = new Uint8Array(this.#size);
    let at = 0;
    for (const p of this.#parts) {
      all.set(p, at);
      at += p.length;
    }
    this.#parts = [];
    this.#size = 0;
    return this.#decoder.decode(all).replace(/\r$/, "");
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#log("stdio: a line that is not JSON; answered -32700");
      this.#write(errorLine(-32700, "Parse error: the line is not JSON"));
      return;
    }
    if (isPlainRequest(value)) {
      this.onmessage?.(value);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.#log("stdio: JSON that is not a JSON-RPC message; answered -32600");
      this.#write(errorLine(-32600, "Invalid Request: not a JSON-RPC 2.0 message"));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Write all of `text` to stdout (blocking, as Node's stdout is under Deno); throws if it fails. */
  #writeAll(text: string): void {
    const bytes = this.#encoder.encode(text);
    for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
  }

  /** Write one of the transport's own answers; a failure goes to `onerror`. */
  #write(text: string): void {
    try {
      this.#writeAll(text);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  start(): Promise<void> {
    void this.#readLoop();
    return Promise.resolve();
  }

  /** Read stdin until it ends (or the transport closes), one line at a time. */
  async #readLoop(): Promise<void> {
    const buffer = new Uint8Array(READ_SIZE);
    try {
      while (!this.#closed) {
        const n = await Deno.stdin.read(buffer);
        if (n === null) break;
        if (!this.#closed) this.#onData(buffer.subarray(0, n));
      }
    } catch (err) {
      if (!this.#closed) this.onerror?.(err as Error);
    }
    await this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    try {
      this.#writeAll(JSON.stringify(message) + "\n");
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#parts = [];
    this.onclose?.();
    return Promise.resolve();
  }
}
