/**
 * A loopback TCP relay that delays each direction by half a round trip, to
 * put a WAN link between a client and a simulated router (this kernel has
 * no `netem`).
 *
 * Bytes keep their order and are forwarded `rttMs / 2` after they arrive.
 * A real TCP connection costs one round trip before the client can send;
 * the kernel completes the handshake with the relay at once, so the relay
 * charges it: it opens its upstream connection 1.5 round trips after
 * accepting (when a real server would see the handshake's final ACK) and
 * forwards nothing to the router before that. Bounded: loopback only, at
 * most `maxConnections` connections and 1 MiB buffered per direction (the
 * sender is paused beyond).
 *
 * @module
 */
import net from "node:net";

/** A running relay. */
export interface DelayRelay {
  /** Where clients connect (127.0.0.1). */
  readonly host: string;
  readonly port: number;
  readonly rttMs: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Stop listening and drop every connection. */
  close(): Promise<void>;
}

/** Relay options. */
export interface RelayOptions {
  /** Round-trip time to add (each direction gets half). */
  rttMs: number;
  /** Charge the TCP handshake's round trip (default true). */
  chargeHandshake?: boolean;
  /** Connections at once (default 1024). */
  maxConnections?: number;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
const MAX_BUFFERED = 1 << 20;

/** One direction: forwards chunks from `src` to `dst()` after a delay, in order. */
class DelayedPipe {
  #queue: { due: number; chunk: Uint8Array | null }[] = [];
  #bytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #paused = false;

  constructor(
    private readonly src: net.Socket,
    private readonly dst: () => net.Socket | undefined,
    private readonly delayMs: number,
    private readonly notBefore: () => number,
  ) {
    src.on("data", (chunk: Uint8Array) => {
      const due = Math.max(performance.now() + delayMs, notBefore());
      this.#queue.push({ due, chunk });
      this.#bytes += chunk.length;
      if (this.#bytes > MAX_BUFFERED && !this.#paused) {
        this.#paused = true;
        src.pause();
      }
      this.#schedule();
    });
    // The end of the stream travels with the same delay as the data.
    src.on("end", () => {
      this.#queue.push({ due: Math.max(performance.now() + delayMs, notBefore()), chunk: null });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#queue.length === 0) return;
    const wait = Math.max(0, this.#queue[0].due - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    const dst = this.dst();
    if (!dst) {
      this.#schedule();
      return;
    }
    const now = performance.now();
    // setTimeout may fire a fraction of a millisecond early: allow 0.5 ms.
    while (this.#queue.length && this.#queue[0].due <= now + 0.5) {
      const { chunk } = this.#queue.shift()!;
      if (chunk === null) {
        if (!dst.destroyed) dst.end();
        continue;
      }
      this.#bytes -= chunk.length;
      if (!dst.destroyed) dst.write(chunk);
    }
    if (this.#paused && this.#bytes < MAX_BUFFERED / 2) {
      this.#paused = false;
      this.src.resume();
    }
    this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#bytes = 0;
  }
}

/** Start a relay on 127.0.0.1 in front of `upstream` (which must be on loopback too). */
export async function startDelayRelay(
  upstream: { host: string; port: number },
  options: RelayOptions,
): Promise<DelayRelay> {
  if (!LOOPBACK.has(upstream.host)) {
    throw new Error(`the delay relay is loopback-only; upstream host ${upstream.host} is not`);
  }
  const half = options.rttMs / 2;
  const handshakeMs = options.chargeHandshake === false ? 0 : 1.5 * options.rttMs;
  const closers = new Set<() => void>();
  let accepted = 0;
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    accepted++;
    client.setNoDelay(true);
    client.on("error", () => {});
    const openAt = performance.now() + handshakeMs;
    let up: net.Socket | undefined;
    let done = false;
    let lingering: ReturnType<typeof setTimeout> | undefined;
    const pipes: DelayedPipe[] = [];
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(opener);
      clearTimeout(lingering);
      for (const p of pipes) p.stop();
      client.destroy();
      up?.destroy();
      closers.delete(finish);
    };
    closers.add(finish);
    // A closed side lets the other side's delayed bytes arrive, then drops both.
    const later = () => {
      if (lingering === undefined && !done) lingering = setTimeout(finish, half + 5);
    };
    pipes.push(new DelayedPipe(client, () => up, half, () => openAt));
    const opener = setTimeout(() => {
      if (done) return;
      up = net.connect({ host: upstream.host, port: upstream.port, allowHalfOpen: true });
      up.setNoDelay(true);
      up.on("error", () => {});
      up.on("close", later);
      pipes.push(new DelayedPipe(up, () => client, half, () => 0));
    }, handshakeMs);
    client.on("close", later);
  });
  server.maxConnections = options.maxConnections ?? 1024;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host: "127.0.0.1",
    port,
    rttMs: options.rttMs,
    get accepted() {
      return accepted;
    },
    close: () => {
      for (const finish of [...closers]) finish();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
