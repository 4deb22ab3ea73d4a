/**
 * Open MCP sessions over HTTP (streamable-http and SSE), each with its own
 * `Server`. A session is busy while one of its responses is streaming
 * (a call in progress, an open event stream); once idle longer than the
 * timeout it is closed.
 *
 * @module
 */
import type { Server } from "../../mcp_sdk/server.ts";
import type { Transport } from "../../mcp_sdk/types.ts";

/** One session: its id, server and transport. */
export interface Session {
  id: string;
  server: Server;
  transport: Transport;
  /** Responses of this session still streaming. */
  open: number;
  /** When the last response of this session ended (ms, monotonic). */
  lastSeen: number;
  /** The principal that opened it; only it may use the session. */
  owner?: string;
}

/** The session registry with idle expiry. */
export class Sessions {
  #sessions = new Map<string, Session>();
  #idleMs: number;
  #timer: ReturnType<typeof setInterval>;

  #max: number;

  /**
   * Sessions idle for `idleMs` are closed; the sweep runs every `sweepMs`.
   * At most `max` sessions are open at once.
   */
  constructor(
    idleMs: number,
    max = Infinity,
    sweepMs = Math.min(Math.max(idleMs / 4, 250), 60_000),
  ) {
    this.#idleMs = idleMs;
    this.#max = max;
    this.#timer = setInterval(() => this.sweep(), sweepMs);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /** True when no session can be opened now (the limit is reached). */
  get full(): boolean {
    return this.#sessions.size >= this.#max;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Register a session; it leaves the registry when its transport closes. */
  add(id: string, server: Server, transport: Transport, owner?: string): Session {
    const session: Session = {
      id,
      server,
      transport,
      open: 0,
      lastSeen: performance.now(),
      owner,
    };
    this.#sessions.set(id, session);
    return session;
  }

  /**
   * The session with this id, if open and, when `principal` is given, opened
   * by that principal (another's session is as good as unknown to it).
   */
  get(id: string, principal?: string): Session | undefined {
    const session = this.#sessions.get(id);
    return session && (principal === undefined || session.owner === principal)
      ? session
      : undefined;
  }

  /** Forget a session (its transport closed). */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Mark the session busy until the returned function is called. */
  hold(session: Session): () => void {
    session.open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      session.open--;
      session.lastSeen = performance.now();
    };
  }

  /** Close sessions idle longer than the timeout. */
  sweep(now: number = performance.now()): void {
    for (const s of this.#sessions.values()) {
      if (s.open === 0 && now - s.lastSeen > this.#idleMs) this.#close(s);
    }
  }

  #close(s: Session): Promise<void> {
    this.#sessions.delete(s.id);
    return s.server.close().catch(() => {});
  }

  /** Close every session and stop the sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#sessions.values()].map((s) => this.#close(s)));
  }
}

/**
 * The response with `onEnd` called once its body has been sent or
 * abandoned (or at once if it has none).
 */
export function watchBody(res: Response, onEnd: () => void): Response {
  if (!res.body) {
    onEnd();
    return res;
  }
  const reader = res.body.getReader();
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        end();
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}
