/**
 * Open MCP sessions over HTTP (streamable-http and SSE), each with its own
 * `Server`. A session is busy while one of its responses is streaming
 * (a call in progress, an open event stream); once idle longer than the
 * timeout it is closed.
 *
 * Places are shared fairly between principals, so one (a crashed agent, a
 * hostile read key) cannot take them all from the others:
 *
 * - a principal holds at most its share (`perPrincipal`); a new session past
 *   it closes that principal's own least recently used idle session, and is
 *   refused when all of them are busy;
 * - when every place is taken, a new session closes the least recently used
 *   idle session of the principal holding the most, if that principal holds
 *   more than the newcomer; otherwise it is refused.
 *
 * A closed session's client gets `404 Session not found` at its next
 * request and starts a new one, as after the idle timeout. Busy sessions are
 * never closed (a call may be running).
 *
 * @module
 */
import { log } from "../../log.ts";
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

/** Why a new session has no place (and what its refusal says). */
export interface NoRoom {
  /** `principal`: it holds its share, all busy; `server`: every place is taken. */
  limit: "principal" | "server";
  /** Sessions the principal holds. */
  held: number;
}

/** The sentence of a refusal for `room`. */
export function noRoomMessage(room: NoRoom, howToEnd: string): string {
  return room.limit === "principal"
    ? `Too many sessions: this client's principal holds ${room.held}, its share ` +
      `(--mcp.max-sessions-per-principal), and every one is in use; ${howToEnd}`
    : `Too many sessions: every place is in use; ${howToEnd}, or raise --mcp.max-sessions`;
}

/** The default share of one principal: three quarters of the places (at least one). */
export function defaultShare(max: number): number {
  return Math.max(1, max - Math.floor(max / 4));
}

/** The session registry with idle expiry and fair shares. */
export class Sessions {
  #sessions = new Map<string, Session>();
  #idleMs: number;
  #timer: ReturnType<typeof setInterval>;

  #max: number;
  #perPrincipal: number;

  /**
   * Sessions idle for `idleMs` are closed; the sweep runs every `sweepMs`.
   * At most `max` sessions are open at once, `perPrincipal` of one principal.
   */
  constructor(
    idleMs: number,
    max = Infinity,
    sweepMs = Math.min(Math.max(idleMs / 4, 250), 60_000),
    perPrincipal = defaultShare(max),
  ) {
    this.#idleMs = idleMs;
    this.#max = max;
    this.#perPrincipal = perPrincipal;
    this.#timer = setInterval(() => this.sweep(), sweepMs);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /**
   * Make a place for a new session of `owner`, closing an idle session when
   * a limit is reached (see the module's rules); what stands in the way when
   * no place can be made.
   */
  makeRoom(owner?: string): NoRoom | undefined {
    const counts = new Map<string | undefined, number>();
    for (const s of this.#sessions.values()) counts.set(s.owner, (counts.get(s.owner) ?? 0) + 1);
    let held = counts.get(owner) ?? 0;
    if (held >= this.#perPrincipal) {
      const own = this.#leastRecent((s) => s.owner === owner);
      if (!own) return { limit: "principal", held };
      this.#evict(own, owner, `it holds ${held}, its share (--mcp.max-sessions-per-principal)`);
      counts.set(owner, --held);
    }
    if (this.#sessions.size < this.#max) return undefined;
    // The idle sessions of whoever holds the most, if more than the newcomer.
    let most = 0;
    for (const [o, n] of counts) if (o !== owner && n > most) most = n;
    const other = most > held
      ? this.#leastRecent((s) => s.owner !== owner && counts.get(s.owner) === most)
      : undefined;
    if (!other) return { limit: "server", held };
    this.#evict(other, owner, `every place is taken and it holds ${most}, the most`);
    return undefined;
  }

  /** The least recently used idle session among those `which` accepts. */
  #leastRecent(which: (s: Session) => boolean): Session | undefined {
    let found: Session | undefined;
    for (const s of this.#sessions.values()) {
      if (s.open === 0 && which(s) && (!found || s.lastSeen < found.lastSeen)) found = s;
    }
    return found;
  }

  #evict(s: Session, newcomer: string | undefined, why: string): void {
    log(
      "info",
      `closed an idle session of ${s.owner ?? "?"} for a new one of ${newcomer ?? "?"}: ${why}`,
    );
    void this.#close(s);
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
