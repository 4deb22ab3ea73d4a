/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05) on web standards: a
 * `GET` answers with an event stream whose first event, `endpoint`, names
 * where to POST messages; responses and notifications go out as `message`
 * events. The SDK's own `SSEServerTransport` needs Node's `http`.
 *
 * @module
 */
import type { Transport } from "../../mcp_sdk/types.ts";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
} from "../../mcp_sdk/types.ts";

/** A comment line every so often keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();

/** One SSE session: the event stream is `response`; POSTed messages go to `receive`. */
export class SseServerTransport implements Transport {
  /** The session id, also in the endpoint URL. */
  readonly sessionId: string = crypto.randomUUID();
  /** The event-stream response to hand to the client. */
  readonly response: Response;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  #endpoint: string;
  #keepAliveMs: number;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #timer?: ReturnType<typeof setInterval>;
  #started = false;
  #closed = false;

  /** `endpoint` is the POST path; `?sessionId=<id>` is added to it. */
  constructor(endpoint: string, keepAliveMs: number = SSE_KEEPALIVE_MS) {
    this.#endpoint = `${endpoint}?sessionId=${this.sessionId}`;
    this.#keepAliveMs = keepAliveMs;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#finish(), // the client went away
    });
    this.response = new Response(stream, {
      headers: {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache, no-transform",
        "Connection": "keep-alive",
        "X-Accel-Buffering": "no",
      },
    });
  }

  /** Send the `endpoint` event and start the keepalive. */
  start(): Promise<void> {
    if (this.#started) throw new Error("SseServerTransport already started");
    this.#started = true;
    this.#write(`event: endpoint\ndata: ${this.#endpoint}\n\n`);
    this.#timer = setInterval(() => this.#write(": keepalive\n\n"), this.#keepAliveMs);
    return Promise.resolve();
  }

  /** Send one message as a `message` event. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Not connected"));
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return Promise.resolve();
  }

  /**
   * Hand POSTed JSON (one message or a batch) to the server; false when it
   * is not JSON-RPC (nothing is delivered then).
   */
  receive(body: unknown, extra?: MessageExtraInfo): boolean {
    const items = Array.isArray(body) ? body : [body];
    const parsed = items.map((m) => JSONRPCMessageSchema.safeParse(m));
    if (items.length === 0 || parsed.some((p) => !p.success)) return false;
    for (const p of parsed) this.onmessage?.(p.data as JSONRPCMessage, extra);
    return true;
  }

  /** End the event stream. */
  close(): Promise<void> {
    if (!this.#closed) {
      try {
        this.#controller.close();
      } catch {
        // already closed or cancelled
      }
    }
    this.#finish();
    return Promise.resolve();
  }

  #write(text: string): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#finish();
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.onclose?.();
  }
}
