/**
 * The proxied MCP servers: each one a child process over stdio or a remote
 * server over Streamable HTTP or SSE, connected with the SDK client,
 * initialised, its tools listed. A server that goes away is reconnected
 * with exponential backoff while its endpoints answer 503; one failing
 * server never affects another. Stopping ends each child process and its
 * descendants and waits for them, so nothing is left behind.
 *
 * @module
 */
import { Client, LazySchemaValidator } from "../mcp_sdk/client.ts";
import { SSEClientTransport } from "../mcp_sdk/client.ts";
import { StdioClientTransport } from "../mcp_sdk/client.ts";
import { StreamableHTTPClientTransport } from "../mcp_sdk/client.ts";
import { listAllTools } from "../mcp_sdk/list_all_tools.ts";
import type { Transport } from "../mcp_sdk/types.ts";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
} from "../mcp_sdk/types.ts";
import { log } from "../log.ts";
import { type Principal, PRINCIPAL_META_KEY } from "../auth/principal.ts";
import type { ServerSpec } from "./config_file.ts";
import { descendants, isAlive, signalAll } from "./process_tree.ts";
import { startFailure } from "./start_failure.ts";
import { redactUrls } from "./url_redact.ts";

/** Where a server is in its life. */
export type ChildState = "starting" | "up" | "down" | "stopped";

/** The `serverInfo.name` of this product: such a child applies a principal passed in `_meta`. */
export const PRODUCT_NAME = "mcp-server-router";

/** Environment variables of the proxy that its children never inherit. */
export const WITHHELD_ENV: readonly string[] = ["ROUTER_PROXY_API_KEY"];

/** Knobs shared by all servers. */
export interface ChildOptions {
  /** Name and version the proxy gives itself when initialising. */
  clientInfo: { name: string; version: string };
  /** Limit for connecting, initialising and listing tools. */
  startTimeoutMs: number;
  /** First restart delay; doubles per failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  /** Longest restart delay. */
  maxBackoffMs?: number;
  /** The configuration file the servers come from, named in start-up failures. */
  configPath?: string;
}

/** The server cannot take calls now (starting, down, or lost mid-call). */
export class ChildUnavailableError extends Error {
  /** State at the time of the call. */
  readonly state: ChildState;
  /** Seconds until the next connection attempt, when one is scheduled. */
  readonly retryInSeconds: number | null;

  constructor(message: string, state: ChildState, retryInSeconds: number | null) {
    super(message);
    this.name = "ChildUnavailableError";
    this.state = state;
    this.retryInSeconds = retryInSeconds;
  }
}

/**
 * What `/health` tells about one server (`lastError` only to an
 * authenticated caller). Never holds arguments, env or headers; a URL in
 * `lastError` is cut to its origin and path.
 */
export interface ChildStatus {
  kind: ServerSpec["kind"];
  state: ChildState;
  pid: number | null;
  tools: number;
  restarts: number;
  lastError: string | null;
  retryInSeconds: number | null;
}

/** One proxied MCP server. */
export class McpChild {
  /** Its configuration entry. */
  readonly spec: ServerSpec;
  /** Current state. */
  state: ChildState = "down";
  /** Tools as last listed; kept while the server is down. */
  tools: Tool[] = [];
  /** Reconnections after the first start. */
  restarts = 0;
  /** Why the last attempt or connection failed (URLs cut to origin and path). */
  lastError: string | null = null;
  /** Whether the server, when last up, was this product (it applies a principal in `_meta`). */
  isProduct = false;

  readonly #options: Required<ChildOptions>;
  #client?: Client;
  #transport?: Transport;
  #pid: number | null = null;
  #generation = 0;
  #failures = 0;
  #upSince = 0;
  #timer?: ReturnType<typeof setTimeout>;
  #retryAt = 0;
  #stopping = false;
  #firstAttempt?: Promise<void>;
  readonly #disposals = new Set<Promise<void>>();

  constructor(spec: ServerSpec, options: ChildOptions) {
    this.spec = spec;
    this.#options = { minBackoffMs: 500, maxBackoffMs: 30_000, configPath: "", ...options };
  }

  /** The server's name (its URL path segment). */
  get name(): string {
    return this.spec.name;
  }

  /** Process id of the running child (stdio servers only). */
  get pid(): number | null {
    return this.state === "up" || this.state === "starting" ? this.#pid : null;
  }

