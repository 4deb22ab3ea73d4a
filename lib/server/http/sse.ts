/**
 * The legacy SSE transport's routes: `GET /sse` opens a session's event
 * stream, `POST /messages?sessionId=<id>` delivers its messages (202).
 *
 * @module
 */
import { routePlainRequests } from "../../mcp_sdk/dispatch.ts";
import type { Server } from "../../mcp_sdk/server.ts";
import type { Handler, MethodRoute } from "../../http/app.ts";
import { bodyLimit } from "../../http/body_limit.ts";
import { requireJson } from "../../http/content_type.ts";
import { HttpError, JSONRPC } from "../../http/errors.ts";
import { jsonBody } from "../../http/json_body.ts";
import { plainText } from "../../http/responses.ts";
import type { Inflight } from "./inflight.ts";
import { answerMalformedRequest, rejectEmptyBatch } from "./json_rpc.ts";
import { noRoomMessage, type Sessions } from "./sessions.ts";
import { SseServerTransport } from "./sse_transport.ts";
import { authInfoOf } from "./streamable.ts";

/** Where clients POST messages. */
export const MESSAGES_PATH = "/messages";

/** What the SSE handlers need. */
export interface SseOptions {
  newServer: () => Server;
  sessions: Sessions;
  inflight: Inflight;
  /** How long a request body may take to arrive (ms). */
  bodyTimeoutMs: number;
}

/** `GET /sse`: a new session whose event stream is the response. */
export function sseStream(opts: SseOptions): Handler {
  return async (_req, ctx) => {
    const noRoom = opts.sessions.makeRoom(ctx.principal?.name);
    if (noRoom) {
      return new Response(`${noRoomMessage(noRoom, "close an event stream")}\n`, {
        status: 503,
        headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "5" },
      });
    }
    const server = opts.newServer();
    const transport = new SseServerTransport(MESSAGES_PATH);
    const session = opts.sessions.add(
      transport.sessionId,
      server,
      transport,
      ctx.principal?.name,
    );
    const release = opts.sessions.hold(session); // busy while the stream is open
    transport.onclose = () => {
      release();
      opts.sessions.delete(transport.sessionId);
      void server.close().catch(() => {});
    };
    await server.connect(transport);
    routePlainRequests(server, transport);
    opts.inflight.track(transport);
    return transport.response;
  };
}

/** `POST /messages?sessionId=<id>`: deliver a message to the session. */
export function sseMessages(opts: SseOptions): MethodRoute {
  return {
    use: [
      requireJson,
      bodyLimit(undefined, opts.bodyTimeoutMs),
      jsonBody(),
      rejectEmptyBatch,
      answerMalformedRequest,
    ],
    handle: (req, ctx) => {
      const id = ctx.query.get("sessionId");
      if (!id) return plainText(400, "sessionId query parameter is required");
      const session = opts.sessions.get(id, ctx.principal?.name);
      if (!session || !(session.transport instanceof SseServerTransport)) {
        return plainText(404, "Session not found");
      }
      const requestInfo = { headers: Object.fromEntries(req.headers) };
      if (!session.transport.receive(ctx.body, { requestInfo, authInfo: authInfoOf(ctx) })) {
        throw new HttpError(400, "invalid_request", "Invalid Request: not a JSON-RPC message", {
          rpcCode: JSONRPC.invalidRequest,
        });
      }
      return plainText(202, "Accepted");
    },
  };
}
