/**
 * The streamable-http transport at `/mcp`: the SDK's
 * `WebStandardStreamableHTTPServerTransport`, one `Server` per session
 * (or, stateless, per request), all sharing one device pool.
 *
 * @module
 */
import type { Server } from "../../mcp_sdk/server.ts";
import { WebStandardStreamableHTTPServerTransport } from "../../mcp_sdk/server.ts";
import { isInitializeRequest } from "../../mcp_sdk/types.ts";
import type { Context, MethodRoute } from "./app.ts";
import { bodyLimit } from "./body_limit.ts";
import { requireJson } from "./content_type.ts";
import type { Inflight } from "./inflight.ts";
import { jsonBody } from "./json_body.ts";
import { JSONRPC, jsonRpcError } from "./responses.ts";
import { type Session, type Sessions, watchBody } from "./sessions.ts";

/** What the `/mcp` handlers need. */
export interface StreamableOptions {
  /** A fresh MCP server (tools registered, devices shared). */
  newServer: () => Server;
  sessions: Sessions;
  inflight: Inflight;
  /** No sessions: a server and transport per request. */
  stateless: boolean;
}

const POST_STAGES = [requireJson, bodyLimit(), jsonBody];

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

/** The `/mcp` handlers by method. */
export function streamableRoutes(opts: StreamableOptions): Record<string, MethodRoute> {
  if (opts.stateless) {
    return { POST: { use: POST_STAGES, handle: (req, ctx) => stateless(opts, req, ctx) } };
  }
  const inSession = (req: Request, ctx: Context) => {
    const id = req.headers.get("mcp-session-id");
    if (id === null) {
      return jsonRpcError(
        400,
        JSONRPC.serverError,
        "Bad Request: Mcp-Session-Id header is required",
      );
    }
    const session = opts.sessions.get(id);
    if (!session) return jsonRpcError(404, JSONRPC.sessionNotFound, "Session not found");
    return handle(opts.sessions, session, req, ctx);
  };
  return {
    POST: {
      use: POST_STAGES,
      handle: (req, ctx) =>
        req.headers.get("mcp-session-id") === null && isInitialize(ctx.body)
          ? open(opts, req, ctx)
          : inSession(req, ctx),
    },
    GET: inSession,
    DELETE: inSession,
  };
}

async function handle(
  sessions: Sessions,
  session: Session,
  req: Request,
  ctx: Context,
): Promise<Response> {
  const release = sessions.hold(session);
  try {
    const transport = session.transport as WebStandardStreamableHTTPServerTransport;
    const res = await transport.handleRequest(req, { parsedBody: ctx.body });
    return watchBody(res, release);
  } catch (err) {
    release();
    throw err;
  }
}

/** An initialize request without a session: a new session. */
async function open(opts: StreamableOptions, req: Request, ctx: Context): Promise<Response> {
  if (opts.sessions.full) {
    return jsonRpcError(
      503,
      JSONRPC.serverError,
      "Too many sessions: close one (DELETE /mcp) or raise --mcp.max-sessions",
    );
  }
  const server = opts.newServer();
  let session: Session | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id: string) => {
      session = opts.sessions.add(id, server, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) opts.sessions.delete(transport.sessionId);
  };
  await server.connect(transport);
  opts.inflight.track(transport);
  const res = await transport.handleRequest(req, { parsedBody: ctx.body });
  if (!session) {
    // Refused before a session existed (bad protocol version, batch, ...).
    await server.close().catch(() => {});
    return res;
  }
  const release = opts.sessions.hold(session);
  return watchBody(res, release);
}

/** Stateless: a server and transport for this request only. */
async function stateless(opts: StreamableOptions, req: Request, ctx: Context): Promise<Response> {
  const server = opts.newServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
  });
  await server.connect(transport);
  opts.inflight.track(transport);
  try {
    const res = await transport.handleRequest(req, { parsedBody: ctx.body });
    return watchBody(res, () => void server.close().catch(() => {}));
  } catch (err) {
    await server.close().catch(() => {});
    throw err;
  }
}