  /** A snapshot for `/health`. */
  status(): ChildStatus {
    return {
      kind: this.spec.kind,
      state: this.state,
      pid: this.pid,
      tools: this.tools.length,
      restarts: this.restarts,
      lastError: this.lastError,
      retryInSeconds: this.#retryInSeconds(),
    };
  }

  /** Start; resolves once the first attempt succeeded or failed (a failure retries later). */
  start(): Promise<void> {
    this.#firstAttempt ??= this.#connect();
    return this.#firstAttempt;
  }

  /**
   * Call a tool for `principal`, which a child that is this product gets in
   * `_meta` and applies in its guard chain (it can only narrow what the
   * proxy, which owns the child, may do). Throws `ChildUnavailableError`
   * when the server is not up, or `McpError`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    principal?: Principal,
  ): Promise<CallToolResult> {
    const client = this.#client;
    const generation = this.#generation;
    if (this.state !== "up" || !client) throw this.#unavailable();
    const ours = client.getServerVersion()?.name === PRODUCT_NAME;
    const params = principal && ours
      ? { name, arguments: args, _meta: { [PRINCIPAL_META_KEY]: principal } }
      : { name, arguments: args };
    try {
      return await client.request(
        { method: "tools/call", params },
        CallToolResultSchema,
        { timeout: timeoutMs },
      ) as CallToolResult;
    } catch (err) {
      if (err instanceof McpError && mcpCode(err) !== ErrorCode.ConnectionClosed) throw err;
      this.#fail(generation, `connection lost: ${messageOf(err)}`);
      throw this.#unavailable();
    }
  }

  /** Stop for good: close the connection, end the process and its descendants. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    this.#generation++;
    this.state = "stopped";
    this.#track(this.#dispose());
    await Promise.all([...this.#disposals]);
  }

  #track(disposal: Promise<void>): void {
    this.#disposals.add(disposal);
    disposal.finally(() => this.#disposals.delete(disposal)).catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#stopping) return;
    const generation = ++this.#generation;
    this.state = "starting";
    this.#pid = null;
    const client = new Client(this.#options.clientInfo, {
      capabilities: {},
      jsonSchemaValidator: new LazySchemaValidator(),
    });
    let transport: Transport;
    try {
      transport = this.#makeTransport();
    } catch (err) {
      this.#fail(generation, `cannot start: ${messageOf(err)}`);
      return;
    }
    this.#client = client;
    this.#transport = transport;
    let transportError: string | undefined;
    client.onerror = (err: Error) => {
      transportError = messageOf(err);
      log("debug", `proxy: ${this.name}: ${transportError}`);
    };
    client.onclose = () => {
      const reason = this.state === "starting"
        ? `cannot start: ${
          transportError === undefined
            ? "it ended while starting"
            : startFailure(this.spec, transportError, this.#options.configPath)
        }`
        : this.spec.kind === "stdio"
        ? "exited"
        : "connection closed";
      this.#fail(generation, reason);
    };
    try {
      const timeout = this.#options.startTimeoutMs;
      await client.connect(transport, { timeout });
      if (transport instanceof StdioClientTransport) this.#pid = transport.pid;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        try {
          const tools = await listAllTools(client, timeout);
          if (generation === this.#generation) this.tools = tools;
          log("info", `proxy: ${this.name}: tool list changed (${tools.length} tools)`);
        } catch (err) {
          log("warning", `proxy: ${this.name}: cannot list tools again: ${messageOf(err)}`);
        }
      });
      const tools = await listAllTools(client, timeout);
      if (generation !== this.#generation) return;
      this.isProduct = client.getServerVersion()?.name === PRODUCT_NAME;
      this.tools = tools;
      this.state = "up";
      this.#upSince = Date.now();
      this.lastError = null;
      const where = this.#pid ? `pid ${this.#pid}` : this.spec.kind;
      log("info", `proxy: ${this.name}: up (${where}, ${tools.length} tools)`);
    } catch (err) {
      const why = startFailure(this.spec, messageOf(err), this.#options.configPath);
      this.#fail(generation, `cannot start: ${why}`);
    }
  }

  #makeTransport(): Transport {
    const spec = this.spec;
    if (spec.kind === "stdio") {
      const env = Deno.env.toObject();
      for (const name of WITHHELD_ENV) delete env[name];
      const transport = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        env: { ...env, ...spec.env },
        cwd: spec.cwd,
        stderr: "pipe",
      });
      relayStderr(this.name, transport);
      return transport;
    }
    const requestInit = { headers: spec.headers };
    return spec.kind === "sse"
      ? new SSEClientTransport(new URL(spec.url), { requestInit })
      : new StreamableHTTPClientTransport(new URL(spec.url), { requestInit });
  }

  /** Mark generation `generation` failed and schedule a reconnection; later calls are no-ops. */
  #fail(generation: number, reason: string): void {
    if (generation !== this.#generation || this.#stopping) return;
    this.#generation++;
    this.state = "down";
    reason = redactUrls(reason);
    this.lastError = reason;
    this.#track(this.#dispose());
    if (this.#upSince && Date.now() - this.#upSince > 30_000) this.#failures = 0;
    this.#upSince = 0;
    const delay = Math.min(
      this.#options.maxBackoffMs,
      this.#options.minBackoffMs * 2 ** this.#failures,
    );
    this.#failures++;
    this.#retryAt = Date.now() + delay;
    log(
      "warning",
      `proxy: ${this.name}: ${reason}; reconnecting in ${(delay / 1000).toFixed(1)} s`,
    );
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.restarts++;
      void this.#connect();
    }, delay);
  }

  /** Close the current connection; for a child process, make sure it and its descendants end. */
  async #dispose(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    if (!client) return;
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    const tree = pid ? descendants(pid) : [];
    client.onclose = undefined;
    // The SDK's sequence: close stdin, wait, SIGTERM, wait, SIGKILL.
    await client.close().catch(() => {});
    if (pid) await waitGone([pid], 2_000);
    const left = tree.filter(isAlive);
    if (left.length) {
      signalAll(left, "SIGTERM");
      await waitGone(left, 1_000);
      signalAll(left.filter(isAlive), "SIGKILL");
    }
  }

  #retryInSeconds(): number | null {
    if (this.state !== "down" || !this.#retryAt) return null;
    return Math.max(0, Math.ceil((this.#retryAt - Date.now()) / 1000));
  }

  #unavailable(): ChildUnavailableError {
    const why = this.state === "starting"
      ? "is starting"
      : this.state === "stopped"
      ? "is stopping"
      : `is down (${this.lastError ?? "not started"})`;
    return new ChildUnavailableError(
      `server ${this.name} ${why}; try again shortly`,
      this.state,
      this.#retryInSeconds(),
    );
  }
}

/** All proxied servers, by name. */
export class Children {
  readonly #byName = new Map<string, McpChild>();

  constructor(specs: ServerSpec[], options: ChildOptions) {
    for (const spec of specs) this.#byName.set(spec.name, new McpChild(spec, options));
  }

  /** The server called `name`. */
  get(name: string): McpChild | undefined {
    return this.#byName.get(name);
  }

  /** All servers in configuration order. */
  list(): McpChild[] {
    return [...this.#byName.values()];
  }

  /** Start every server at once; resolves when each first attempt is over. */
  async startAll(): Promise<void> {
    await Promise.all(this.list().map((c) => c.start()));
  }

  /** Stop every server and wait for their processes to end. */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((c) => c.stop()));
  }
}

