/**
 * Test helper: a raw JSON-RPC client over a child process's stdin and
 * stdout (newline-delimited, as MCP's stdio transport is), that keeps the
 * raw bytes of every message the process writes. For what an SDK client
 * hides: the size of each message on the wire, and third-party stdio
 * programs (mcp-remote) driven as an MCP client drives them.
 *
 * @module
 */

/** One message from the process, parsed, with its size on the wire (without the newline). */
export interface RawMessage {
  message: Record<string, any>;
  bytes: number;
}

/** A process spoken to in JSON-RPC over stdio. */
export class JsonRpcStdio {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #waiting = new Map<number, (m: RawMessage) => void>();
  readonly #reading: Promise<void>;
  readonly #readingStderr: Promise<void>;
  #stderr = "";
  #nextId = 1;
  /** Every message received, in order (answers and notifications). */
  readonly received: RawMessage[] = [];

  constructor(command: string, args: string[], env: Record<string, string>) {
    this.#child = new Deno.Command(command, {
      args,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reading = this.#read();
    this.#readingStderr = this.#readStderr(this.#child.stderr);
  }

  /** What the process wrote to stderr so far. */
  get stderr(): string {
    return this.#stderr;
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    for await (const chunk of stream) this.#stderr += dec.decode(chunk, { stream: true });
  }

  async #read(): Promise<void> {
    let pending = new Uint8Array(0);
    const dec = new TextDecoder();
    for await (const chunk of this.#child.stdout) {
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      let start = 0;
      for (let i = 0; i < joined.length; i++) {
        if (joined[i] !== 0x0a) continue;
        const line = joined.subarray(start, i);
        start = i + 1;
        if (!line.length) continue;
        const raw = { message: JSON.parse(dec.decode(line)), bytes: line.length };
        this.received.push(raw);
        const id = raw.message.id;
        if (typeof id === "number" && !("method" in raw.message)) this.#waiting.get(id)?.(raw);
      }
      pending = joined.slice(start);
    }
  }

  async #send(message: Record<string, unknown>): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Send a request and wait for its answer (result or error), at most `ms`. */
  async request(
    method: string,
    params?: Record<string, unknown>,
    ms = 60_000,
  ): Promise<RawMessage> {
    const id = this.#nextId++;
    const answer = new Promise<RawMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(
          new Error(`${method}: no answer in ${ms} ms; stderr:\n${this.#stderr.slice(-2000)}`),
        );
      }, ms);
      this.#waiting.set(id, (m) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(m);
      });
    });
    await this.#send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    return await answer;
  }

  /** Send a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.#send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  }

  /** `initialize`, then `notifications/initialized` once it is answered. */
  async initialize(ms?: number): Promise<RawMessage> {
    const r = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw-jsonrpc", version: "1" },
    }, ms);
    await this.notify("notifications/initialized");
    return r;
  }

  /** Close stdin, wait up to `ms` for the exit, then kill the process. */
  async close(ms = 5000): Promise<void> {
    await this.#writer.close().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        try {
          this.#child.kill("SIGKILL");
        } catch {
          // already gone
        }
        resolve();
      }, ms);
    });
    await Promise.race([this.#child.status, killed]);
    clearTimeout(timer);
    await this.#child.status;
    await this.#reading.catch(() => {});
    await this.#readingStderr.catch(() => {});
  }
}
