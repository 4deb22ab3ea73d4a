/**
 * Count the JSON-RPC requests being served, over every transport, so that a
 * shutdown can wait for them: a request counts from the moment it arrives
 * until its response has been handed to the transport.
 *
 * @module
 */
import type { Transport } from "../../mcp_sdk/types.ts";
import type { JSONRPCMessage, MessageExtraInfo } from "../../mcp_sdk/types.ts";
import type { TransportSendOptions } from "../../mcp_sdk/types.ts";

type Id = string | number;

function requestId(m: JSONRPCMessage): Id | undefined {
  return "method" in m && "id" in m ? m.id : undefined;
}

function responseId(m: JSONRPCMessage): Id | undefined {
  return !("method" in m) && "id" in m && ("result" in m || "error" in m)
    ? (m.id as Id)
    : undefined;
}

/** The in-flight counter. */
export class Inflight {
  #count = 0;
  #waiters: (() => void)[] = [];

  /** Requests in progress. */
  get count(): number {
    return this.#count;
  }

  /** Count `transport`'s requests. Call after `server.connect(transport)`. */
  track(transport: Transport): void {
    const pending = new Set<Id>();
    const onmessage = transport.onmessage;
    transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
      const id = requestId(message);
      if (id !== undefined && !pending.has(id)) {
        pending.add(id);
        this.#count++;
      }
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    const settle = (id: Id | undefined) => {
      if (id !== undefined && pending.delete(id)) this.#done(1);
    };
    transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
      try {
        await send(message, options);
      } finally {
        settle(responseId(message));
      }
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      const left = pending.size;
      pending.clear();
      if (left > 0) this.#done(left);
      onclose?.();
    };
  }

  #done(n: number): void {
    this.#count -= n;
    if (this.#count === 0) { for (const w of this.#waiters.splice(0)) w(); }
  }

  /** Resolves when no request is in progress. */
  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