/** Copy a child's stderr to ours, one prefixed line at a time. */
function relayStderr(name: string, transport: StdioClientTransport): void {
  const stream = transport.stderr;
  if (!stream) return;
  const decoder = new TextDecoder();
  let pending = "";
  const encoder = new TextEncoder();
  stream.on("data", (chunk: Uint8Array) => {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    const text = lines.map((l) => `[${name}] ${l}\n`).join("");
    if (text) Deno.stderr.writeSync(encoder.encode(text));
  });
}

async function waitGone(pids: number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(isAlive) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * An error as one line that says what happened: the SDK's HTTP transports
 * keep the status in `code` and the network error in `cause`, and their
 * own message can end before either ("Error POSTing to endpoint: ",
 * "fetch failed"). A URL in it (fetch errors quote the child's, query
 * and userinfo included) is cut to its origin and path.
 */
function messageOf(err: unknown): string {
  return redactUrls(rawMessageOf(err));
}

function rawMessageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let message = err.message.trim().replace(/:$/, "");
  const code = (err as { code?: unknown }).code;
  if (/^(Streamable HTTP|SSE) error/.test(message) && typeof code === "number" && code > 0) {
    message += ` (HTTP ${code})`;
  }
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  if (cause && !message.includes(cause)) message += `: ${cause}`;
  return message;
}

/** The JSON-RPC code of an `McpError` (the SDK's typings lose it under Deno). */
export function mcpCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof McpError && typeof code === "number" ? code : undefined;
}
