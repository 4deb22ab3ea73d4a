/**
 * Every use of the MCP SDK's internals by the product, in one place,
 * checked by `tests/unit/sdk_dispatch.test.ts` (which names what changed
 * and the SDK version when an upgrade moves it). Both shortcuts keep one
 * full check of every request; they drop checks that are repeated or that
 * only re-read the server's own answer.
 *
 * - **Routing.** The SDK's `Protocol` tells a message's kind by running it
 *   through its response, error and request schemas in turn: for a plain
 *   request two of those fail, each building a `ZodError` with its stack.
 *   {@linkcode routePlainRequests} hands a message that `isPlainRequest`
 *   accepts (every key and type the request schema demands, nothing else)
 *   straight to `_onrequest`, the method the SDK's own routing calls for
 *   it; a transport that tells plain requests itself (the stdio one) takes
 *   {@linkcode plainRequestDispatch} and checks each message once.
 * - **`tools/call`.** `Server.setRequestHandler` wraps the tools/call handler
 *   to parse the request a second time and to parse the result against
 *   `CallToolResultSchema` (copying it) before sending it.
 *   {@linkcode setToolCallHandler} registers the handler through
 *   `Protocol.setRequestHandler`, the base method the wrapper itself calls:
 *   the request is parsed once, the result (the server's own, typed
 *   `CallToolResult`) is sent as it is. Clients check results against each
 *   tool's output schema themselves. The SDK's parse of `arguments` (a
 *   zod record) drops an own `__proto__` key, which JSON.parse makes like
 *   any other: the handler gets it back as an own key, so the guard chain
 *   refuses what the client sent instead of running the call without it.
 *
 * - **Invalid params.** The SDK answers a request whose params fail its
 *   schema with `-32603` and a multi-line dump of the validation errors.
 *   {@linkcode answerInvalidParams} wraps each handler in
 *   `Protocol._requestHandlers` so that such a request gets `-32602` with
 *   one line.
 *
 * When an internal is missing (a changed SDK), each falls back to the
 * public path, and the test fails.
 *
 * @module
 */
import type { Server } from "./server.ts";
import type { CallToolRequestSchema, CallToolResult, JSONRPCMessage, Transport } from "./types.ts";
import type { z } from "zod";

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * Whether `value` is a request that `JSONRPCMessageSchema` certainly
 * accepts and the SDK's routing certainly sends to `_onrequest`, told
 * without running a schema: `jsonrpc` "2.0", a string or safe-integer
 * `id`, a string `method`, `params` absent or an object without `_meta`,
 * and no other key. Everything else (notifications, responses, `_meta`,
 * anything odd) goes through the SDK's schemas.
 */
export function isPlainRequest(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string") return false;
  if (typeof m.id !== "string" && !Number.isSafeInteger(m.id)) return false;
  const params = m.params;
  if (params !== undefined) {
    if (typeof params !== "object" || params === null || Array.isArray(params)) return false;
    if (Object.hasOwn(params, "_meta")) return false;
  }
  for (const key of Object.keys(m)) if (!REQUEST_KEYS.has(key)) return false;
  return true;
}

type Message = Parameters<NonNullable<Transport["onmessage"]>>;
type ToolCallHandler = Parameters<
  typeof Server.prototype.setRequestHandler<typeof CallToolRequestSchema>
>[1];

interface Internals {
  _onrequest?: (request: JSONRPCMessage, extra?: Message[1]) => void;
  _requestHandlers?: Map<string, (request: unknown, extra: unknown) => Promise<unknown>>;
}

/** The SDK's `Protocol.setRequestHandler` (the method `Server` overrides). */
function protocolSetRequestHandler(server: Server) {
  const base = Object.getPrototypeOf(Object.getPrototypeOf(server)) as {
    setRequestHandler?: Server["setRequestHandler"];
  };
  return base && base !== Object.prototype && typeof base.setRequestHandler === "function" &&
      base.setRequestHandler !== Object.getPrototypeOf(server).setRequestHandler
    ? base.setRequestHandler
    : undefined;
}

/** The internals this module uses that `server` lacks (empty when all are there). */
export function missingSdkInternals(server: Server): string[] {
  const missing: string[] = [];
  if (typeof (server as unknown as Internals)._onrequest !== "function") {
    missing.push("Protocol._onrequest");
  }
  if (!protocolSetRequestHandler(server)) missing.push("Protocol.prototype.setRequestHandler");
  if (!((server as unknown as Internals)._requestHandlers instanceof Map)) {
    missing.push("Protocol._requestHandlers");
  }
  return missing;
}

