/**
 * The streamable-http transport at `/mcp`: the SDK's
 * `WebStandardStreamableHTTPServerTransport`, one `Server` per session
 * (or, stateless, per request), all sharing one device pool.
 *
 * @module
 */
import { routePlainRequests } from "../../mcp_sdk/dispatch.ts";
import type { Server } from "../../mcp_sdk/server.ts";
import { WebStandardStreamableHTTPServerTransport } from "../../mcp_sdk/streamable_http.ts";
import { isInitializeRequest } from "../../mcp_sdk/types.ts";
import type { Context, MethodRoute } from "../../http/app.ts";
import { bodyLimit } from "../../http/body_limit.ts";
import { requireJson } from "../../http/content_type.ts";
import { HttpError, JSONRPC } from "../../http/errors.ts";
import { jsonBody } from "../../http/json_body.ts";
import type { Inflight } from "./inflight.ts";
import { answerMalformedRequest, rejectEmptyBatch } from "./json_rpc.ts";
import { noRoomMessage, type Session, type Sessions } from "./sessions.ts";
import { watchBody, whenFirstEvent } from "./event_response.ts";

/** What the `/mcp` handlers need. */
export interface StreamableOptions {
  /** A fresh MCP server (tools registered, devices shared). */
  newServer: () => Server;
  sessions: Sessions;
  inflight: Inflight;
  /** No sessions: a server and transport per request. */
  stateless: boolean;
  /** How long a request body may take to arrive (ms). */
  bodyTimeoutMs: number;
}

/** The SDK's `AuthInfo`: what a request handler's `extra.authInfo` holds. */
interface AuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  extra?: Record<string, unknown>;
}

/** The principal `authenticate` found, as the MCP SDK hands it to request handlers. */
export function authInfoOf(ctx: Context): AuthInfo | undefined {
  const principal = ctx.principal;
  if (!principal) return undefined;
  // The token itself stays here: nothing after the transport needs it.
  return { token: "", clientId: principal.name, scopes: [principal.role], extra: { principal } };
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
}

/** The `/mcp` handlers by method. */
export function streamableRoutes(opts: StreamableOptions): Record<string, MethodRoute> {
  const POST_STAGES = [
    requireJson,
    bodyLimit(undefined, opts.bodyTimeoutMs),
    jsonBody(),
    rejectEmptyBatch,
    answerMalformedRequest,
  ];
  if (opts.stateless) {
    return { POST: { use: POST_STAGES, handle: (req, ctx) => stateless(opts, req, ctx) } };
  }
  const inSession = (req: Request, ctx: Context) => {
    const id = req.headers.get("mcp-session-id");
    if (id === null) {
      throw new HttpError(
        400,
        "session_required",
        "Bad Request: Mcp-Session-Id header is required",
        { rpcCode: JSONRPC.serverError },
      );
    }
    const session = opts.sessions.get(id, ctx.principal?.name);
    if (!session) {
      throw new HttpError(404, "session_not_found", "Session not found", {
        rpcCode: JSONRPC.sessionNotFound,
      });
    }
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
    const res = await transport.handleRequest(req, {
      parsedBody: ctx.body,
      authInfo: authInfoOf(ctx),
    });
    // A POST's events answer its request: sent with the first one. A GET is
    // the session's own event stream: its head goes at once.
    return req.method === "POST" ? await whenFirstEvent(res, release) : watchBody(res, release);
  } catch (err) {
    release();
    throw err;
  }
}

/** An initialize request without a session: a new session. */
async function open(opts: StreamableOptions, req: Request, ctx: Context): Promise<Response> {
  const noRoom = opts.sessions.makeRoom(ctx.principal?.name);
  if (noRoom) {
    throw new HttpError(
      503,
      "too_many_sessions",
      noRoomMessage(noRoom, "end one (DELETE /mcp)"),
      { rpcCode: JSONRPC.serverError, headers: { "retry-after": "5" } },
    );
  }
  const server = opts.newServer();
  let session: Session | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id: string) => {
      session = opts.sessions.add(id, server, transport, ctx.principal?.name);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) opts.sessions.delete(transport.sessionId);
  };
  await server.connect(transport);
  routePlainRequests(server, transport);
  opts.inflight.track(transport);
  const res = await transport.handleRequest(req, {
    parsedBody: ctx.body,
    authInfo: authInfoOf(ctx),
  });
  if (!session) {
    // Refused before a session existed (bad protocol version, batch, ...).
    await server.close().catch(() => {});
    return res;
  }
  const release = opts.sessions.hold(session);
  return whenFirstEvent(res, release);
}

/** Stateless: a server and transport for this request only. */
async function stateless(opts: StreamableOptions, req: Request, ctx: Context): Promise<Response> {
  const server = opts.newServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
  });
  await server.connect(transport);
  routePlainRequests(server, transport);
  opts.inflight.track(transport);
  try {
    const res = await transport.handleRequest(req, {
      parsedBody: ctx.body,
      authInfo: authInfoOf(ctx),
    });
    return await whenFirstEvent(res, () => void server.close().catch(() => {}));
  } catch (err) {
    await server.close().catch(() => {});
    throw err;
  }
}
