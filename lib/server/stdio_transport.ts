/**
 * The stdio transport: one JSON-RPC message per line on stdin and stdout.
 * Unlike the SDK's, it answers what it cannot take and keeps serving: a
 * line that is not JSON gets `-32700 Parse error`, JSON that is not a
 * JSON-RPC message gets `-32600 Invalid Request`, and a line longer than the
 * limit is dropped (up to its newline) with `-32600` and a log line. Only
 * the end of stdin ends the session. Nothing but JSON-RPC goes to stdout.
 *
 * It writes with Deno's own stdout: `process.stdout` adds a stream's
 * bookkeeping to every answer. On Linux it reads a pipe or a socket on
 * stdin (what MCP clients give) through the event loop's own poller, as a
 * Node socket on fd 0: Deno's `stdin` reads on a helper thread, which then has to wake
 * the main one, a second thread hand-off on every request (a measurable
 * share of a warm call: docs/benchmarks.md). A terminal, a file, or one
 * socket that is both stdin and stdout (inetd style, which a non-blocking
 * fd 0 would make non-blocking for the answers too) is read through
 * `Deno.stdin`, as before.
 *
 * The end of stdin ends the session, but not before every request already
 * read has its answer: `server < requests.jsonl` or a client that writes
 * its last request and closes gets every answer, then the server exits.
 *
 * @module
 */
import fs from "node:fs";
import net from "node:net";
import { isPlainRequest } from "../mcp_sdk/dispatch.ts";
import { requestRefusal, usableId } from "./malformed_request.ts";
import { type JSONRPCMessage, JSONRPCMessageSchema, type Transport } from "../mcp_sdk/types.ts";

/** The longest line taken: 10 MiB, the SDK's own stdio limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Bytes read from stdin at a time (one buffer, reused). */
const READ_SIZE = 64 * 1024;

/** A JSON-RPC error answer, under the request's id (null when it has none a client can match). */
function errorLine(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n";
}

/** A line without the CR of a CRLF ending. */
function withoutCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/** Stdio transport that survives bad input. */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Where a plain request goes when set (`isPlainRequest`, checked once per
   * line here): the SDK's request dispatch (`plainRequestDispatch`); else
   * to {@linkcode onmessage} like every other message.
   */
  onplainrequest?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly #maxLine: number;
  readonly #log: (level: "info" | "warning", message: string) => void;
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Dropping an over-long line until its newline. */
  #skipping = false;
  #closed = false;
  /** Stdin has ended: close once no request is waiting for its answer. */
  #ended = false;
  /** The requests read and not answered yet (by id: a count, should a client reuse one). */
  #pending = new Map<string | number, number>();
  #decoder = new TextDecoder();
  #encoder = new TextEncoder();
  #socket?: net.Socket;

  constructor(
    log: (level: "info" | "warning", message: string) => void,
    maxLine = MAX_LINE_BYTES,
  ) {
    this.#log = log;
    this.#maxLine = maxLine;
  }

  #onData = (chunk: Uint8Array) => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (nl !== -1 && !this.#skipping && this.#size === 0 && end - start <= this.#maxLine) {
        // A whole line in this chunk (the usual case): decoded where it is.
        this.#line(withoutCr(this.#decoder.decode(chunk.subarray(start, end))));
        start = nl + 1;
        continue;
      }
      if (!this.#skipping) {
        const piece = chunk.subarray(start, end);
        if (this.#size + piece.length > this.#maxLine) {
          this.#parts = [];
          this.#size = 0;
          this.#skipping = true;
          this.#log(
            "warning",
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
    return withoutCr(this.#decoder.decode(all));
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#log("warning", "stdio: a line that is not JSON; answered -32700");
      this.#write(errorLine(-32700, "Parse error: the line is not JSON"));
      return;
    }
    if (isPlainRequest(value)) {
      this.#owe((value as { id: string | number }).id, 1);
      (this.onplainrequest ?? this.onmessage)?.(value);
      return;
    }
    // A request the SDK would refuse without its id: answered here, under it.
    const refusal = requestRefusal(value);
    if (refusal) {
      this.#log("warning", `stdio: an invalid request; answered ${refusal.code}`);
      this.#write(errorLine(refusal.code, refusal.message, refusal.id));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.#log("warning", "stdio: JSON that is not a JSON-RPC message; answered -32600");
      this.#write(
        errorLine(-32600, "Invalid Request: not a JSON-RPC 2.0 message", usableId(value) ?? null),
      );
      return;
    }
    const message = parsed.data;
    if ("method" in message && "id" in message) this.#owe(message.id, 1);
    this.onmessage?.(message);
    // The SDK sends no answer to a request the client cancelled.
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.#owe(id, -1);
    }
  }

  /** Count a request as owed an answer (+1), or as answered or cancelled (-1). */
  #owe(id: string | number, change: 1 | -1): void {
    const left = (this.#pending.get(id) ?? 0) + change;
    if (left > 0) this.#pending.set(id, left);
    else if (this.#pending.delete(id) && this.#ended && this.#pending.size === 0) {
      void this.close();
    }
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
    let polled = false;
    if (stdinPollable()) {
      try {
        this.#readPolled();
        polled = true;
      } catch {
        // This runtime cannot watch fd 0: read it as a file is read.
      }
    }
    if (!polled) void this.#readLoop();
    return Promise.resolve();
  }

  /** Read a pipe or socket on stdin through the event loop's poller. */
  #readPolled(): void {
    const socket = new net.Socket({ fd: 0, readable: true, writable: false });
    this.#socket = socket;
    socket.on("data", (chunk: Uint8Array) => {
      if (!this.#closed) this.#onData(chunk);
    });
    socket.on("error", (err: Error) => {
      if (!this.#closed) this.onerror?.(err);
    });
    socket.on("end", () => this.#inputEnded());
    socket.on("close", () => this.#inputEnded());
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
    this.#inputEnded();
  }

  /** Stdin has ended (or failed): close now, or once the requests in flight are answered. */
  #inputEnded(): void {
    if (this.#ended || this.#closed) return;
    this.#ended = true;
    if (this.#pending.size === 0) {
      void this.close();
      return;
    }
    this.#log(
      "info",
      `stdio: stdin closed; answering ${this.#pending.size} request(s) in flight first`,
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    try {
      this.#writeAll(JSON.stringify(message) + "\n");
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    } finally {
      if (("result" in message || "error" in message) && "id" in message && message.id !== null) {
        this.#owe(message.id!, -1);
      }
    }
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#parts = [];
    this.#socket?.destroy();
    this.onclose?.();
    return Promise.resolve();
  }
}

/**
 * Whether stdin is a pipe or a socket that the poller can watch: on Linux
 * (where this is tested; elsewhere stdin is read as before), not a
 * terminal or a file, and not the very object stdout writes to (watching
 * makes it non-blocking, and stdout's blocking writes would then fail
 * with EAGAIN when the client reads slowly).
 */
function stdinPollable(): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    const stdin = fs.fstatSync(0);
    if (!stdin.isFIFO() && !stdin.isSocket()) return false;
    const stdout = fs.fstatSync(1);
    return stdout.dev !== stdin.dev || stdout.ino !== stdin.ino;
  } catch {
    return false;
  }
}