/** Handle `tools/call` with the request parsed once and the result sent as it is. */
export function setToolCallHandler(
  server: Server,
  schema: typeof CallToolRequestSchema,
  handler: (
    request: z.infer<typeof CallToolRequestSchema>,
    extra: Parameters<ToolCallHandler>[1],
  ) => Promise<CallToolResult>,
): void {
  const base = protocolSetRequestHandler(server);
  // The raw `arguments` whose own `__proto__` the parse dropped, by the
  // request's `extra` (the SDK hands the same object to both).
  const dropped = new WeakMap<object, unknown>();
  const restoring: typeof handler = (request, extra) => {
    const args = request.params.arguments;
    if (dropped.has(extra) && args) {
      Object.defineProperty(args, "__proto__", {
        value: dropped.get(extra),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return handler(request, extra);
  };
  if (base) base.call(server, schema, restoring);
  else server.setRequestHandler(schema, restoring);
  const handlers = (server as unknown as Internals)._requestHandlers;
  const parse = handlers instanceof Map ? handlers.get("tools/call") : undefined;
  if (!parse) return;
  handlers!.set("tools/call", (request, extra) => {
    const args = (request as { params?: { arguments?: unknown } })?.params?.arguments;
    if (
      typeof args === "object" && args !== null && Object.hasOwn(args, "__proto__") &&
      typeof extra === "object" && extra !== null
    ) {
      dropped.set(extra, (args as Record<string, unknown>)["__proto__"]);
    }
    return parse(request, extra);
  });
}

/**
 * The SDK's request dispatch of a connected `server`, for a message known to
 * be a plain request; undefined when the SDK lacks it (then everything goes
 * through its routing).
 */
export function plainRequestDispatch(
  server: Server,
): ((request: JSONRPCMessage, extra?: Message[1]) => void) | undefined {
  const onrequest = (server as unknown as Internals)._onrequest;
  return typeof onrequest === "function"
    ? (request, extra) => onrequest.call(server, request, extra)
    : undefined;
}

/**
 * Once `server` is connected to `transport`: messages `isPlainRequest`
 * accepts go straight to the SDK's request dispatch, the rest through its
 * routing. Each message is checked here once.
 */
export function routePlainRequests(server: Server, transport: Transport): void {
  const dispatch = plainRequestDispatch(server);
  const route = transport.onmessage;
  if (!dispatch || !route) return;
  transport.onmessage = (message, extra) => {
    if (isPlainRequest(message)) dispatch(message, extra);
    else route(message, extra);
  };
}

/** JSON-RPC "invalid params". */
const INVALID_PARAMS = -32602;

/** The most characters of an invalid-params message. */
const MAX_MESSAGE = 200;

/** An issue of a failed request parse, as zod reports it. */
interface Issue {
  path: PropertyKey[];
  message: string;
}

/**
 * The `-32602` error for a request whose params the SDK's schema refused
 * (a `ZodError`), in one line: the first issue's path and message, and how
 * many more; undefined for any other error.
 */
export function invalidParams(err: unknown): (Error & { code: number }) | undefined {
  const issues = (err as { issues?: unknown })?.issues;
  if (!/ZodError$/.test((err as Error)?.name ?? "") || !Array.isArray(issues) || !issues.length) {
    return undefined;
  }
  const [first, ...rest] = issues as Issue[];
  const path = first.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`)
    .join("").replace(/^\./, "") || "params";
  let message = `Invalid params: ${path}: ${first.message.replace(/^Invalid input: /, "")}`
    .replace(/\s+/g, " ");
  if (message.length > MAX_MESSAGE) message = message.slice(0, MAX_MESSAGE) + "\u2026";
  if (rest.length) message += ` (and ${rest.length} more)`;
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}

/**
 * Once every request handler of `server` is registered (its own
 * `initialize` and `ping` included): a request whose params do not have the
 * method's shape is answered `-32602 Invalid params` in one line, where the
 * SDK answers `-32603` with its validation errors as a multi-line JSON dump.
 * Each handler is wrapped; the SDK's parse stays the one check.
 */
export function answerInvalidParams(server: Server): void {
  const handlers = (server as unknown as Internals)._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    // The SDK parses the request before it calls the handler, synchronously:
    // only that parse is caught here (no promise more per request).
    handlers.set(method, (request, extra) => {
      try {
        return handler(request, extra);
      } catch (err) {
        throw invalidParams(err) ?? err;
      }
    });
  }
}
